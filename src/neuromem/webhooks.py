"""Webhooks for operators (issue 26 item 5): register, list and remove the URLs a tenant's events are
POSTed to (``memctl webhooks add|list|remove``); delivery is the job ``deliver_webhooks``
(``neuromem.lifecycle.webhooks``, which documents the signature)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .lifecycle import webhooks as feed
from .lifecycle.webhooks import Webhook
from .memory import Memory
from .service.api.tenancy import check_tenant


def add_webhook(memory: Memory, url: str, *, tenant: str = "default", events: Sequence[str] | None = None) -> Webhook:
    """Deliver ``tenant``'s events (the kinds in ``events``; every kind when empty) to ``url`` from now on.
    The result's ``secret`` signs the deliveries and is shown only here."""
    return feed.add_webhook(memory.runtime, url, tenant=check_tenant(tenant), kinds=events)


def list_webhooks(memory: Memory, *, tenant: str | None = None, include_removed: bool = False) -> list[Webhook]:
    return feed.list_webhooks(memory.runtime, tenant=None if tenant is None else check_tenant(tenant),
                              include_removed=include_removed)  # fmt: skip


def remove_webhook(memory: Memory, webhook_id: Any) -> Webhook:
    """Stop delivering to a webhook (it stays listed with ``removed_at``)."""
    return feed.remove_webhook(memory.runtime, webhook_id)
