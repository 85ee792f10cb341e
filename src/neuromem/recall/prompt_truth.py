"""The prompt block tells the truth (issue 21 item 3; seed 003 §7 version chains and review queue).

Two values of one single-valued slot are never shown as equally current:

- a turn whose value a newer memory replaced (``metadata["outdated"]``, set by recall:
  ``recall.truth``) is shown as ``earlier: … (until DATE)`` when it bears on the question (it shares
  a word with it), below the current lines, and left out otherwise;
- an open review item (``memory_conflicts``, two current values the engine could not decide between)
  touching the hits becomes one line the agent can ask the user about, in place of the two values;
- so do two current statements of the user that recall finds may give one thing two values but cannot
  order for certain (``recall.truth.undecided``: they answer the question alike, said on different dates);
- a current statement that recall ranked below a newer statement on one subject (``recall.truth``: two that
  answer the question alike, linked by the write side, or undecided) is shown as ``earlier: [DATE] …``: the newer
  one is the word shown as current, and nothing says the older one ended (no "until").
"""

from __future__ import annotations

import uuid
from dataclasses import replace

from ..store import memories, recall_truth
from ..store.db import Conn
from ..text.tokenize import tokenize
from ..types import MemoryRecord, SearchHit
from .truth import answered_later, event_time, is_outdated, said_at, undecided

LABELS = {
    "en": {
        "earlier": "earlier: {text} (until {date})",
        "conflict": 'unresolved, ask the user which holds: "{old}" ({old_date}) or "{new}" ({new_date})',
        "undecided": 'may have changed: "{old}" ({old_date}), later "{new}" ({new_date})',
        "said_earlier": "earlier: {text}",
    },
    "zh": {
        "earlier": "此前：{text}（至 {date}）",
        "conflict": "尚未确定，可向用户确认哪个成立：「{old}」（{old_date}）还是「{new}」（{new_date}）",
        "undecided": "可能已变：「{old}」（{old_date}），后来说「{new}」（{new_date}）",
        "said_earlier": "此前：{text}",
    },
}
EARLIER_WEIGHT = 0.5  # an earlier value is packed after the current lines that score as well


def _date(record: MemoryRecord) -> str:
    return event_time(record).date().isoformat()


def earlier(
    hits: list[SearchHit], texts: dict[uuid.UUID, str], terms: set[str], lang: str
) -> list[SearchHit]:
    """Outdated turns that bear on the question as ``earlier: … (until DATE)`` lines (``texts`` updated,
    their scores weighed by ``EARLIER_WEIGHT``); the others left out."""
    out = []
    for hit in hits:
        if not is_outdated(hit.memory):
            out.append(hit)
            continue
        words = hit.turns[0].content if hit.turns else hit.memory.content
        if not terms & set(tokenize(words)):
            continue
        until = hit.memory.metadata["outdated"].get("until")
        date = str(until)[:10] if until else "?"
        texts[hit.memory.id] = LABELS[lang]["earlier"].format(text=texts.get(hit.memory.id, words), date=date)
        out.append(replace(hit, score=replace(hit.score, final=hit.score.final * EARLIER_WEIGHT)))
    return out


def conflicts(
    conn: Conn, user_id: str, hits: list[SearchHit], texts: dict[uuid.UUID, str], lang: str
) -> list[SearchHit]:
    """Each open review item touching ``hits`` as one line, on the better ranked of its two hits (``texts``
    updated); the other value's hit is left out."""
    ids = [h.memory.id for h in hits]
    found = recall_truth.open_conflicts(conn, user_id, ids)
    if not found:
        return hits
    records = memories.get_many(conn, user_id, {i for c in found for i in (c.old_id, c.new_id)})
    position = {i: n for n, i in enumerate(ids)}
    dropped: set[uuid.UUID] = set()
    for c in found:
        old, new = records.get(c.old_id), records.get(c.new_id)
        if old is None or new is None or c.old_id in dropped or c.new_id in dropped:
            continue
        shown = [i for i in (c.old_id, c.new_id) if i in position]
        keep = min(shown, key=position.__getitem__)
        dropped.update(i for i in shown if i != keep)
        texts[keep] = LABELS[lang]["conflict"].format(
            old=_one_line(old.content), old_date=_date(old), new=_one_line(new.content), new_date=_date(new)
        )
    return [h for h in hits if h.memory.id not in dropped]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def undecided_values(
    hits: list[SearchHit], texts: dict[uuid.UUID, str], query: str, lang: str
) -> list[SearchHit]:
    """Each pair of ``recall.truth.undecided`` as one line, the older statement first and the later one after it,
    each with the date it was said ("may have changed: … (DATE), later … (DATE)"), on the better ranked of the
    two hits (``texts`` updated); the other hit is left out. A question the user asked is never the older value of
    such a line, nor is a pair whose later statement a still newer one answered (``recall.truth.answered_later``):
    both were said before the latest word, and :func:`said_earlier` shows them so ("80s night" → "Great Gatsby
    now" → "Gatsby lasted a week … smart casual")."""
    pairs = [(o, n) for o, n in undecided(hits, query, questions=False) if not answered_later(hits[n].memory)]
    if not pairs:
        return hits
    dropped: set[uuid.UUID] = set()
    for older, newer in pairs:
        old, new = hits[older], hits[newer]
        keep, drop = (old, new) if older < newer else (new, old)
        dropped.add(drop.memory.id)
        texts[keep.memory.id] = LABELS[lang]["undecided"].format(
            old=_one_line(old.memory.content),
            old_date=said_at(old).date().isoformat(),
            new=_one_line(new.memory.content),
            new_date=said_at(new).date().isoformat(),
        )
    return [h for h in hits if h.memory.id not in dropped]


def said_earlier(hits: list[SearchHit], texts: dict[uuid.UUID, str], lang: str) -> list[SearchHit]:
    """Every current statement of the user that recall ranked below a newer statement on one subject
    (``recall.truth.answered_later``) as ``earlier: [DATE] …`` (``texts`` updated): the newer word is the one
    shown as current, and the older one is dated, not said to have ended. Before the lines for conflicts and
    undecided values, which replace it. ``hits`` is returned as it is."""
    for hit in hits:
        if not answered_later(hit.memory) or is_outdated(hit.memory):
            continue
        line = texts.get(hit.memory.id) or f"[{_date(hit.memory)}] {_one_line(hit.memory.content)}"
        texts[hit.memory.id] = LABELS[lang]["said_earlier"].format(text=line)
    return hits
