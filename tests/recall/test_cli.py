"""``memctl recall --trace`` over a real database."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from neuromem.cli.main import cli


@pytest.fixture
def run(memctl):  # type: ignore[no-untyped-def]
    return memctl


def test_recall_trace_shows_paths_timings_and_stages(run) -> None:  # type: ignore[no-untyped-def]
    run("add", "-u", "kim", "Kim is learning to sail on Lake Geneva")
    out = run("recall", "-u", "kim", "sailing on the lake", "--trace", "--prompt", "100")
    assert out.exit_code == 0, out.output
    assert "Lake Geneva" in out.output and "found by" in out.output
    paths = next(line for line in out.output.splitlines() if line.startswith("paths:"))
    assert {"bm25=ran", "vector=ran"} <= set(paths.removeprefix("paths:").strip().split(", "))
    assert "timings:" in out.output and "total" in out.output
    assert "query: " in out.output and "final: " in out.output
    assert "[User memory]" in out.output and "[1] memory" in out.output


def test_recall_json_and_bad_recipe(run) -> None:  # type: ignore[no-untyped-def]
    run("add", "-u", "kim", "Kim drinks oolong tea")
    out = run("recall", "-u", "kim", "tea", "--json", "--recipe", "bm25")
    payload = json.loads(out.output)
    assert payload["hits"][0]["ranks"] == {"bm25": 1} and payload["trace"]["paths"]["vector"] == "off"
    bad = CliRunner().invoke(cli, ["recall", "-u", "kim", "tea", "--recipe", "nope"])
    assert bad.exit_code != 0 and "nope" in bad.output
