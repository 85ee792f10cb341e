"""The three-way comparison of a synced file (pure: no I/O).

``base`` is what the last sync wrote, ``file`` what the person has now, ``memory`` what the
database holds now, each as anchor → line. Per anchor:

=====================  =====================  ==========================================
file vs base           memory vs base          result
=====================  =====================  ==========================================
unchanged              anything                the memory's version is written
changed / removed      unchanged               the file's change is applied (update / delete)
changed like memory    changed                 nothing to do
changed / removed      changed / removed       a conflict: both versions stay in the file,
                                               the database keeps its own; nothing is lost
=====================  =====================  ==========================================

A line without an anchor is an add. An anchored line whose memory is gone and that was
not in the base (e.g. kept from a resolved conflict) is an add too. A conflict block still
in the file is left as it is until the person resolves it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .markdown_format import Conflict, Line, Parsed


@dataclass(frozen=True, slots=True)
class Update:
    key: str
    line: Line


@dataclass
class Plan:
    """What a sync does to the database, and the conflicts the file will show."""

    adds: list[Line] = field(default_factory=list)
    updates: list[Update] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)
    conflicts: dict[str, Conflict] = field(default_factory=dict)

    @property
    def changes(self) -> int:
        return len(self.adds) + len(self.updates) + len(self.deletes)


def base_lines(base: Parsed) -> dict[str, Line]:
    """The base's lines; an open conflict's base is the memory's version it showed."""
    lines = dict(base.lines)
    for key, conflict in base.conflicts.items():
        if conflict.memory_text is not None:
            lines[key] = Line(conflict.section, conflict.memory_text)
    return lines


def plan(base: Parsed | None, file: Parsed, memory: dict[str, Line]) -> Plan:
    """Compare the three versions of one file; see the module's table."""
    result = Plan()
    result.adds = [line for _, line in file.new]
    old = base_lines(base) if base is not None else {}
    for key, conflict in file.conflicts.items():  # unresolved: shown again with the memory's current version
        current = memory.get(key)
        result.conflicts[key] = Conflict(
            conflict.section, conflict.file_text, current.text if current else None
        )
    for key in (old.keys() | file.lines.keys() | memory.keys()) - file.conflicts.keys():
        b, f, m = old.get(key), file.lines.get(key), memory.get(key)
        if _same(f, b) and (base is not None or f is None):
            continue  # the file did not change this memory: the memory's version is written
        if f is not None and m is None and b is None:
            result.adds.append(f)  # an anchor of a memory that no longer exists: the line is kept as new
        elif _same(m, b):
            if f is None:
                result.deletes.append(key)
            else:
                result.updates.append(Update(key, f))
        elif not _same(f, m):
            section = (f or m or b).section  # type: ignore[union-attr]
            result.conflicts[key] = Conflict(
                section, None if f is None else f.text, None if m is None else m.text
            )
    return result


def _same(a: Line | None, b: Line | None) -> bool:
    """Same text (a move between sections is not a change of the memory)."""
    if a is None or b is None:
        return a is b
    return a.text == b.text
