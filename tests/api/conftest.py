"""One real service per test module: a fresh database, a ``Memory``, uvicorn on 127.0.0.1, and keys."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from neuromem import Memory, Settings
from neuromem.service.api.keys import KeyStore
from neuromem.service.api.serve import ServiceServer
from tests.conftest import base_settings, fresh_database


@dataclass
class Service:
    url: str
    memory: Memory
    settings: Settings
    keys: KeyStore
    tokens: dict[str, str]  # "<tenant>:<scope>" → token

    def client(self, token: str | None = "default:admin") -> httpx.Client:
        headers = {} if token is None else {"Authorization": f"Bearer {self.tokens.get(token, token)}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)


@pytest.fixture(scope="module")
def service(pg_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    data_dir = str(
        tmp_path_factory.mktemp("data")
    )  # files the service keeps (markdown sync), never ~/.neuromem
    settings = base_settings(
        store={"database_url": fresh_database(pg_server), "data_dir": data_dir},
        traits={"reflect_on_ingest": False},
    )
    with Memory(settings) as memory:
        keys = KeyStore(memory.runtime.db)
        tokens = {}
        for tenant in ("default", "acme"):
            for scope in ("read", "write", "admin"):
                tokens[f"{tenant}:{scope}"] = keys.create(tenant, scope, name=f"test {scope}")[1]
        tokens["acme:bound"] = keys.create("acme", "write", name="bound", user_id="alice")[1]
        with ServiceServer(memory, settings) as url:
            yield Service(url, memory, settings, keys, tokens)
