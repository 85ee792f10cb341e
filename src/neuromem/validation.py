"""Input checks at the public boundary: each bad input gets its own typed error, before any write."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from .config import WriteSettings
from .errors import (
    ContentTooLongError,
    EmptyContentError,
    InvalidInputError,
    InvalidMetadataError,
    InvalidScopeError,
    InvalidTextError,
    InvalidUserIdError,
    OutOfRangeError,
    UnknownMemoryTypeError,
)
from .types import MemoryType

_USER_ID = re.compile(r"^[\w.@:+\-=/]+$", re.UNICODE)
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")  # NUL, and lone surrogates (no UTF-8 encoding)
MAX_METADATA_DEPTH = 32  # nesting levels of a metadata object (issue #12 item 6)
MAX_METADATA_BYTES = 64_000
MAX_BIGINT = 2**63 - 1  # PostgreSQL bigint: offsets, counts, integer filter values


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


def content(
    value: Any, settings: WriteSettings, *, field: str = "content", max_chars: int | None = None
) -> str:
    """Stripped, non-empty text of at most ``max_chars`` (default ``write.max_content_chars``) characters."""
    limit = settings.max_content_chars if max_chars is None else max_chars
    if not isinstance(value, str):
        raise InvalidInputError(f"{field} must be a string, not {type(value).__name__}")
    text = value.strip()
    if not text:
        raise EmptyContentError(f"{field} is empty")
    storable(text, field)
    if len(text) > limit:
        raise ContentTooLongError(
            f"{field} has {len(text)} characters; the maximum is {limit} "
            "(upload long text as a document instead)"
        )
    return text


def storable(text: str, field: str) -> str:
    """``text`` unchanged, or ``InvalidTextError`` when it holds a NUL character or a lone
    surrogate — PostgreSQL stores neither (``UntranslatableCharacter``, ``UnicodeEncodeError``)."""
    bad = _UNSTORABLE.search(text)
    if bad is not None:
        what = "a NUL character" if bad.group() == "\x00" else f"a lone surrogate U+{ord(bad.group()):04X}"
        raise InvalidTextError(f"{field} contains {what} at position {bad.start()}, which cannot be stored")
    return text


def optional_text(value: Any, field: str, *, max_chars: int) -> str | None:
    """None, or a non-empty storable string of at most ``max_chars`` characters (names, categories)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > max_chars:
        raise InvalidInputError(f"{field} must be a non-empty string of at most {max_chars} characters")
    return storable(value, field)


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
    if not 0 <= value <= 1:  # no float() first: 10**400 overflows it; NaN fails the comparison
        raise InvalidInputError(f"importance must be in [0, 1], got {value}")
    return float(value)


