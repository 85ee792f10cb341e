"""``/v1/webhooks``: the URLs a tenant's events are POSTed to, signed (issue 26 items 4 and 5). A webhook
receives every user's events of the tenant, so these routes take an admin key and act on the key's own
tenant only; delivery is the job ``deliver_webhooks`` (``neuromem.lifecycle.webhooks`` documents the
signature)."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Request

from ....admin import add_webhook, list_webhooks, remove_webhook
from ....errors import NotFoundError
from ....lifecycle.webhooks import Webhook
from ..context import ADMIN, context
from ..keys import Principal
from ..problems import ERROR_RESPONSES
from ..schemas import AddWebhook

router = APIRouter(prefix="/v1/webhooks", tags=["webhooks"], responses=ERROR_RESPONSES)


@router.get("", response_model=list[Webhook], summary="The tenant's webhooks")
async def webhooks(request: Request, principal: Principal = ADMIN, include_removed: bool = False):
    m = context(request).memory
    return await context(request).unscoped(
        lambda: list_webhooks(m, tenant=principal.tenant, include_removed=include_removed)
    )


@router.post("", status_code=201, response_model=Webhook, summary="Register a webhook")
async def register(body: AddWebhook, request: Request, principal: Principal = ADMIN):
    """The answer's ``secret`` signs every delivery (``X-Neuromem-Signature``) and is shown only here."""
    m = context(request).memory
    return await context(request).unscoped(
        lambda: add_webhook(m, body.url, tenant=principal.tenant, events=body.events)
    )


@router.delete("/{webhook_id}", response_model=Webhook, summary="Remove a webhook")
async def remove(webhook_id: uuid.UUID, request: Request, principal: Principal = ADMIN):
    """Deliveries stop; the webhook stays listed (``include_removed``) with ``removed_at``."""
    m = context(request).memory

    def run() -> Webhook:
        if webhook_id not in {w.id for w in list_webhooks(m, tenant=principal.tenant)}:
            raise NotFoundError(f"no active webhook {webhook_id} in this tenant")
        return remove_webhook(m, webhook_id)

    return await context(request).unscoped(run)
