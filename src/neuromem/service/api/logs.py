"""Structured JSON logs with tenant, user and request id — never memory content at INFO (issue #15).

``RequestLog`` is a contextvar holding the fields of the request being served; the
middleware fills the request id and outcome, ``ServiceContext.call`` the tenant and user.
``JsonFormatter`` writes one JSON object per line with those fields merged in.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
from typing import Any

request_fields: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "neuromem_request_fields", default=None
)

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


def annotate(**fields: Any) -> None:
    """Add fields to the current request's log context (no-op outside a request)."""
    current = request_fields.get()
    if current is not None:
        current.update({k: v for k, v in fields.items() if v is not None})


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        out.update(request_fields.get() or {})
        out.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, ensure_ascii=False)


def configure(json_lines: bool, level: int = logging.INFO) -> None:
    """Called by ``memctl serve`` / ``memctl mcp`` only (the library never configures logging)."""
    handler = logging.StreamHandler()
    handler.setFormatter(
        JsonFormatter() if json_lines else logging.Formatter("%(levelname)s %(name)s %(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
