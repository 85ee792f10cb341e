"""Wait for the change feed's horizon before reading it (tests of ``Memory.events`` and ``/v1/events``).

The feed shows an event only once every transaction older than it has ended on its server
(``txid < pg_snapshot_xmin(…)``, src/neuromem/store/events.py), so a late commit is never skipped.
That horizon counts every transaction of the server, in any database: on one test process's own
embedded server nothing else runs, but the test cluster's nodes are shared by both pytest-xdist
processes, and the other one's transaction (a table wipe between tests, a shard move) hides a
test's own fresh events until it ends. ``settle`` waits for that, on every node.
"""

from __future__ import annotations

import time

import psycopg

from neuromem import Memory
from neuromem.config import secret

_XMAX = "SELECT pg_snapshot_xmax(pg_current_snapshot())::text"
_XMIN = "SELECT pg_snapshot_xmin(pg_current_snapshot())::text"
_ON_ALL_NODES = "SELECT nodeid, result FROM run_command_on_all_nodes(%s) ORDER BY nodeid"
_HAS_CITUS = "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')"


def _per_node(conn: psycopg.Connection, query: str, citus: bool) -> dict[int, int]:
    if not citus:
        row = conn.execute(query).fetchone()
        assert row is not None
        return {0: int(row[0])}
    return {int(node): int(value) for node, value in conn.execute(_ON_ALL_NODES, (query,)).fetchall()}


def settle(memory: Memory, *, timeout: float = 60.0) -> None:
    """Return once every transaction running on any node of ``memory``'s database at the call has
    ended: the feed then shows every event committed before the call."""
    url = secret(memory.settings.store.database_url)
    assert url is not None, "the tests give every Memory a database URL"
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(_HAS_CITUS).fetchone()
        citus = bool(row and row[0])
        horizon = _per_node(conn, _XMAX, citus)  # every transaction begun by now has a smaller id
        deadline = time.monotonic() + timeout
        while True:
            oldest = _per_node(conn, _XMIN, citus)  # the oldest transaction still running, per node
            if all(oldest[node] >= xid for node, xid in horizon.items()):
                return
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"transactions older than {horizon} still running after {timeout} s: {oldest}"
                )
            time.sleep(0.05)
