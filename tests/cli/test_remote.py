"""memctl search/recall on a running service (issue 12 item 10): found through serve.json or
NEUROMEM_SERVE_URL, spoken to over real HTTP, and left for in-process runs when it is gone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from neuromem.cli.main import cli
from neuromem.cli.remote import find_remote
from tests.fakes.service_stub import ServiceStub

HIT = {
    "memory": {"id": "0190", "memory_type": "fact", "content": "Lin is allergic to peanuts"},
    "score": {
        "final": 0.8123,
        "rrf": 0.03,
        "recency": 0.1,
        "importance": 0.15,
        "stage_boost": 0.0,
        "ranks": {"bm25": 1, "vector": 2},
        "extra": {"base": 0.6},
    },
}


@pytest.fixture
def stub() -> Iterator[ServiceStub]:
    with ServiceStub(
        hits=[HIT],
        block={
            "text": "## Facts\n- Lin is allergic to peanuts [1]",
            "citations": [{"memory_id": "0190", "session_ids": ["s1"], "quote": "我对花生过敏"}],
        },
    ) as s:
        yield s


def write_serve_json(data_dir: Path, url: str, pid: int, token: str) -> None:
    path = data_dir.parent / "serve.json"
    path.write_text(json.dumps({"url": url, "pid": pid, "token": token}))
    path.chmod(0o600)


def memctl(*args: str, env: dict[str, str]):  # type: ignore[no-untyped-def]
    clean = {"NEUROMEM_DATABASE_URL": None, "NEUROMEM_SERVE_URL": None, "NEUROMEM_API_KEY": None}
    return CliRunner().invoke(cli, list(args), env={**clean, **env})


def test_search_uses_the_service_named_in_serve_json(tmp_path: Path, stub: ServiceStub) -> None:
    data_dir = tmp_path / "pgdata"  # never created: the command must not start a database
    write_serve_json(data_dir, stub.url, os.getpid(), stub.token)
    result = memctl(
        "search", "-u", "lin", "what is lin allergic to", "-k", "3", env={"NEUROMEM_DATA_DIR": str(data_dir)}
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith(" 1. 0.8123  Lin is allergic to peanuts")
    assert "found by bm25#1,vector#2" in result.output
    post = [r for r in stub.requests if r.method == "POST"]
    assert [(r.path, r.body, r.authorization) for r in post] == [
        (
            "/v1/search",
            {"user_id": "lin", "query": "what is lin allergic to", "limit": 3},
            f"Bearer {stub.token}",
        )
    ]
    assert not data_dir.exists()


def test_recall_prompt_uses_the_service(tmp_path: Path, stub: ServiceStub) -> None:
    data_dir = tmp_path / "pgdata"
    write_serve_json(data_dir, stub.url, os.getpid(), stub.token)
    result = memctl(
        "recall", "-u", "lin", "花生", "--prompt", "200", env={"NEUROMEM_DATA_DIR": str(data_dir)}
    )
    assert result.exit_code == 0, result.output
    assert "- Lin is allergic to peanuts [1]" in result.output
    assert '[1] memory 0190 sessions s1 "我对花生过敏"' in result.output
    recall = [r for r in stub.requests if r.path == "/v1/recall"]
    assert recall and recall[0].body == {"user_id": "lin", "query": "花生", "token_budget": 200}


def test_explicit_url_and_key_override_and_errors_are_reported(tmp_path: Path, stub: ServiceStub) -> None:
    env = {"NEUROMEM_DATA_DIR": str(tmp_path / "pgdata"), "NEUROMEM_SERVE_URL": stub.url + "/"}
    ok = memctl("search", "-u", "lin", "peanuts", env={**env, "NEUROMEM_API_KEY": stub.token})
    assert ok.exit_code == 0 and "Lin is allergic to peanuts" in ok.output
    refused = memctl("search", "-u", "lin", "peanuts", env={**env, "NEUROMEM_API_KEY": "wrong"})
    assert (
        refused.exit_code == 2
        and "401" in refused.output
        and "AuthenticationError: bad API key" in refused.output
    )
    stub.__exit__()
    gone = memctl("search", "-u", "lin", "peanuts", env={**env, "NEUROMEM_API_KEY": stub.token})
    assert gone.exit_code == 1 and "cannot reach the neuromem service" in gone.output
    stub.__enter__()  # the fixture stops it again


def test_a_dead_or_silent_service_is_not_used(tmp_path: Path, stub: ServiceStub) -> None:
    data_dir = tmp_path / "pgdata"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    write_serve_json(data_dir, stub.url, dead.pid, stub.token)
    assert find_remote(data_dir, external_database=False, environ={}) is None  # its process is gone
    write_serve_json(data_dir, "http://127.0.0.1:1", os.getpid(), stub.token)
    assert find_remote(data_dir, external_database=False, environ={}) is None  # /healthz does not answer
    write_serve_json(data_dir, stub.url, os.getpid(), stub.token)
    found = find_remote(data_dir, external_database=False, environ={})
    assert found is not None and found.url == stub.url and found.token == stub.token
    # a serve.json next to the embedded data directory says nothing about an external database
    assert find_remote(data_dir, external_database=True, environ={}) is None
    (data_dir.parent / "serve.json").write_text("{broken")
    assert find_remote(data_dir, external_database=False, environ={}) is None