def metadata(value: Any) -> dict[str, Any]:
    """A JSON object: string keys, at most ``MAX_METADATA_DEPTH`` levels, 64 kB, no NUL or lone
    surrogate in keys or values, finite numbers. Checked without recursion, before ``json.dumps``
    (whose recursion a 10,000-deep object would exhaust)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidMetadataError(f"metadata must be a mapping, not {type(value).__name__}")
    _walk_metadata(value)
    try:
        text = json.dumps(dict(value), ensure_ascii=False, allow_nan=False, default=_reject)
    except (TypeError, ValueError) as exc:
        raise InvalidMetadataError(f"metadata must be JSON-serialisable: {exc}") from None
    if len(text.encode("utf-8")) > MAX_METADATA_BYTES:
        raise InvalidMetadataError(f"metadata is larger than {MAX_METADATA_BYTES // 1000} kB")
    return json.loads(text)  # type: ignore[no-any-return]


MAX_TAGS = 32
MAX_TAG_CHARS = 64


def tags(value: Any) -> tuple[str, ...]:
    """Tags (seed 002 ``tags TEXT[]``): a list of non-empty strings of at most ``MAX_TAG_CHARS``
    characters, at most ``MAX_TAGS`` of them; surrounding spaces are dropped, repeats kept once."""
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Sequence | set | frozenset):
        raise InvalidInputError(f"tags must be a list of strings, not {type(value).__name__}")
    out: dict[str, None] = {}
    for tag in value:
        if not isinstance(tag, str) or not tag.strip():
            raise InvalidInputError(f"every tag must be a non-empty string, got {tag!r:.80}")
        tag = storable(tag.strip(), "tag")
        if len(tag) > MAX_TAG_CHARS:
            raise InvalidInputError(f"a tag has at most {MAX_TAG_CHARS} characters, got {len(tag)}")
        out[tag] = None
    if len(out) > MAX_TAGS:
        raise InvalidInputError(f"at most {MAX_TAGS} tags per memory, got {len(out)}")
    return tuple(out)


def _walk_metadata(root: Mapping[str, Any]) -> None:
    stack: list[tuple[Any, int, str]] = [(root, 1, "metadata")]
    seen = 0
    while stack:
        node, depth, path = stack.pop()
        seen += 1
        if seen > MAX_METADATA_BYTES:  # every item costs at least a byte of JSON
            raise InvalidMetadataError(f"metadata is larger than {MAX_METADATA_BYTES // 1000} kB")
        if isinstance(node, Mapping | list | tuple) and depth > MAX_METADATA_DEPTH:
            raise InvalidMetadataError(f"metadata nests deeper than {MAX_METADATA_DEPTH} levels")
        if isinstance(node, Mapping):
            for key, item in node.items():
                if not isinstance(key, str):
                    raise InvalidMetadataError(f"metadata keys must be strings, got {key!r} in {path}")
                _metadata_text(key, f"key {key[:40]!r} in {path}")
                stack.append((item, depth + 1, f"{path}.{key[:40]}"))
        elif isinstance(node, list | tuple):
            stack.extend((item, depth + 1, f"{path}[{i}]") for i, item in enumerate(node))
        elif isinstance(node, str):
            _metadata_text(node, f"the value of {path}")
        elif isinstance(node, float) and not math.isfinite(node):
            raise InvalidMetadataError(f"{path} is {node}; metadata numbers must be finite")


def _metadata_text(text: str, where: str) -> None:
    try:
        storable(text, where)
    except InvalidTextError as exc:
        raise InvalidMetadataError(f"metadata: {exc}") from None


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


def flag(value: Any, field: str = "background_jobs") -> bool:
    """A real boolean (``"false"`` and 0 are refused, not taken as truthy or falsy)."""
    if not isinstance(value, bool):
        raise InvalidInputError(f"{field} must be a boolean, got {value!r}")
    return value


MAX_ACTOR_CHARS = 50  # memory_history.actor


def actor(value: Any) -> str:
    """Who made a change, as history records it: a non-empty string of at most ``MAX_ACTOR_CHARS``."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_ACTOR_CHARS:
        raise InvalidInputError(f"actor must be a non-empty string of at most {MAX_ACTOR_CHARS} characters")
    return value


def offset(value: Any) -> int:
    """A non-negative integer that fits PostgreSQL's ``OFFSET`` (bigint)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInputError(f"offset must be a non-negative integer, got {value!r}")
    if value > MAX_BIGINT:
        raise OutOfRangeError(
            f"offset must be at most {MAX_BIGINT}, got a number of {len(str(value))} digits"
        )
    return value


def limit(value: Any, *, maximum: int = 1000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise InvalidInputError(f"limit must be an integer from 1 to {maximum}, got {value!r}")
    return value


def content_hash(text: str) -> str:
    """MD5 of whitespace-normalised text (seed 000 §2.3 ``content_hash VARCHAR(32)``)."""
    normalised = " ".join(text.split())
    return hashlib.md5(normalised.encode("utf-8"), usedforsecurity=False).hexdigest()


def scope_id(value: Any, field: str, settings: WriteSettings) -> str | None:
    """An agent, run or team id (issue 26 item 2): None, or checked like a user id (``InvalidScopeError``)."""
    if value is None:
        return None
    try:
        return user_id(value, settings)
    except InvalidUserIdError as exc:
        raise InvalidScopeError(str(exc).replace("user_id", field, 1)) from None
