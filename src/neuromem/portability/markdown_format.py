"""``memory.md`` / ``learnings.md``: how a user's memory is written as Markdown, and read back.

One memory per list item, its stable anchor at the end (the id of the memory's first
version, so it survives updates)::

    ## Known facts
    - I work at Google <!-- nm:0193e2c4-... -->
    ## Patterns
    - Goes jogging in the morning _(behavior · established · confidence 0.72)_ <!-- nm:... -->

``_(…)_`` at the end of a line is information the file shows but does not take back (stage,
confidence, success counts). A line without an anchor is new. A conflict (the same memory
changed in the file and in the database since the last sync) is written as a block::

    <!-- conflict nm:ID: keep the version you want, then delete the other line and these two comments -->
    - the file's version <!-- nm:ID file -->
    - the memory's version <!-- nm:ID memory -->
    <!-- end conflict nm:ID -->

Headings are read in English or Chinese whatever language the file was written in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from ..errors import MarkdownSyncError


class Section(StrEnum):
    PREFERENCES = "preferences"
    FACTS = "facts"
    PATTERNS = "patterns"
    PROCEDURES = "procedures"


class Document(StrEnum):
    MEMORY = "memory.md"
    LEARNINGS = "learnings.md"


SECTIONS_OF = {
    Document.MEMORY: (Section.PREFERENCES, Section.FACTS, Section.PATTERNS),
    Document.LEARNINGS: (Section.PROCEDURES,),
}
HEADINGS = {
    "en": {
        Section.PREFERENCES: "Preferences",
        Section.FACTS: "Known facts",
        Section.PATTERNS: "Patterns",
        Section.PROCEDURES: "Procedures and skills",
    },
    "zh": {
        Section.PREFERENCES: "偏好",
        Section.FACTS: "已知事实",
        Section.PATTERNS: "行为模式",
        Section.PROCEDURES: "流程与技能",
    },
}
TITLES = {
    "en": {Document.MEMORY: "Memory of {user}", Document.LEARNINGS: "Learnings of {user}"},
    "zh": {Document.MEMORY: "{user} 的记忆", Document.LEARNINGS: "{user} 的经验"},
}
# one comment, never nested: a renderer ends a comment at its first "-->" and shows the rest
GUIDE = {
    "en": "<!-- neuromem keeps this file in sync: edit, add or delete lines (one memory per line); "
    "keep the nm:… anchor that ends each line; text in _(…)_ is shown, not read back. -->",
    "zh": "<!-- neuromem 会同步此文件：可以修改、添加或删除条目（每行一条记忆）；"
    "请保留每行末尾的 nm:… 锚点；_(…)_ 中的内容只供查看，不会被读回。 -->",
}
CONFLICT_NOTE = {
    "en": "keep the version you want, then delete the other line and these two comments",
    "zh": "保留你想要的版本，然后删除另一行和这两行注释",
}
_HEADING_LOOKUP = {name.casefold(): section for names in HEADINGS.values() for section, name in names.items()}
_ANCHOR = re.compile(r"\s*<!--\s*nm:([0-9a-fA-F-]{36})(?:\s+(file|memory))?\s*-->\s*$")
_SHOWN = re.compile(r"\s*_\([^\n]*\)_\s*$")
_CONFLICT_START = re.compile(r"^<!--\s*conflict\s+nm:([0-9a-fA-F-]{36})\b.*-->\s*$")
_CONFLICT_END = re.compile(r"^<!--\s*end conflict\s+nm:([0-9a-fA-F-]{36})\s*-->\s*$")


@dataclass(frozen=True, slots=True)
class Line:
    """One memory as a line: its section and its text (without anchor and shown-only parts)."""

    section: Section
    text: str


@dataclass(frozen=True, slots=True)
class Conflict:
    """A memory changed on both sides: either version may be missing (deleted on that side)."""

    section: Section
    file_text: str | None
    memory_text: str | None


@dataclass
class Parsed:
    """A file read back: anchored lines, new lines, and conflict blocks not yet resolved."""

    lines: dict[str, Line] = field(default_factory=dict)
    new: list[tuple[int, Line]] = field(default_factory=list)
    conflicts: dict[str, Conflict] = field(default_factory=dict)


def parse(text: str, default_section: Section) -> Parsed:
    """Read a synced Markdown file (raises ``MarkdownSyncError`` on a damaged conflict block)."""
    parsed = Parsed()
    section = default_section
    block: tuple[str, int, dict[str, str]] | None = None  # (key, line number, variants)
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if block is not None:
            end = _CONFLICT_END.match(stripped)
            if end:
                block_key, _, variants = block
                parsed.conflicts[block_key] = Conflict(section, variants.get("file"), variants.get("memory"))
                block = None
                continue
            item = _item(stripped)
            if item is None:
                continue
            key, side, body = item
            if key != block[0] or side is None:
                raise MarkdownSyncError(
                    f"line {number}: the conflict block of nm:{block[0]} holds a foreign line"
                )
            block[2][side] = body
            continue
        start = _CONFLICT_START.match(stripped)
        if start:
            block = (start.group(1).lower(), number, {})
            continue
        if stripped.startswith("## "):
            section = _HEADING_LOOKUP.get(stripped[3:].strip().casefold(), section)
            continue
        item = _item(stripped)
        if item is None:
            continue
        key, _, body = item
        if not body:
            continue
        if key is None:
            parsed.new.append((number, Line(section, body)))
        else:
            parsed.lines[key] = Line(section, body)
    if block is not None:
        raise MarkdownSyncError(f"line {block[1]}: the conflict block of nm:{block[0]} is not closed")
    return parsed


def _item(line: str) -> tuple[str | None, str | None, str] | None:
    """``(anchor, side, text)`` of a list item, or None for any other line."""
    if not line.startswith(("- ", "* ")):
        return None
    body = line[2:]
    anchor = _ANCHOR.search(body)
    key = side = None
    if anchor:
        key, side = anchor.group(1).lower(), anchor.group(2)
        body = body[: anchor.start()]
    body = _SHOWN.sub("", body).strip()
    return key, side, body


def render(
    document: Document,
    user_id: str,
    language: str,
    lines: dict[str, Line],
    shown: dict[str, str],
    conflicts: dict[str, Conflict],
) -> str:
    """The file for ``lines`` (key → line), ``shown`` extras (key → text) and open conflicts."""
    words = HEADINGS[language]
    out = [f"# {TITLES[language][document].format(user=user_id)}", "", GUIDE[language], ""]
    for section in SECTIONS_OF[document]:
        out += [f"## {words[section]}", ""]
        for key, line in lines.items():
            if line.section is section:
                extra = f" _({shown[key]})_" if shown.get(key) else ""
                out.append(f"- {line.text}{extra} <!-- nm:{key} -->")
        for key, conflict in conflicts.items():
            if conflict.section is section:
                out.append(f"<!-- conflict nm:{key}: {CONFLICT_NOTE[language]} -->")
                if conflict.file_text is not None:
                    out.append(f"- {conflict.file_text} <!-- nm:{key} file -->")
                if conflict.memory_text is not None:
                    out.append(f"- {conflict.memory_text} <!-- nm:{key} memory -->")
                out.append(f"<!-- end conflict nm:{key} -->")
        out.append("")
    return "\n".join(out).rstrip() + "\n"
