"""How recall reads: statement by statement, each failure its own (issue 25 "Speed").

Recall only reads, and each retriever may fail on its own (seed 003 §18). In a transaction that
takes a savepoint per retriever — or, on an idle connection, a BEGIN and a COMMIT each: three round
trips for one statement. Outside a service request's scope the connection is switched to autocommit
while recall reads, so every statement is its own transaction and a failed one leaves nothing to undo.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus

from ..store.db import Conn


@contextmanager
def statements_on_their_own(conn: Conn) -> Iterator[None]:
    """Recall only reads: outside a transaction, each of its statements runs as its own (autocommit),
    so a failing retriever leaves the connection usable without a savepoint — one round trip a statement
    instead of three (BEGIN, the statement, COMMIT). Inside a transaction (a service request's scope)
    the connection is left as it is and every retriever gets a savepoint (:func:`isolated`)."""
    if conn.autocommit or conn.info.transaction_status != TransactionStatus.IDLE:
        yield
        return
    conn.autocommit = True
    try:
        yield
    finally:
        try:
            conn.autocommit = False  # the pool's connections are not autocommit
        except psycopg.Error:
            conn.close()  # a connection left in an unknown state: the pool drops it


def isolated(conn: Conn) -> AbstractContextManager[Any]:
    """What a retriever runs in so that its failure costs its own list only: nothing more on an autocommit
    connection (:func:`statements_on_their_own`), else a (sub)transaction."""
    return nullcontext() if conn.autocommit else conn.transaction()


__all__ = ["isolated", "statements_on_their_own"]
