"""The procedure record and its one-line text form (pure: no I/O).

Text form, English or Chinese, the same shape both ways::

    Deploy the API: run the tests → build the image → push to the registry (when: tests are green; outcome: new version live)
    部署接口：运行测试 → 构建镜像 → 推送镜像（前提：测试通过；结果：新版本上线）

``to_text`` writes it, ``parse_text`` reads it back; a line without ``name:`` is a procedure
whose steps are the whole line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidInputError
from ..text.language import detect_language

METADATA_KEY = "procedure"
CATEGORY = "procedure"
_ARROW = re.compile(r"\s*(?:→|->|=>|⇒)\s*")
_TAIL = re.compile(r"\s*[（(]((?:when|前提)\s*[:：].*?|(?:outcome|结果)\s*[:：].*?)[)）]\s*$", re.S)
_PART = re.compile(r"^(when|前提|outcome|结果)\s*[:：]\s*(.*)$", re.S)
_NAME = re.compile(r"^([^:：→]{1,80}?)\s*[:：]\s*(.+)$", re.S)


@dataclass(frozen=True, slots=True)
class Procedure:
    """A way of doing a task that worked: name, ordered steps, preconditions, outcome."""

    name: str
    steps: tuple[str, ...]
    preconditions: tuple[str, ...] = ()
    outcome: str | None = None
    successes: int = 1
    tools: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise InvalidInputError("a procedure needs a name")
        if not self.steps or not all(isinstance(s, str) and s.strip() for s in self.steps):
            raise InvalidInputError("a procedure needs at least one non-empty step")

    def to_text(self) -> str:
        chinese = detect_language(self.name + "".join(self.steps)) == "zh"
        colon, sep, left, right = ("：", "；", "（", "）") if chinese else (": ", "; ", " (", ")")
        parts = []
        if self.preconditions:
            parts.append(
                ("前提：" if chinese else "when: ") + ("、" if chinese else ", ").join(self.preconditions)
            )
        if self.outcome:
            parts.append(("结果：" if chinese else "outcome: ") + self.outcome)
        tail = f"{left}{sep.join(parts)}{right}" if parts else ""
        return f"{self.name}{colon}{' → '.join(self.steps)}{tail}"

    def to_metadata(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "steps": list(self.steps),
            "preconditions": list(self.preconditions),
            "outcome": self.outcome,
            "successes": self.successes,
            "tools": list(self.tools),
        }

    @classmethod
    def from_metadata(cls, data: Mapping[str, Any]) -> Procedure:
        return cls(
            name=str(data["name"]),
            steps=tuple(str(s) for s in data.get("steps", ())),
            preconditions=tuple(str(p) for p in data.get("preconditions", ())),
            outcome=data.get("outcome"),
            successes=int(data.get("successes", 1)),
            tools=tuple(str(t) for t in data.get("tools", ())),
        )


def parse_text(text: str, *, successes: int = 1) -> Procedure:
    """Read a procedure back from its one-line form (the inverse of ``Procedure.to_text``)."""
    body = text.strip()
    preconditions: tuple[str, ...] = ()
    outcome = None
    tail = _TAIL.search(body)
    if tail:
        body = body[: tail.start()].strip()
        for part in re.split(r"[;；]", tail.group(1)):
            match = _PART.match(part.strip())
            if match and match.group(1) in ("when", "前提"):
                preconditions = tuple(p.strip() for p in re.split(r"[,，、]", match.group(2)) if p.strip())
            elif match:
                outcome = match.group(2).strip() or None
    named = _NAME.match(body)
    name, steps_text = (named.group(1).strip(), named.group(2)) if named else (body[:80], body)
    steps = tuple(s.strip() for s in _ARROW.split(steps_text) if s.strip())
    return Procedure(
        name=name, steps=steps, preconditions=preconditions, outcome=outcome, successes=successes
    )


def checked(
    name: Any, steps: Any, preconditions: Any = (), outcome: Any = None, tools: Any = ()
) -> Procedure:
    """A ``Procedure`` from caller input, with a typed error for each bad field."""
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise InvalidInputError("procedure name must be a non-empty string of at most 200 characters")
    steps = _strings(steps, "steps")
    if not steps:
        raise InvalidInputError("a procedure needs at least one step")
    if outcome is not None and (not isinstance(outcome, str) or not outcome.strip()):
        raise InvalidInputError("outcome must be a non-empty string or None")
    return Procedure(
        name=name.strip(),
        steps=steps,
        preconditions=_strings(preconditions, "preconditions"),
        outcome=None if outcome is None else outcome.strip(),
        tools=_strings(tools, "tools"),
    )


def _strings(value: Any, field_name: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise InvalidInputError(f"{field_name} must be a list of strings")
    if not all(isinstance(v, str) and v.strip() for v in value):
        raise InvalidInputError(f"every item of {field_name} must be a non-empty string")
    return tuple(v.strip() for v in value)
