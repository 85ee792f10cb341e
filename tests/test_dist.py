"""Installing outside the clone (issue 22 item 11): the wheel ``make dist`` builds installs into a
fresh virtual environment, carries its data files (migrations, the page, the demo history) and
gives a working ``memctl``. The fresh environment borrows this one's dependencies through a path
file instead of downloading them, so the test runs offline in seconds."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def make_dist_command() -> list[str]:
    """The wheel command of the Makefile's ``dist`` target, as this interpreter runs it."""
    recipe = re.search(r"^dist: .*\n\t(.+)$", (ROOT / "Makefile").read_text("utf-8"), re.M)
    assert recipe, "the Makefile has no dist target"
    args = recipe.group(1).split()
    assert args[0] == "$(BIN)/pip"
    return [sys.executable, "-m", "pip", *args[1:]]


@pytest.mark.slow
def test_the_built_wheel_installs_and_runs_in_a_fresh_venv(tmp_path: Path) -> None:
    clean = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")
    }  # nothing of ours leaks in
    checkout = tmp_path / "checkout"  # a copy: the build writes egg-info and build/ next to the sources
    checkout.mkdir()
    for name in ("pyproject.toml", "README.md", "src"):
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy2
        copy(
            ROOT / name,
            checkout / name,
            **({"ignore": shutil.ignore_patterns("__pycache__", "*.egg-info")} if name == "src" else {}),
        )
    subprocess.run(make_dist_command(), cwd=checkout, check=True, capture_output=True, timeout=300)
    [wheel] = (checkout / "dist").glob("neuromem-*-py3-none-any.whl")

    fresh = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(fresh)
    python = fresh / "bin" / "python"
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
        env=clean,
    )
    # then the dependencies from this environment, after the fresh one's own packages (so the wheel wins;
    # written after the install, or pip would take this environment's neuromem for the wheel's)
    (site / "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    where = subprocess.run(
        [
            python,
            "-c",
            "import neuromem, importlib.resources as r; print(neuromem.__file__); "
            "print(all(r.files('neuromem').joinpath(p).is_file() for p in "
            "('store/schema.sql', 'service/web/static/index.html', 'demo_data/conversation.json', 'py.typed', '__init__.pyi')))",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=clean,
    )
    assert where.returncode == 0, where.stderr
    where = where.stdout.split()
    assert Path(where[0]).is_relative_to(site) and where[1] == "True", where
    helped = subprocess.run(
        [fresh / "bin" / "memctl", "--help"], capture_output=True, text=True, cwd=tmp_path, env=clean
    )
    assert helped.returncode == 0 and "neuromem: long-term memory for LLM agents" in helped.stdout, (
        helped.stderr
    )
