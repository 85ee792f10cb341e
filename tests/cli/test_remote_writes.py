"""Writes from the command line go through a running service like reads (issue 22 item 2): add,
list, history, delete and documents against the real service app over HTTP, found through the
serve.json it writes; the command never opens the store itself."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from neuromem import Memory
from neuromem.cli.main import cli
from neuromem.service.api.keys import KeyStore
from neuromem.service.api.serve import ServiceServer


@pytest.fixture
def data_dir(memory: Memory, tmp_path: Path) -> Iterator[Path]:
    """A data directory that is never created, whose serve.json names a real service over ``memory``."""
    token = KeyStore(memory.runtime.db).create("default", "admin", name="cli test")[1]
    settings = memory.settings.with_updates(service={"graceful_shutdown_s": 0, "mcp_http": False})
    with ServiceServer(memory, settings) as url:
        data_dir = tmp_path / "pgdata"
        (tmp_path / "serve.json").write_text(json.dumps({"url": url, "pid": os.getpid(), "token": token}))
        yield data_dir
    assert not data_dir.exists()  # no command started a database of its own


def memctl(data_dir: Path, *args: str) -> str:
    env = {
        "NEUROMEM_DATA_DIR": str(data_dir),
        "NEUROMEM_DATABASE_URL": None,
        "NEUROMEM_SERVE_URL": None,
        "NEUROMEM_SERVICE__AUTO_START": "true",
    }  # a service runs: nothing is started
    result = CliRunner().invoke(cli, list(args), env=env)
    assert result.exit_code == 0, result.output
    return result.output


def test_add_list_history_delete_go_through_the_service(memory: Memory, data_dir: Path) -> None:
    added = memctl(
        data_dir,
        "add",
        "-u",
        "lin",
        "Lin is allergic to peanuts",
        "--category",
        "identity",
        "--metadata",
        '{"source": "crm"}',
    )
    assert added.startswith("ADD: ") and "fact     v1  Lin is allergic to peanuts" in added
    [stored] = memory.get_all(user_id="lin")
    assert (stored.content, stored.category, stored.metadata["source"]) == (
        "Lin is allergic to peanuts",
        "identity",
        "crm",
    )
    assert memctl(data_dir, "add", "-u", "lin", "Lin is allergic to peanuts").startswith("NOOP: ")
    assert (
        memctl(data_dir, "list", "-u", "lin").strip()
        == f"{stored.id}  fact     v1  Lin is allergic to peanuts"
    )
    history = memctl(data_dir, "history", "-u", "lin", str(stored.id))
    assert history.endswith(f"  ADD          user       {stored.id}  Lin is allergic to peanuts\n"), history
    assert memctl(data_dir, "delete", "-u", "lin", str(stored.id)).strip() == f"deleted {stored.id}"
    assert memory.get_all(user_id="lin") == []
    assert memctl(data_dir, "list", "-u", "lin").strip() == "(none)"


def test_documents_go_through_the_service(memory: Memory, data_dir: Path, tmp_path: Path) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text("# Trip\nWe fly to Lisbon on the 3rd of May.\n", encoding="utf-8")
    uploaded = memctl(data_dir, "documents", "upload", "-u", "lin", str(doc))
    [stored] = memory.list_documents(user_id="lin")
    assert uploaded.strip() == f"{stored.id}  notes.md  {stored.chunk_count} chunks"
    assert memctl(data_dir, "documents", "list", "-u", "lin").startswith(f"{stored.id}  notes.md  ")
    assert (
        memctl(data_dir, "documents", "delete", "-u", "lin", str(stored.id)).strip()
        == f"deleted {stored.id}  notes.md"
    )
    assert memory.list_documents(user_id="lin") == []
