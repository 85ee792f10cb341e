"""Mem0-style filters compiled to a parameterised SQL clause.

A filter is a mapping of field → value (equality) or field → ``{operator: value}``,
combined with AND; ``{"AND": [...]}``, ``{"OR": [...]}`` and ``{"NOT": {...}}`` nest::

    {"category": "preference", "importance": {"gte": 0.7}}
    {"OR": [{"memory_type": "fact"}, {"metadata.topic": {"in": ["work", "travel"]}}]}

Fields are the columns in ``FIELDS`` or ``metadata.<key>`` (compared as text, or as
numbers when the value is numeric). ``tags`` (seed 002's ``TEXT[]``) takes array operators:
``{"tags": "work"}`` (holds the tag), ``{"tags": {"contains_any": ["work", "travel"]}}`` (``&&``)
and ``{"tags": {"contains_all": ["work", "urgent"]}}`` (``@>``). Anything else raises
``InvalidFilterError``.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from psycopg import sql

from .. import validation as check
from ..errors import InvalidFilterError, InvalidInputError
from ..types import MemoryType

FIELDS: dict[str, type | tuple[type, ...]] = {
    "memory_type": str,
    "category": str,
    "language": str,
    "importance": (int, float),
    "access_count": int,
    "created_at": dt.datetime,
    "updated_at": dt.datetime,
    "valid_at": dt.datetime,
    "invalid_at": dt.datetime,
    "trait_subtype": str,
    "trait_stage": str,
    "trait_context": str,
    "trait_confidence": (int, float),
    "file_id": uuid.UUID,
    "agent_id": str,  # the scope columns (issue 26 item 2)
    "run_id": str,
    "visibility": str,
    "team_id": str,
}
#: array operators of the ``tags`` column: a list of tags, of which the row holds any / all
TAG_OPERATORS = {"contains_any": "&&", "contains_all": "@>"}
OPERATORS = {"eq": "=", "ne": "<>", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
_SET_OPERATORS = {"in", "nin"}
_METADATA_KEY = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")
MAX_DEPTH = 8

# the clause's pieces (issue 13 item 2: composed with psycopg.sql, never glued as strings)
_GROUP = sql.SQL("({})")
_JUNCTIONS = {"AND": sql.SQL(" AND "), "OR": sql.SQL(" OR ")}
# a row the inner filter cannot judge (a metadata key it lacks: NULL) is "not" it
_NOT = sql.SQL("NOT coalesce({}, false)")
_COMPARE = sql.SQL("{} {} {}")
_IN = sql.SQL("coalesce({} = ANY({}), false)")
_NOT_IN = sql.SQL("NOT coalesce({} = ANY({}), false)")
_METADATA_CONTAINS = sql.SQL("metadata @> {}::jsonb")
_METADATA_TEXT = sql.SQL("(metadata->>{})")
_METADATA_NUMBER = sql.SQL(
    "(CASE WHEN jsonb_typeof(metadata->{k}) = 'number' THEN (metadata->>{k})::float8 END)"
)
_TAGS = sql.SQL("tags {} {}::text[]")


@dataclass(frozen=True, slots=True)
class CompiledFilter:
    """A filter as a composable clause over rows ``m``'s columns, whose values are the named
    placeholders ``%(f0)s, %(f1)s…`` of ``params`` (composed into a statement with ``psycopg.sql``)."""

    clause: sql.Composable
    params: dict[str, Any]


class _Params(dict[str, Any]):
    """The values of a filter being compiled: each new one gets the next named placeholder."""

    def add(self, value: Any) -> sql.Placeholder:
        name = "f" + str(len(self))
        self[name] = value
        return sql.Placeholder(name)


def compile_filter(filters: Mapping[str, Any] | None) -> CompiledFilter | None:
    """Validate and compile a filter; None or {} means no filter."""
    if filters is None:
        return None
    if not isinstance(filters, Mapping):
        raise InvalidFilterError(f"filters must be a mapping, not {type(filters).__name__}")
    if not filters:
        return None
    params = _Params()
    clause = _compile_mapping(filters, params, depth=0)
    return CompiledFilter(clause, dict(params))


def _compile_mapping(filters: Mapping[str, Any], params: _Params, depth: int) -> sql.Composable:
    if depth > MAX_DEPTH:
        raise InvalidFilterError(f"filters nest deeper than {MAX_DEPTH} levels")
    parts: list[sql.Composable] = []
    for key, value in filters.items():
        if not isinstance(key, str):
            raise InvalidFilterError(f"filter keys must be strings, got {key!r}")
        upper = key.upper()
        if upper in ("AND", "OR"):
            if not isinstance(value, list) or not value or not all(isinstance(v, Mapping) for v in value):
                raise InvalidFilterError(f"{upper} takes a non-empty list of filter mappings")
            inner = [_compile_mapping(v, params, depth + 1) for v in value]
            parts.append(_GROUP.format(_JUNCTIONS[upper].join(inner)))
        elif upper == "NOT":
            if not isinstance(value, Mapping) or not value:
                raise InvalidFilterError("NOT takes a non-empty filter mapping")
            parts.append(_NOT.format(_compile_mapping(value, params, depth + 1)))
        else:
            parts.append(_compile_field(key, value, params))
    return _GROUP.format(_JUNCTIONS["AND"].join(parts))


def _compile_field(key: str, value: Any, params: _Params) -> sql.Composable:
    if key == "tags":
        return _compile_tags(value, params)
    if key.startswith("metadata."):
        name = key[len("metadata.") :]
        if not _METADATA_KEY.match(name):
            raise InvalidFilterError(f"invalid metadata key {name!r}: use letters, digits, '_' or '-'")
        column: sql.Composable = _METADATA_TEXT.format(sql.Literal(name))
        expected: type | tuple[type, ...] = (str, int, float, bool)
    elif key in FIELDS:
        column = sql.Identifier(key)
        expected = FIELDS[key]
    else:
        allowed = ", ".join(sorted([*FIELDS, "tags"]))
        raise InvalidFilterError(f"unknown filter field {key!r}; use one of {allowed} or metadata.<key>")
    ops = value if isinstance(value, Mapping) else {"eq": value}
    if not ops:
        raise InvalidFilterError(f"empty operator mapping for {key!r}")
    parts: list[sql.Composable] = []
    for op, operand in ops.items():
        if op in OPERATORS:
            operand = _check_value(key, operand, expected)
            target = (
                _metadata_cast(key[len("metadata.") :], operand) if key.startswith("metadata.") else column
            )
            compare = "IS DISTINCT FROM" if op == "ne" else OPERATORS[op]  # ne: a missing key differs too
            bound = _metadata_param(operand) if key.startswith("metadata.") else operand
            parts.append(_COMPARE.format(target, sql.SQL(compare), params.add(bound)))
        elif op in _SET_OPERATORS:
            if not isinstance(operand, list | tuple) or not operand:
                raise InvalidFilterError(f"{key!r} {op!r} takes a non-empty list")
            checked = [_check_value(key, v, expected) for v in operand]
            if key.startswith("metadata."):
                checked = [_metadata_param(v) if isinstance(v, bool) else str(v) for v in checked]
            parts.append((_NOT_IN if op == "nin" else _IN).format(column, params.add(checked)))
        elif op == "contains" and key.startswith("metadata."):
            try:
                wanted = check.metadata({key[len("metadata.") :]: operand})
            except InvalidInputError as exc:
                raise InvalidFilterError(f"{key!r} contains: {exc}") from None
            parts.append(_METADATA_CONTAINS.format(params.add(json.dumps(wanted))))
        else:
            raise InvalidFilterError(
                f"unknown operator {op!r} for {key!r}; use eq, ne, gt, gte, lt, lte, in, nin"
            )
    return _JUNCTIONS["AND"].join(parts)


def _compile_tags(value: Any, params: _Params) -> sql.Composable:
    ops = value if isinstance(value, Mapping) else {"contains_all": [value]}
    if not ops:
        raise InvalidFilterError("empty operator mapping for 'tags'")
    parts: list[sql.Composable] = []
    for op, operand in ops.items():
        if op not in TAG_OPERATORS:
            raise InvalidFilterError(f"unknown operator {op!r} for 'tags'; use contains_any or contains_all")
        if not isinstance(operand, list | tuple) or not operand:
            raise InvalidFilterError(f"'tags' {op!r} takes a non-empty list of tags")
        tags = []
        for tag in operand:
            if not isinstance(tag, str):
                raise InvalidFilterError(f"'tags' {op!r} takes strings, got {type(tag).__name__} {tag!r:.80}")
            _check_representable("tags", tag)
            tags.append(tag)
        parts.append(_TAGS.format(sql.SQL(TAG_OPERATORS[op]), params.add(tags)))
    return _JUNCTIONS["AND"].join(parts)


def _check_value(key: str, value: Any, expected: type | tuple[type, ...]) -> Any:
    if expected is dt.datetime and isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            raise InvalidFilterError(f"{key!r} needs an ISO-8601 datetime, got {value!r}") from None
    if expected is uuid.UUID and isinstance(value, str):
        try:
            value = uuid.UUID(value)
        except ValueError:
            raise InvalidFilterError(f"{key!r} needs a UUID, got {value!r}") from None
    if isinstance(value, bool) and expected in ((int, float), int):
        raise InvalidFilterError(f"{key!r} needs a number, got a boolean")
    if not isinstance(value, expected):
        raise InvalidFilterError(
            f"{key!r} cannot be compared with {type(value).__name__} value {value!r:.80}"
        )
    _check_representable(key, value)
    if key == "memory_type" and value not in {t.value for t in MemoryType}:
        raise InvalidFilterError(f"unknown memory_type {value!r} in filter")
    return value


def _check_representable(key: str, value: Any) -> None:
    """Values PostgreSQL can take as parameters: no NUL or lone surrogate in text (which would fail
    every retriever), integers within bigint, finite floats (``10**400`` overflows float8)."""
    if isinstance(value, str):
        try:
            check.storable(value, f"filter value for {key!r}")
        except InvalidInputError as exc:
            raise InvalidFilterError(str(exc)) from None
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > check.MAX_BIGINT:
        raise InvalidFilterError(f"filter value for {key!r} is out of range (at most ±{check.MAX_BIGINT})")
    elif isinstance(value, float) and not math.isfinite(value):
        raise InvalidFilterError(f"filter value for {key!r} must be a finite number, got {value}")


def _metadata_cast(name: str, operand: Any) -> sql.Composable:
    """Numbers compare numerically (rows whose value is not a JSON number never match)."""
    if isinstance(operand, int | float) and not isinstance(operand, bool):
        return _METADATA_NUMBER.format(k=sql.Literal(name))
    return _METADATA_TEXT.format(sql.Literal(name))


def _metadata_param(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return float(value)
    return str(value)
