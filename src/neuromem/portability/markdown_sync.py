"""Two-way sync of one user's memory with ``memory.md`` and ``learnings.md`` (seed 004 §2.1 L2/L3).

``memory.md`` holds preferences, known facts and patterns (traits with subtype, stage and
confidence); ``learnings.md`` the procedures and skills (facts of category ``procedure``).
A sync reads what the person changed since the last sync (``DIR/.neuromem/`` keeps the files
as last written: the common base), applies it with history actor ``file`` — an added line
is an add, an edited line an update (a new version), a removed line a delete — and writes
both files again from the database. Changes on both sides meet in a three-way comparison
(``markdown_merge``); a true conflict stays in the file with both versions, and the
database keeps its own until the person chooses. A missing file is treated as unchanged
(deleting a file never deletes memories).
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import validation as check
from .. import writes
from ..errors import InvalidInputError, MarkdownSyncError
from ..procedural.record import CATEGORY as PROCEDURE_CATEGORY
from ..procedural.record import METADATA_KEY, Procedure, parse_text
from ..store import chains, memories
from ..types import FactCategory, MemoryRecord, MemoryType, Operation
from .markdown_format import SECTIONS_OF, Document, Line, Parsed, Section, parse, render
from .markdown_merge import Plan, plan

if TYPE_CHECKING:
    from ..core import Runtime

ACTOR = "file"
STATE_DIR = ".neuromem"
LANGUAGES = ("en", "zh")
_MAX_ROWS = 100_000
_CATEGORY_OF = {Section.PREFERENCES: FactCategory.PREFERENCE.value, Section.PROCEDURES: PROCEDURE_CATEGORY}
_SHOWN_WORDS = {
    "en": {"confidence": "confidence", "proven": "proven {n}×"},
    "zh": {"confidence": "置信度", "proven": "成功 {n} 次"},
}


@dataclass
class SyncReport:
    """What one sync did: changes applied to the database and conflicts left in the files."""

    added: int = 0
    updated: int = 0
    deleted: int = 0
    conflicts: int = 0
    files: list[str] = field(default_factory=list)

    @property
    def changes(self) -> int:
        return self.added + self.updated + self.deleted


@dataclass
class _State:
    """The database side of both files: anchor → line, shown extras, and the current record."""

    lines: dict[Document, dict[str, Line]]
    shown: dict[str, str]
    records: dict[str, MemoryRecord]


def sync_markdown(runtime: Runtime, directory: str | Path, uid: str, *, language: str = "en") -> SyncReport:
    """Take the (checked) user ``uid``'s edits of ``directory``'s files in, then write both files again."""
    if language not in LANGUAGES:
        raise InvalidInputError(f"language must be one of {', '.join(LANGUAGES)}, got {language!r}")
    folder = Path(directory)
    state_dir = folder / STATE_DIR
    _claim(state_dir, uid)
    state = _read_state(runtime, uid, language)
    report = SyncReport()
    plans: dict[Document, Plan] = {}
    seen: dict[Document, float | None] = {}
    for document in Document:
        path = folder / document.value
        seen[document] = path.stat().st_mtime if path.exists() else None
        base_path = state_dir / document.value
        base = _parse_file(base_path, document) if base_path.exists() else None
        mine = _parse_file(path, document) if path.exists() else (base or Parsed())
        plans[document] = plan(base, mine, state.lines[document])
    for p in plans.values():  # every line is checked before anything is written
        for line in [*p.adds, *(u.line for u in p.updates)]:
            _check_line(runtime, line)
    for p in plans.values():
        _apply(runtime, uid, p, state, report)
    state = _read_state(runtime, uid, language) if report.changes else state
    for document, p in plans.items():
        text = render(document, uid, language, state.lines[document], state.shown, p.conflicts)
        report.conflicts += len(p.conflicts)
        path = folder / document.value
        current = path.stat().st_mtime if path.exists() else None
        if current != seen[document]:
            continue  # edited while we synced: leave it (and its base) for the next sync
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            _write(path, text)
        _write(state_dir / document.value, text)
        report.files.append(str(path))
    return report


def _claim(state_dir: Path, user_id: str) -> None:
    """A directory holds one user's files: refuse to mix two users' memories."""
    marker = state_dir / "state.json"
    if marker.exists():
        try:
            owner = json.loads(marker.read_text(encoding="utf-8")).get("user_id")
        except (json.JSONDecodeError, AttributeError) as exc:
            raise MarkdownSyncError(f"{marker} is damaged; delete {state_dir} to start over") from exc
        if owner != user_id:
            raise MarkdownSyncError(f"{state_dir.parent} holds the memory of {owner!r}, not of {user_id!r}")
        return
    state_dir.mkdir(parents=True, exist_ok=True)
    _write(marker, json.dumps({"user_id": user_id}) + "\n")


def _parse_file(path: Path, document: Document) -> Parsed:
    try:
        return parse(path.read_text(encoding="utf-8"), SECTIONS_OF[document][0])
    except MarkdownSyncError as exc:
        raise MarkdownSyncError(f"{path}: {exc}") from exc


def _read_state(runtime: Runtime, user_id: str, language: str) -> _State:
    with runtime.db.connection() as conn:
        rows = memories.list_memories(conn, user_id, limit=_MAX_ROWS)
        rows = [r for r in rows if _section(r) is not None]
        roots = chains.chain_roots(conn, user_id, [r.id for r in rows])
    lines: dict[Document, dict[str, Line]] = {d: {} for d in Document}
    shown: dict[str, str] = {}
    records: dict[str, MemoryRecord] = {}
    for record in sorted(rows, key=lambda r: str(roots.get(r.id, r.id))):
        key = str(roots.get(record.id, record.id))
        section = _section(record)
        assert section is not None
        document = Document.LEARNINGS if section is Section.PROCEDURES else Document.MEMORY
        lines[document][key] = Line(section, one_line(record.content))
        records[key] = record
        extra = _shown(record, language)
        if extra:
            shown[key] = extra
    return _State(lines, shown, records)


def _section(record: MemoryRecord) -> Section | None:
    if record.memory_type is MemoryType.TRAIT:
        return Section.PATTERNS if record.trait_stage not in ("dissolved",) else None
    if record.memory_type is not MemoryType.FACT:
        return None
    if record.category == PROCEDURE_CATEGORY:
        return Section.PROCEDURES
    return Section.PREFERENCES if record.category == FactCategory.PREFERENCE.value else Section.FACTS


def _shown(record: MemoryRecord, language: str) -> str:
    words = _SHOWN_WORDS[language]
    if record.memory_type is MemoryType.TRAIT:
        parts = [record.trait_subtype, record.trait_stage]
        if record.trait_confidence is not None:
            parts.append(f"{words['confidence']} {record.trait_confidence:.2f}")
        return " · ".join(p for p in parts if p)
    procedure = record.metadata.get(METADATA_KEY)
    if isinstance(procedure, dict) and int(procedure.get("successes", 1)) > 1:
        return words["proven"].format(n=int(procedure["successes"]))
    return ""


def one_line(text: str) -> str:
    """A memory's content as one list item (line breaks become spaces)."""
    return re.sub(r"\s*\n\s*", " ", text).strip()


