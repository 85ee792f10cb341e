"""Input checks at the public boundary: each bad input gets its own typed error, before any write."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from .config import WriteSettings
from .errors import (
    ContentTooLongError,
    EmptyContentError,
    InvalidInputError,
    InvalidUserIdError,
    UnknownMemoryTypeError,
)
from .types import MemoryType

_USER_ID = re.compile(r"^[\w.@:+\-=/]+$", re.UNICODE)


def user_id(value: Any, settings: WriteSettings) -> str:
    if not isinstance(value, str):
        raise InvalidUserIdError(f"user_id must be a string, not {type(value).__name__}")
    if not value.strip():
        raise InvalidUserIdError("user_id must not be empty")
    if len(value) > settings.max_user_id_chars:
        raise InvalidUserIdError(f"user_id is longer than {settings.max_user_id_chars} characters")
    if not _USER_ID.match(value):
        raise InvalidUserIdError(
            f"user_id {value[:40]!r} has forbidden characters: use letters, digits and . _ @ : + - = /"
        )
    return value


def content(value: Any, settings: WriteSettings, *, field: str = "content") -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{field} must be a string, not {type(value).__name__}")
    text = value.strip()
    if not text:
        raise EmptyContentError(f"{field} is empty")
    if "\x00" in text:
        raise InvalidInputError(f"{field} contains a NUL character")
    if len(text) > settings.max_content_chars:
        raise ContentTooLongError(
            f"{field} has {len(text)} characters; the maximum is {settings.max_content_chars} "
            "(upload long text as a document instead)"
        )
    return text


def memory_type(value: Any) -> MemoryType:
    if isinstance(value, MemoryType):
        return value
    if isinstance(value, str):
        try:
            return MemoryType(value.strip().lower())
        except ValueError:
            pass
    allowed = ", ".join(t.value for t in MemoryType)
    raise UnknownMemoryTypeError(f"unknown memory type {value!r}; use one of {allowed}")


def memory_types(values: Sequence[Any] | None, default: Sequence[MemoryType]) -> list[MemoryType]:
    if values is None:
        return list(default)
    if isinstance(values, str | MemoryType):
        values = [values]
    out = [memory_type(v) for v in values]
    if not out:
        raise InvalidInputError("memory_types must not be empty")
    return out


def importance(value: Any, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(f"importance must be a number in [0, 1], not {value!r}")
    if not 0.0 <= float(value) <= 1.0:
        raise InvalidInputError(f"importance must be in [0, 1], got {value}")
    return float(value)


def metadata(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"metadata must be a mapping, not {type(value).__name__}")
    try:
        text = json.dumps(dict(value), ensure_ascii=False, allow_nan=False, default=_reject)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"metadata must be JSON-serialisable: {exc}") from None
    if len(text) > 64_000:
        raise InvalidInputError("metadata is larger than 64 kB")
    if "\\u0000" in text:  # PostgreSQL's jsonb cannot hold NUL
        raise InvalidInputError("metadata contains a NUL character")
    return json.loads(text)  # type: ignore[no-any-return]


def _reject(obj: Any) -> Any:
    if isinstance(obj, dt.datetime | dt.date):
        return obj.isoformat()
    if isinstance(obj, uuid.UUID):
        return str(obj)
    raise TypeError(f"{type(obj).__name__} is not JSON-serialisable")


def timestamp(value: Any, field: str) -> dt.datetime | None:
    """A datetime or ISO-8601 string; naive values are taken as UTC."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise InvalidInputError(f"{field} must be an ISO-8601 datetime, got {value!r}") from None
    if not isinstance(value, dt.datetime):
        raise InvalidInputError(f"{field} must be a datetime, not {type(value).__name__}")
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value


def memory_id(value: Any) -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    if isinstance(value, str):
        try:
            return uuid.UUID(value)
        except ValueError:
            pass
    raise InvalidInputError(f"memory id must be a UUID, got {value!r}")


def limit(value: Any, *, maximum: int = 1000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise InvalidInputError(f"limit must be an integer from 1 to {maximum}, got {value!r}")
    return value


def content_hash(text: str) -> str:
    """MD5 of whitespace-normalised text (seed 000 §2.3 ``content_hash VARCHAR(32)``)."""
    normalised = " ".join(text.split())
    return hashlib.md5(normalised.encode("utf-8"), usedforsecurity=False).hexdigest()
