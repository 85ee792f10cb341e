"""Every benchmark named in the Makefile starts from the repository root and answers ``--help``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGETS = {
    "bench-recall": "retrieval",
    "bench-madial": "retrieval",
    "bench-latency": "latency",
    "bench-scale": "scale",
    "bench-ingest": "ingest",
    "bench-reflect": "reflect",
    "bench-load": "load",
    "bench-forget": "forget",
    "bench-fact-pairs": "fact_pairs",
    "bench-ordered-facts": "ordered_facts",
    "bench-faults": "faults",
    "bench-cli": "cli",
    "bench-writesize": "writesize",
}


def test_the_makefile_runs_each_benchmark_as_a_module() -> None:
    makefile = (ROOT / "Makefile").read_text()
    for target, module in TARGETS.items():
        recipe = re.search(rf"^{target}:.*\n\t(.+)$", makefile, flags=re.MULTILINE)
        assert recipe is not None, f"make target {target} is missing"
        assert f"$(BENCH).{module}" in recipe.group(1), recipe.group(1)
    assert "BENCH := PYTHONPATH=. $(BIN)/python -m bench" in makefile


@pytest.mark.parametrize("module", sorted(set(TARGETS.values()) | {"embedder", "tune_fusion"}))
def test_benchmark_answers_help(module: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", "--help"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage:"), done.stdout[:200]


@pytest.mark.parametrize(
    ("sizes", "message"), [("0", "sizes must be positive"), ("abc", "invalid int value")]
)
def test_reflect_benchmark_rejects_bad_sizes_before_starting_a_server(sizes: str, message: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bench.reflect", sizes],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert message in done.stderr


def test_fault_runs_reject_bad_sizes_before_starting_a_server() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bench.faults", "writers", "--writers", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "--writers must be positive" in done.stderr