def _check_line(runtime: Runtime, line: Line) -> None:
    try:
        check.content(line.text, runtime.settings.write)
        if line.section is Section.PROCEDURES:
            parse_text(line.text)
    except InvalidInputError as exc:
        raise MarkdownSyncError(
            f"cannot take back the line {line.text[:60]!r}: {exc}; nothing was changed"
        ) from exc


def _metadata(line: Line, successes: int = 1) -> dict[str, Any] | None:
    if line.section is not Section.PROCEDURES:
        return None
    procedure: Procedure = parse_text(line.text, successes=successes)
    return {METADATA_KEY: procedure.to_metadata()}


def _apply(runtime: Runtime, user_id: str, p: Plan, state: _State, report: SyncReport) -> None:
    for line in p.adds:
        draft = writes.draft(
            runtime,
            line.text,
            user_id,
            category=_CATEGORY_OF.get(line.section),
            metadata={"source": ACTOR, **(_metadata(line) or {})},
        )
        result = writes.add(runtime, draft, actor=ACTOR)
        if result.operation is not Operation.NOOP:
            report.added += 1
    for update in p.updates:
        record = state.records[update.key]
        known = record.metadata.get(METADATA_KEY)
        successes = int(known.get("successes", 1)) if isinstance(known, dict) else 1
        change = writes.Change.checked(
            runtime, content=update.line.text, metadata=_metadata(update.line, successes)
        )
        writes.update(runtime, user_id, record.id, change, actor=ACTOR)
        report.updated += 1
    for key in p.deletes:
        writes.delete(runtime, user_id, state.records[key].id, actor=ACTOR)
        report.deleted += 1


def _write(path: Path, text: str) -> None:
    """Replace a file atomically (a reader never sees half of it)."""
    partial = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)
