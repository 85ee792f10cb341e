"""Which statements a run sends, and on how many shards each runs (issue 24 item 3).

``capture()`` instruments psycopg's cursors for the block: before every statement a thread sends,
the same statement with the same parameters is EXPLAINed on the same connection (so temporary tables
and the transaction's own state are visible), and the Citus plan's task counts are recorded. A
statement whose every Citus job has one task is a router query: it runs on one node. A plan with
no Citus job touches only coordinator tables (the job queue, the migrations' bookkeeping).
Nothing is mocked: every statement still runs against the cluster after its EXPLAIN.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql

_PLANNED = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")
TEMPORARY_MARK = "_forget_"  # the forget work sets (store.forget): temporary tables of one transaction


def _side(local: threading.local, conn: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    """This thread's side connection to the database of ``conn``."""
    dsn = conn.info.dsn
    side = getattr(local, "side", {}).get(dsn)
    if side is None or side.closed:
        side = psycopg.connect(dsn, autocommit=True)
        local.side = {**getattr(local, "side", {}), dsn: side}
        _opened.append(side)
    return side


_opened: list[psycopg.Connection[Any]] = []


@dataclass(frozen=True)
class Planned:
    query: str
    task_counts: tuple[int, ...]  # one per Citus job of the plan (subplans included)

    @property
    def router(self) -> bool:
        return all(n <= 1 for n in self.task_counts)

    @property
    def distributed(self) -> bool:
        return bool(self.task_counts)


@dataclass
class Capture:
    statements: list[Planned] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # statements that could not be planned
    _seen: set[str] = field(default_factory=set)

    def add(self, planned: Planned) -> None:
        key = f"{planned.query}\x00{planned.task_counts}"
        if key not in self._seen:
            self._seen.add(key)
            self.statements.append(planned)

    def multi_shard(self) -> list[Planned]:
        return [s for s in self.statements if not s.router]


def task_counts(plan: Any) -> tuple[int, ...]:
    """Every ``Task Count`` of a JSON plan (the Citus executor's jobs, subplans included)."""
    found: list[int] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "Task Count" in node:
                found.append(int(node["Task Count"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(plan)
    return tuple(found)


def _text(query: Any, cursor: psycopg.Cursor[Any]) -> str:
    if isinstance(query, sql.Composable):
        return query.as_string(cursor.connection)
    return query.decode() if isinstance(query, bytes) else str(query)


def normalized(query: str) -> str:
    return " ".join(query.split())


@contextmanager
def capture() -> Iterator[Capture]:
    """Record the plan of every statement sent in the block (by any thread)."""
    result = Capture()
    original_execute = psycopg.Cursor.execute
    original_executemany = psycopg.Cursor.executemany
    local = threading.local()

    def explain(cursor: psycopg.Cursor[Any], query: Any, params: Any) -> None:
        if getattr(local, "busy", False):
            return
        text = _text(query, cursor)
        if not text.lstrip().upper().startswith(_PLANNED):
            return
        local.busy = True
        conn = cursor.connection
        try:
            # parameters inlined: Citus does not pass bound parameters on to the EXPLAIN of a remote task
            literal = psycopg.ClientCursor(conn).mogrify(query, params)
            # a statement that reads the transaction's temporary tables is explained in that transaction;
            # the others on a side connection, so that the EXPLAIN leaves the run's transaction as it was
            # (Citus pins a transaction that executed locally, on the coordinator, to local execution)
            target = conn if TEMPORARY_MARK in text else _side(local, conn)
            with target.transaction(), target.cursor(row_factory=psycopg.rows.tuple_row) as plain:
                row = original_execute(plain, "EXPLAIN (FORMAT JSON) " + literal).fetchone()
            plan = row[0] if row else []
            counts = task_counts(json.loads(plan) if isinstance(plan, str) else plan)
        except psycopg.Error as exc:  # the statement itself will fail the same way: record it, let it run
            result.failures.append(f"{type(exc).__name__}: {exc} — {normalized(text)[:300]}")
            return
        finally:
            local.busy = False
        result.add(Planned(normalized(text), counts))

    def execute(self: psycopg.Cursor[Any], query: Any, params: Any = None, **kwargs: Any) -> Any:
        explain(self, query, params)
        return original_execute(self, query, params, **kwargs)

    def executemany(self: psycopg.Cursor[Any], query: Any, params_seq: Any, **kwargs: Any) -> Any:
        params_seq = list(params_seq)
        if params_seq:
            explain(self, query, params_seq[0])
        return original_executemany(self, query, params_seq, **kwargs)

    psycopg.Cursor.execute = execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = executemany  # type: ignore[method-assign]
    try:
        yield result
    finally:
        psycopg.Cursor.execute = original_execute  # type: ignore[method-assign]
        psycopg.Cursor.executemany = original_executemany  # type: ignore[method-assign]
        while _opened:
            _opened.pop().close()
