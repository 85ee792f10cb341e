"""The export for people: one Markdown page from the exported rows (pure function, no I/O).

Current facts and episodes with their versions and changes, traits by stage with their
evidence in the original words, documents, and the conversations themselves.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from .format import ExportHeader

_STAGES = ("core", "established", "emerging", "candidate", "trend", "dissolved")


def render_markdown(header: ExportHeader, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    memories = list(tables.get("memories", ()))
    by_id = {m["id"]: m for m in memories}
    history: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for entry in tables.get("memory_history", ()):
        history[entry["memory_id"]].append(entry)
    current = [m for m in memories if m.get("expired_at") is None]
    lines = [
        f"# Memory of {header.user_id}",
        "",
        f"Exported {header.exported_at[:19]} UTC · {sum(header.tables.values())} rows · "
        f"format {header.format} v{header.version}",
        "",
    ]
    for title, kind in (("Facts", "fact"), ("Episodes", "episodic")):
        rows = sorted((m for m in current if m["memory_type"] == kind), key=lambda m: m["created_at"])
        lines += [f"## {title} ({len(rows)})", ""]
        for m in rows:
            tags = ", ".join(t for t in (m.get("category"), f"v{m['version']}", _day(m.get("valid_at"))) if t)
            lines.append(f"- {m['content']} ({tags}) `{m['id']}`")
            changes = [h for h in history.get(m["id"], ()) if h["event"] != "ADD"]
            lines += [
                f"  - {_day(h['created_at'])} {h['event']} by {h['actor']}: {h.get('old_content') or ''}"
                f" → {h.get('new_content') or ''}"
                for h in changes
            ]
        lines.append("")
    lines += _traits(current, tables.get("trait_evidence", ()), by_id)
    files = list(tables.get("document_files", ()))
    lines += [f"## Documents ({len(files)})", ""]
    lines += [
        f"- {f['file_name']} ({f['mime_type']}, {f['chunk_count']} chunks)"
        f"{' [deleted]' if f.get('deleted_at') else ''}"
        for f in files
    ]
    lines += ["", *_conversations(tables)]
    return "\n".join(lines).rstrip() + "\n"


def _traits(
    current: Sequence[Mapping[str, Any]],
    evidence: Sequence[Mapping[str, Any]],
    by_id: Mapping[str, Mapping[str, Any]],
) -> list[str]:
    support: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for e in evidence:
        support[e["trait_id"]].append(e)
    traits = [m for m in current if m["memory_type"] == "trait"]
    lines = [f"## Traits ({len(traits)})", ""]
    for stage in _STAGES:
        staged = sorted(
            (t for t in traits if t.get("trait_stage") == stage),
            key=lambda t: -(t.get("trait_confidence") or 0),
        )
        if not staged:
            continue
        lines += [f"### {stage}", ""]
        for t in staged:
            lines.append(
                f"- {t['content']} ({t.get('trait_subtype')}, confidence {t.get('trait_confidence') or 0:.2f}) "
                f"`{t['id']}`"
            )
            for e in support.get(t["id"], ()):
                quoted = by_id.get(e["memory_id"], {}).get("content", e["memory_id"])
                lines.append(f"  - {e['evidence_type']} ({e['quality']}): “{quoted}”")
        lines.append("")
    return lines


def _conversations(tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[str]:
    messages: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for msg in tables.get("conversation_messages", ()):
        messages[msg["session_id"]].append(msg)
    sessions = list(tables.get("conversation_sessions", ()))
    lines = [f"## Conversations ({len(sessions)})", ""]
    for s in sessions:
        lines += [f"### {s['external_id']} ({_day(s.get('started_at'))})", ""]
        lines += [
            f"- **{m['role']}**: {m['content']}" for m in sorted(messages[s["id"]], key=lambda m: m["seq"])
        ]
        lines.append("")
    return lines


def _day(value: Any) -> str:
    return str(value)[:10] if value else ""
