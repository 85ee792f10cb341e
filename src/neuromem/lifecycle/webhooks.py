"""The change feed and its webhooks (issue 26 item 5).

Every change worth telling — a memory added, updated, invalidated, deleted or forgotten, a
conflict opened, a trait formed, changing stage or dissolved — is a row of ``memory_events``,
written by triggers on ``memory_history`` and ``memory_conflicts`` (migration 0020), so no writer
can forget to tell. Events hold ids and kinds, never content: a consumer reads the memory itself
(and a forgotten memory's events go with its history).

- ``events(core, user_id, after=cursor)`` reads one user's feed (``GET /v1/events``); the cursor
  is opaque (``"<txid>.<id>"``), and ``EventPage.next`` is where to go on from.
- A webhook (``add_webhook``: a tenant, a URL, the kinds it wants) gets its tenant's events POSTed
  by the job ``deliver_webhooks`` (every minute on the queue, ``memctl job --run deliver_webhooks``
  now): ``{"webhook_id", "events": […]}`` in order, at most ``BATCH`` per request, signed —
  ``X-Neuromem-Timestamp: <unix seconds>`` and ``X-Neuromem-Signature: sha256=<hex>``, the
  HMAC-SHA256 of ``"<timestamp>.<body>"`` under the webhook's secret (``verify`` checks one).
  A delivery that fails (no answer, not 2xx) leaves the cursor in place, is counted on the webhook
  (``failures``, ``last_error``) and makes the job fail, so the queue runs it again with its
  back-off (``lifecycle.job_max_attempts``); the next run starts from the same event (at least once).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import secrets
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import httpx

from .. import validation as check
from ..core import Runtime
from ..errors import InvalidInputError, NotFoundError
from ..ids import uuid7
from ..store import events as store

EventKind = Literal[
    "memory.added",
    "memory.updated",
    "memory.invalidated",
    "memory.deleted",
    "memory.forgotten",
    "conflict.opened",
    "trait.formed",
    "trait.stage_changed",
    "trait.dissolved",
]
EVENT_KINDS: tuple[str, ...] = get_args(EventKind)  # the names migration 0020's triggers write
BATCH = 100  # events per webhook request
DELIVERY_TIMEOUT_S = 10.0
SIGNATURE_HEADER = "X-Neuromem-Signature"
TIMESTAMP_HEADER = "X-Neuromem-Timestamp"
TENANT_PREFIX = "t="  # stored user keys of tenants other than "default" (store/tenancy.py)


class WebhookDeliveryError(RuntimeError):
    """One or more webhooks could not be delivered; the job fails so that the queue retries it."""


@dataclass(frozen=True, slots=True)
class Event:
    cursor: str
    kind: str
    user_id: str
    memory_id: uuid.UUID | None
    memory_type: str | None
    detail: dict[str, Any]
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class EventPage:
    events: tuple[Event, ...]
    next: str  # the cursor to read on from (the given one when nothing new)


@dataclass(frozen=True, slots=True)
class Webhook:
    id: uuid.UUID
    tenant: str
    url: str
    events: tuple[str, ...]  # kinds delivered (empty: all)
    delivered: int
    failures: int
    last_error: str | None
    created_at: dt.datetime
    removed_at: dt.datetime | None
    secret: str | None = None  # shown once, by add_webhook


def parse_cursor(cursor: str | None) -> tuple[int, int]:
    if cursor is None or cursor == "":
        return (0, 0)
    parts = str(cursor).split(".")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 19 for p in parts):
        raise InvalidInputError(f'after must be a cursor from a previous answer ("<n>.<n>"), got {cursor!r}')
    return int(parts[0]), int(parts[1])


def kinds_of(kinds: Sequence[str] | None) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(kinds or ()))
    unknown = [k for k in chosen if k not in EVENT_KINDS]
    if unknown:
        raise InvalidInputError(f"unknown event kinds {unknown}; known: {', '.join(EVENT_KINDS)}")
    return chosen


def _event(row: dict[str, Any], user_id: str | None = None) -> Event:
    return Event(
        f"{row['txid']}.{row['id']}",
        row["kind"],
        user_id or row["user_id"],
        row["memory_id"],
        row["memory_type"],
        dict(row["detail"] or {}),
        row["created_at"],
    )


def events(
    runtime: Runtime,
    user_id: str,
    *,
    after: str | None = None,
    kinds: Sequence[str] | None = None,
    limit: int = 100,
) -> EventPage:
    """One user's events after ``after`` (from the beginning when None), oldest first."""
    start = parse_cursor(after)
    with runtime.db.connection() as conn:
        rows = store.user_events(conn, user_id, start, kinds_of(kinds), check.limit(limit))
    found = tuple(_event(r) for r in rows)
    return EventPage(found, found[-1].cursor if found else f"{start[0]}.{start[1]}")


# -- webhooks ---------------------------------------------------------------------------------------


def _webhook(row: dict[str, Any], secret: str | None = None) -> Webhook:
    return Webhook(
        row["id"],
        row["tenant"],
        row["url"],
        tuple(row["events"]),
        row["delivered"],
        row["failures"],
        row["last_error"],
        row["created_at"],
        row["removed_at"],
        secret,
    )


