"""memctl over a real database: commands validate, call the library and print readable results."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from neuromem.cli.main import cli


@pytest.fixture
def run(memctl):  # type: ignore[no-untyped-def]
    return memctl


def test_add_search_list_history_status(run) -> None:  # type: ignore[no-untyped-def]
    added = run("add", "-u", "kim", "Kim is learning to sail on Lake Geneva", "--category", "task")
    assert added.exit_code == 0 and added.output.startswith("ADD:")
    memory_id = re.search(r"ADD: (\S+)", added.output).group(1)  # type: ignore[union-attr]
    again = run("add", "-u", "kim", "Kim is learning to sail on Lake Geneva")
    assert again.output.startswith("NOOP:")
    found = run("search", "-u", "kim", "sailing lake")
    assert found.exit_code == 0 and "Lake Geneva" in found.output and "found by" in found.output
    listed = run("list", "-u", "kim")
    assert memory_id in listed.output
    hist = run("history", "-u", "kim", memory_id)
    assert "ADD" in hist.output
    status = run("status")
    assert "fact 1" in status.output and "schema:" in status.output and "hashing" in status.output
    deleted = run("delete", "-u", "kim", memory_id)
    assert deleted.exit_code == 0
    assert "no memories found" in run("search", "-u", "kim", "sailing lake").output


def test_bad_input_is_one_readable_line(run) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(cli, ["add", "-u", "bad user!", "hello"])
    assert result.exit_code == 2
    assert "InvalidUserIdError" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(cli, ["history", "-u", "kim", "not-a-uuid"])
    assert result.exit_code == 2 and "UUID" in result.output


def test_unreachable_database_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEUROMEM_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    monkeypatch.setenv("NEUROMEM_EMBEDDER", "hashing")
    result = CliRunner().invoke(cli, ["status"])
    assert result.exit_code == 1
    assert "DatabaseUnavailableError" in result.output and "127.0.0.1" in result.output


def test_configuration_doc_is_generated_from_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from neuromem.config_docs import reference_markdown

    doc = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
    assert doc.read_text("utf-8") == reference_markdown(), (
        "run: memctl config --reference > docs/configuration.md"
    )
    monkeypatch.setenv("NEUROMEM_LLM_API_KEY", "sk-secret")
    shown = CliRunner().invoke(cli, ["config"])
    assert (
        shown.exit_code == 0 and "sk-secret" not in shown.output and '"api_key": "**********"' in shown.output
    )
