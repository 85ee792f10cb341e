"""Growing the cluster (issue 24 item 5): a third worker and a rebalance while a writer runs lose and
duplicate nothing, and searches answer the same before and after; one large tenant's user is isolated
to a shard of its own and is still served by one-task router queries.

These tests use a database of their own: the third worker joins that database only (Citus keeps its
node list per database), so the other cluster tests keep their two workers.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from deploy.citus import cluster

from neuromem import Memory, Operation, Settings
from tests.cluster import databases
from tests.cluster.routing import capture
from tests.conftest import base_settings

pytestmark = pytest.mark.cluster

SEARCHED_USERS = [f"reader-{i}" for i in range(6)]  # seeded, then only read: their hits must not move
QUERIES = ["bees on the rooftop", "cello lessons", "green tea", "trip to Lisbon"]
FACTS = [
    "keeps bees on the rooftop",
    "takes cello lessons on Sundays",
    "drinks green tea every morning",
    "plans a trip to Lisbon in May",
    "works as a data engineer",
    "collects vinyl records",
]
CLUSTER_DIR_ENV = "NEUROMEM_TEST_CLUSTER_DIR"


@pytest.fixture
def own_database(pg_server: str) -> Iterator[Settings]:
    url = databases.empty_database(pg_server)
    settings = base_settings(store={"database_url": url}, traits={"reflect_on_ingest": False})
    yield settings


def _hits(m: Memory) -> dict[tuple[str, str], list[str]]:
    return {
        (user, q): [str(h.memory.id) for h in m.search(q, user_id=user, limit=5)]
        for user in SEARCHED_USERS
        for q in QUERIES
    }


def _placement_nodes(url: str) -> set[int]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT DISTINCT nodeport FROM pg_dist_shard_placement").fetchall()
    return {int(r[0]) for r in rows}


def _where(url: str, texts: set[str]) -> list[object]:
    """Where each text is, shard by shard on every node, and whether that shard is an active placement
    (a write to a moved shard's old placement shows up as inactive, that placement listed for cleanup)."""
    found = []
    with psycopg.connect(url) as conn:
        nodes = [r[0] for r in conn.execute("SELECT nodeport FROM pg_dist_node").fetchall()]
        active = {
            (int(port), f"memories_episodic_{shard}")
            for shard, port in conn.execute(
                "SELECT shardid, nodeport FROM pg_dist_shard_placement"
            ).fetchall()
        }
        cleanup = conn.execute(
            "SELECT object_name, node_group_id, policy_type FROM pg_dist_cleanup"
        ).fetchall()
    for port in nodes:
        with psycopg.connect(url.replace(f":{urlsplit(url).port}/", f":{port}/"), autocommit=True) as conn:
            conn.execute("SET citus.override_table_visibility = off")
            for (rel,) in conn.execute(
                "SELECT c.relname FROM pg_class c WHERE c.relname ~ '^memories_episodic_[0-9]+$'"
            ).fetchall():
                for (content,) in conn.execute(
                    f"SELECT content FROM {rel} WHERE content = ANY(%s)", (list(texts),)
                ).fetchall():
                    found.append((port, rel, content, (port, rel) in active))
    return [*found, ("cleanup", [c for c in cleanup if str(c[0]).startswith("public.memories")])]


def _commits_synchronously(ports: list[int]) -> dict[int, str]:
    settings = {}
    for port in ports:
        with psycopg.connect(cluster.node_url(port)) as conn:
            settings[port] = str(conn.execute("SHOW synchronous_commit").fetchone()[0])  # type: ignore[index]
    return settings


def test_a_third_worker_and_a_rebalance_under_writes_lose_nothing(
    own_database: Settings, pg_server: str
) -> None:
    base = Path(os.environ.get(CLUSTER_DIR_ENV, str(cluster.DEFAULT_BASE)))
    coordinator = databases.coordinator_port(pg_server)
    url = own_database.store.database_url.get_secret_value()  # type: ignore[union-attr]
    third = coordinator + 3
    cluster.ensure_node(base, third)
    # with synchronous_commit off, a force_logical move lost writes acknowledged during its cutover
    # (deploy/citus/cluster.py, NODE_SETTINGS): the nodes this test moves shards between commit synchronously
    nodes = [coordinator, *cluster.worker_ports(coordinator), third]
    assert set(_commits_synchronously(nodes).values()) == {"on"}, _commits_synchronously(nodes)
    with Memory(own_database) as m:
        for i, user in enumerate(SEARCHED_USERS):
            for j, fact in enumerate(FACTS):
                m.add(f"{user} {fact} ({i}-{j})", user_id=user)
        before = _hits(m)
        assert all(before.values())

        acked: list[str] = []
        errors: list[BaseException] = []
        stop = threading.Event()

        def writer() -> None:
            n = 0
            while not stop.is_set():
                text = f"write number {n} of the rebalance test"
                try:  # an episode: never merged into a near-duplicate, so each write is one row
                    [result] = m.add(text, user_id=f"writer-{n % 16}", memory_type="episodic")
                    assert result.operation is Operation.ADD
                    acked.append(text)
                except BaseException as exc:
                    errors.append(exc)
                n += 1

        thread = threading.Thread(target=writer)
        thread.start()
        try:
            time.sleep(1)
            cluster.ensure_node(base, third)
            cluster.add_worker(coordinator, third, url.rsplit("/", 1)[1])
            with psycopg.connect(url, autocommit=True) as conn:
                started = len(acked)
                conn.execute("SELECT citus_rebalance_start(shard_transfer_mode => 'force_logical')")
                conn.execute("SELECT citus_rebalance_wait()")
                during = len(acked) - started
                status = conn.execute("SELECT state FROM citus_rebalance_status()").fetchone()
            time.sleep(1)
        finally:
            stop.set()
            thread.join()
        assert status is not None and status[0] == "finished"
        assert third in _placement_nodes(url), "the rebalance moved shards to the new worker"
        assert errors == []
        assert during > 0, "the writer wrote while shards moved"
        with psycopg.connect(url) as conn:
            stored = Counter(
                r[0]
                for r in conn.execute("SELECT content FROM memories WHERE user_id LIKE 'writer-%'").fetchall()
            )
        missing, invented = set(acked) - set(stored), set(stored) - set(acked)
        assert not missing and not invented, (
            "no acknowledged write lost, none invented",
            sorted(missing),
            sorted(invented),
            _where(url, missing | invented),
            started,
            during,
        )
        assert max(stored.values()) == 1, "no write duplicated"
        assert _hits(m) == before


def test_a_large_tenant_is_isolated_to_its_own_shard(own_database: Settings) -> None:
    url = own_database.store.database_url.get_secret_value()  # type: ignore[union-attr]
    big = "t=bigcorp/whale"
    with Memory(own_database) as m:
        for i in range(40):
            m.add(f"whale fact number {i} about the ocean", user_id=big)
        m.add("a small neighbour's fact", user_id="minnow")
        before = [str(h.memory.id) for h in m.search("ocean fact", user_id=big, limit=10)]
        with psycopg.connect(url, autocommit=True) as conn:
            old = conn.execute(
                "SELECT get_shard_id_for_distribution_column('memories', %s::varchar)", (big,)
            ).fetchone()
            conn.execute(
                "SELECT isolate_tenant_to_new_shard('memories', %s::varchar, cascade_option => 'CASCADE', "
                "shard_transfer_mode => 'block_writes')",
                (big,),
            )
            shard = conn.execute(
                "SELECT get_shard_id_for_distribution_column('memories', %s::varchar)", (big,)
            ).fetchone()
            bounds = conn.execute(
                "SELECT shardminvalue::bigint, shardmaxvalue::bigint FROM pg_dist_shard WHERE shardid = %s",
                (shard[0],),  # type: ignore[index]
            ).fetchone()
            hashed = conn.execute("SELECT worker_hash(%s::varchar)", (big,)).fetchone()
        assert old != shard
        assert bounds is not None and hashed is not None and bounds[0] == bounds[1] == hashed[0]
        with capture() as cap:
            after = [str(h.memory.id) for h in m.search("ocean fact", user_id=big, limit=10)]
            assert len(m.get_all(user_id=big, limit=100)) == 40
        assert after == before
        assert cap.failures == [] and cap.statements and all(s.router for s in cap.statements)