def add_webhook(
    runtime: Runtime, url: str, *, tenant: str = "default", kinds: Sequence[str] | None = None
) -> Webhook:
    """Register ``url`` for ``tenant``'s events (of ``kinds``; all when empty) from now on; the returned
    webhook carries its signing secret, which is not shown again. ``tenant`` is checked by the caller
    (``neuromem.admin.add_webhook``)."""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")) or len(url) > 2000:
        raise InvalidInputError(f"a webhook URL must be an http(s) URL, got {url!r}")
    chosen = kinds_of(kinds)
    secret = "whsec_" + secrets.token_urlsafe(32)
    with runtime.db.transaction() as conn:
        row = store.add_webhook(conn, uuid7(), tenant, url, chosen, secret)
    return _webhook(row, secret)


def list_webhooks(
    runtime: Runtime, *, tenant: str | None = None, include_removed: bool = False
) -> list[Webhook]:
    with runtime.db.connection() as conn:
        return [_webhook(r) for r in store.list_webhooks(conn, tenant, include_removed=include_removed)]


def remove_webhook(runtime: Runtime, webhook_id: Any) -> Webhook:
    wid = check.memory_id(webhook_id)
    with runtime.db.transaction() as conn:
        row = store.remove_webhook(conn, wid)
    if row is None:
        raise NotFoundError(f"no active webhook {wid}")
    return _webhook(row)


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def verify(
    secret: str,
    timestamp: str,
    body: bytes,
    signature: str,
    *,
    tolerance_s: float = 300,
    now: float | None = None,
) -> bool:
    """What a receiver does: the signature matches and the timestamp is recent (no replays)."""
    if not timestamp.isdigit() or abs((time.time() if now is None else now) - int(timestamp)) > tolerance_s:
        return False
    return hmac.compare_digest(sign(secret, int(timestamp), body), signature)


def deliver_webhooks(
    runtime: Runtime, now: dt.datetime, *, client: httpx.Client | None = None
) -> dict[str, int]:
    """One delivery round for every active webhook: events after its cursor, in batches, until caught up
    or a request fails. Returns events delivered per webhook; raises ``WebhookDeliveryError`` after the
    round when any failed (the queue then retries the job)."""
    done: dict[str, int] = {}
    failed: list[str] = []
    with runtime.db.connection() as conn:
        hooks = store.list_webhooks(conn, None)
    with client or httpx.Client(timeout=DELIVERY_TIMEOUT_S) as http:
        for hook in hooks:
            try:
                done[str(hook["id"])] = _deliver(runtime, hook, http, now)
            except (httpx.HTTPError, WebhookDeliveryError) as exc:
                reason = f"{type(exc).__name__}: {exc}"[:500]
                with runtime.db.transaction() as conn:
                    store.mark_failed(conn, hook["id"], reason, now)
                failed.append(f"{hook['url']} ({reason})")
    if failed:
        raise WebhookDeliveryError("webhook delivery failed: " + "; ".join(failed))
    return done


def _deliver(runtime: Runtime, hook: dict[str, Any], http: httpx.Client, now: dt.datetime) -> int:
    cursor = (int(hook["cursor_txid"]), int(hook["cursor_id"]))
    sent = 0
    while True:
        with runtime.db.connection() as conn:
            rows = store.tenant_events(conn, hook["tenant"], cursor, hook["events"], BATCH)
        if not rows:
            return sent
        batch = [_event(r, _external(hook["tenant"], r["user_id"])) for r in rows]
        body = json.dumps(
            {"webhook_id": str(hook["id"]), "events": [_jsonable(e) for e in batch]}, ensure_ascii=False
        ).encode()
        stamp = int(runtime.now().timestamp())
        reply = http.post(
            hook["url"],
            content=body,
            headers={
                "Content-Type": "application/json",
                TIMESTAMP_HEADER: str(stamp),
                SIGNATURE_HEADER: sign(hook["secret"], stamp, body),
                "X-Neuromem-Webhook": str(hook["id"]),
            },
        )
        if not reply.is_success:
            raise WebhookDeliveryError(f"{hook['url']} answered {reply.status_code}")
        last = (int(rows[-1]["txid"]), int(rows[-1]["id"]))
        with runtime.db.transaction() as conn:
            if not store.mark_delivered(conn, hook["id"], cursor, last, len(rows), now):
                return sent  # another delivery moved the cursor meanwhile: it goes on from there
        cursor, sent = last, sent + len(rows)


def _external(tenant: str, user_key: str) -> str:
    prefix = f"{TENANT_PREFIX}{tenant}/"
    return user_key[len(prefix) :] if tenant != "default" and user_key.startswith(prefix) else user_key


def _jsonable(event: Event) -> dict[str, Any]:
    return {
        "cursor": event.cursor,
        "kind": event.kind,
        "user_id": event.user_id,
        "memory_id": None if event.memory_id is None else str(event.memory_id),
        "memory_type": event.memory_type,
        "detail": event.detail,
        "created_at": event.created_at.isoformat(),
    }
