"""Typed loaders for the development benchmarks in ``shared/data`` (see its README.md).

Nothing here copies data into the repository: files are streamed from the data
root, which defaults to ``<checkout>/../shared/data`` and can be moved with the
environment variable ``NEUROMEM_BENCH_DATA`` (or an explicit ``path``/``root``).

LongMemEval (Wu et al., ICLR 2025; cleaned 2025-09 release)
    :func:`load_longmemeval` streams ``longmemeval_s_dev.jsonl.gz`` (one JSON
    object per line) or reads a JSON array such as
    ``longmemeval_oracle_dev.json``. Dates look like ``"2023/04/10 (Mon) 23:07"``
    and carry no timezone; they are parsed as **UTC** so that ordering and
    differences are kept and every datetime is aware.

    Gold evidence follows the official retrieval protocol
    (``src/retrieval/run_retrieval.py``): turn ids are ``f"{session_id}_{i}"``
    with ``i`` counting *all* turns from 1; the official index holds user turns
    only, its gold turns are user turns with ``has_answer`` and its gold sessions
    are answer sessions with at least one such turn; ``_abs`` questions are left
    out of the averages. :func:`retrieval_eligible` also leaves out questions
    whose evidence lies only in assistant turns (they have no gold in a
    user-turn index). :func:`lme_corpus` builds either the official user-turn
    corpus or an all-turns corpus, at turn or session granularity.

MADial-Bench (He et al., NAACL 2025)
    :func:`load_madial` reads the memory archive and the dialogues (JSON Lines
    despite the ``.json`` name). The query of a dialogue is the dialogue before
    its first ``test-turn``; candidates are the memories of the same user; gold
    is ``relevant-id``.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "LMECorpusDoc",
    "LMEQuestion",
    "LMESession",
    "LMETurn",
    "MadialBench",
    "MadialDialogue",
    "MadialMemory",
    "MadialUtterance",
    "data_root",
    "evidence_session_ids",
    "evidence_turn_ids",
    "has_user_evidence",
    "is_abstention",
    "lme_corpus",
    "load_longmemeval",
    "load_madial",
    "parse_lme_date",
    "retrieval_eligible",
    "session_of_turn",
]

ENV_VAR = "NEUROMEM_BENCH_DATA"
LME_S_DEV = Path("longmemeval") / "longmemeval_s_dev.jsonl.gz"
LME_ORACLE_DEV = Path("longmemeval") / "longmemeval_oracle_dev.json"
LME_DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"
Role = Literal["user", "assistant"]


def data_root(environ: Mapping[str, str] | None = None) -> Path:
    """``$NEUROMEM_BENCH_DATA`` if set, else the ``shared/data`` directory beside the checkout."""
    env = os.environ if environ is None else environ
    override = env.get(ENV_VAR)
    if override:
        return Path(override).expanduser()
    return Path(__file__).resolve().parents[1].parent / "shared" / "data"


# =========================================================================== LongMemEval


@dataclass(frozen=True, slots=True)
class LMETurn:
    """One message of a haystack session; ``turn_id`` is ``f"{session_id}_{index}"``, index from 1."""

    turn_id: str
    index: int
    role: Role
    content: str
    has_answer: bool


@dataclass(frozen=True, slots=True)
class LMESession:
    session_id: str
    date: dt.datetime
    turns: tuple[LMETurn, ...]
    is_answer_session: bool

    @property
    def user_turns(self) -> tuple[LMETurn, ...]:
        return tuple(t for t in self.turns if t.role == "user")


@dataclass(frozen=True, slots=True)
class LMEQuestion:
    """One LongMemEval instance: a question and its own haystack of sessions, in file order."""

    question_id: str
    question_type: str
    question: str
    question_date: dt.datetime
    answer: str
    answer_session_ids: tuple[str, ...]
    sessions: tuple[LMESession, ...]

    @property
    def is_abstention(self) -> bool:
        return is_abstention(self)

    def turns(self) -> Iterator[LMETurn]:
        for s in self.sessions:
            yield from s.turns


@dataclass(frozen=True, slots=True)
class LMECorpusDoc:
    """One retrievable unit: a turn or a whole session (``doc_id`` is the turn or session id)."""

    doc_id: str
    session_id: str
    date: dt.datetime
    text: str
    role: Role | None  # None for a session document


def parse_lme_date(text: str) -> dt.datetime:
    """Parse ``"2023/04/10 (Mon) 23:07"`` as an aware datetime in UTC (the data has no zone)."""
    return dt.datetime.strptime(text.strip(), LME_DATE_FORMAT).replace(tzinfo=dt.UTC)


def session_of_turn(turn_id: str) -> str:
    """``"answer_39900a0a_3_7"`` → ``"answer_39900a0a_3"`` (strip the turn index, as upstream does)."""
    return turn_id.rsplit("_", 1)[0]


def _lme_question(raw: Mapping[str, Any]) -> LMEQuestion:
    ids = [str(s) for s in raw["haystack_session_ids"]]
    dates = raw["haystack_dates"]
    bodies = raw["haystack_sessions"]
    if not len(ids) == len(dates) == len(bodies):
        raise ValueError(f"{raw.get('question_id')}: haystack ids, dates and sessions differ in length")
    answer_ids = tuple(str(s) for s in raw["answer_session_ids"])
    answer_set = set(answer_ids)
    sessions = []
    for sid, date, body in zip(ids, dates, bodies, strict=True):
        turns = tuple(
            LMETurn(
                turn_id=f"{sid}_{i}",
                index=i,
                role=turn["role"],
                content=str(turn["content"]),
                has_answer=bool(turn.get("has_answer", False)),
            )
            for i, turn in enumerate(body, start=1)
        )
        sessions.append(LMESession(sid, parse_lme_date(date), turns, sid in answer_set))
    return LMEQuestion(
        question_id=str(raw["question_id"]),
        question_type=str(raw["question_type"]),
        question=str(raw["question"]),
        question_date=parse_lme_date(raw["question_date"]),
        answer=str(raw["answer"]),
        answer_session_ids=answer_ids,
        sessions=tuple(sessions),
    )


def _iter_raw(path: Path) -> Iterator[dict[str, Any]]:
    name = path.name.lower()
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        if name.endswith((".jsonl", ".jsonl.gz")):
            for line in f:
                if line.strip():
                    yield json.loads(line)
        else:
            data = json.load(f)
            if not isinstance(data, list):
                raise ValueError(f"{path}: expected a JSON array of questions")
            yield from data


def load_longmemeval(path: str | Path | None = None, limit: int | None = None) -> Iterator[LMEQuestion]:
    """Stream LongMemEval questions (default: ``longmemeval_s_dev.jsonl.gz`` under :func:`data_root`).

    ``.jsonl`` / ``.jsonl.gz`` files are read line by line; ``.json`` (or
    ``.json.gz``) files as one array, e.g. ``longmemeval_oracle_dev.json``.
    ``limit`` stops after that many questions.
    """
    file = Path(path) if path is not None else data_root() / LME_S_DEV
    if limit is not None and limit < 0:
        raise ValueError("limit must be >= 0")
    for n, raw in enumerate(_iter_raw(file)):
        if limit is not None and n >= limit:
            return
        yield _lme_question(raw)


def is_abstention(q: LMEQuestion) -> bool:
    """Abstention questions have ids ending in ``_abs``; the official retrieval metrics skip them."""
    return q.question_id.endswith("_abs")


def evidence_turn_ids(q: LMEQuestion, user_only: bool = True) -> frozenset[str]:
    """Gold turns: turns with ``has_answer`` in answer sessions (only user turns when ``user_only``)."""
    return frozenset(
        t.turn_id
        for s in q.sessions
        if s.is_answer_session
        for t in s.turns
        if t.has_answer and (t.role == "user" or not user_only)
    )


def evidence_session_ids(q: LMEQuestion, user_only: bool = True) -> frozenset[str]:
    """Gold sessions: with ``user_only`` (official), answer sessions holding a user evidence turn;
    otherwise all ``answer_session_ids``."""
    if not user_only:
        return frozenset(q.answer_session_ids)
    return frozenset(session_of_turn(t) for t in evidence_turn_ids(q, user_only=True))


def has_user_evidence(q: LMEQuestion) -> bool:
    """False when the evidence lies only in assistant turns (e.g. most single-session-assistant questions)."""
    return bool(evidence_turn_ids(q, user_only=True))


def retrieval_eligible(q: LMEQuestion, user_only: bool = True) -> bool:
    """Whether the question counts in retrieval metrics: not ``_abs`` and with gold in the chosen corpus."""
    if is_abstention(q):
        return False
    return bool(evidence_turn_ids(q, user_only=user_only))


def lme_corpus(
    q: LMEQuestion,
    granularity: Literal["turn", "session"] = "turn",
    user_only: bool = True,
    keep_duplicates: bool = False,
) -> list[LMECorpusDoc]:
    """The retrieval corpus of one question's haystack.

    - ``user_only=True`` is the official index: user turns only, and a session
      document is its user turns joined with a space.
    - ``user_only=False`` indexes every turn (session text joins ``role: content``
      lines).

    A few haystacks repeat a filler session (same id and content, other date);
    upstream indexes it twice under the same ids. By default only its first
    occurrence is kept so doc ids are unique (no gold is affected: repeated
    sessions are never answer sessions); ``keep_duplicates=True`` mirrors upstream.
    Empty turns (a few haystacks past the first 270 questions have one) are left out.
    """
    if granularity not in ("turn", "session"):
        raise ValueError(f"granularity must be 'turn' or 'session', got {granularity!r}")
    docs: list[LMECorpusDoc] = []
    seen: set[str] = set()
    for s in q.sessions:
        if not keep_duplicates:
            if s.session_id in seen:
                continue
            seen.add(s.session_id)
        turns = s.user_turns if user_only else s.turns
        if granularity == "turn":
            docs.extend(
                LMECorpusDoc(t.turn_id, s.session_id, s.date, t.content, t.role)
                for t in turns
                if t.content.strip()
            )  # a few turns are empty: nothing to find
        else:
            text = (
                " ".join(t.content for t in turns)
                if user_only
                else "\n".join(f"{t.role}: {t.content}" for t in turns)
            )
            docs.append(LMECorpusDoc(s.session_id, s.session_id, s.date, text, None))
    return docs


# =========================================================================== MADial-Bench


@dataclass(frozen=True, slots=True)
class MadialMemory:
    """One entry of the memory archive (``event`` is the text to retrieve)."""

    memory_id: str
    user_id: int
    date: dt.date
    scene: str
    emotion: str
    event: str


@dataclass(frozen=True, slots=True)
class MadialUtterance:
    """One line of a dialogue; ``index`` is its position in the raw ``dialogue`` list (0 = ``<BOD>``)."""

    index: int
    role: Role
    speaker: str
    content: str


@dataclass(frozen=True, slots=True)
class MadialDialogue:
    dialogue_id: int
    user_id: int
    raw_lines: tuple[str, ...]
    utterances: tuple[MadialUtterance, ...]
    test_turns: tuple[int, ...]
    relevant_ids: tuple[str, ...]

    @property
    def context(self) -> tuple[MadialUtterance, ...]:
        """The utterances before the first test turn: what the system knows when it must recall."""
        first = min(self.test_turns)
        return tuple(u for u in self.utterances if u.index < first)

    def query_text(self, upstream: bool = False) -> str:
        """The recall query: context utterances as ``speaker: content`` lines.

        ``upstream=True`` returns upstream's exact string, ``"".join(dialogue[:test_turn])``.
        """
        if upstream:
            return "".join(self.raw_lines[: min(self.test_turns)])
        return "\n".join(f"{u.speaker}: {u.content}" for u in self.context)


@dataclass(frozen=True, slots=True)
class MadialBench:
    lang: Literal["zh", "en"]
    memories: tuple[MadialMemory, ...]
    dialogues: tuple[MadialDialogue, ...]

    def memories_for_user(self, user_id: int) -> tuple[MadialMemory, ...]:
        """The candidate memories of one user (upstream ranks only these)."""
        return tuple(m for m in self.memories if m.user_id == user_id)

    @property
    def memory_by_id(self) -> dict[str, MadialMemory]:
        return {m.memory_id: m for m in self.memories}


_TAGGED = re.compile(r"^<(?P<speaker>[^<>:]{1,40})>\s*[:：]\s*(?P<text>.*)$", re.S)


def _strip_quotes(text: str) -> str:
    text = text.strip()
    for left, right in (('"', '"'), ("“", "”"), ("<", ">")):
        if len(text) >= 2 and text.startswith(left) and text.endswith(right):
            return text[1:-1].strip()
    if text[:1] in {'"', "“", "<"}:  # an opening mark whose closing one is missing
        return text[1:].strip()
    return text


def _parse_utterance(index: int, line: str, previous: Role | None, user_name: str | None) -> MadialUtterance:
    """Parse ``<Name>:"text"`` (also ``<Name>: "text"``).

    35 lines of the English dialogues have no speaker tag (a bare quote, or the
    text itself wrapped in ``<…>``); each follows a user line, so an untagged
    line takes the role opposite to the previous utterance (the user for the
    first line). Roles do not strictly alternate elsewhere: a few dialogues hold
    two consecutive assistant lines (alternative replies).
    """
    stripped = line.strip()
    m = _TAGGED.match(stripped)
    if m:
        speaker = m.group("speaker").strip()
        role: Role = "assistant" if speaker.lower() == "assistant" else "user"
        return MadialUtterance(index, role, speaker, _strip_quotes(m.group("text")))
    role = "assistant" if previous == "user" else "user"
    speaker = "Assistant" if role == "assistant" else (user_name or "User")
    return MadialUtterance(index, role, speaker, _strip_quotes(stripped))


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _madial_memories(path: Path) -> dict[str, dict[str, Any]]:
    entries: dict[str, dict[str, Any]] = {}
    for obj in _read_jsonl(path):
        for key, value in obj.items():
            entries[str(key)] = value
    return entries


def _user_names(dialogues: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Speaker name → user id, from the tagged user lines of the dialogues (Bart → 1, Lisa → 2)."""
    names: dict[str, int] = {}
    for d in dialogues:
        for line in d["dialogue"]:
            m = _TAGGED.match(line.strip())
            if m and m.group("speaker").strip().lower() != "assistant":
                names.setdefault(m.group("speaker").strip(), int(d["user-id"]))
    return names


def load_madial(lang: Literal["zh", "en"] = "zh", root: str | Path | None = None) -> MadialBench:
    """Load MADial-Bench for ``lang`` from ``<root>/madial/<lang>/`` (default root: :func:`data_root`).

    Memory ids are strings (the archive's keys); ``relevant-id`` integers are
    converted to match. The English files lack some fields, resolved so:

    - memories have no ``user-id``: the owner is the user whose name (taken from
      the dialogues' speaker tags) appears in ``event``; failing that, the
      Chinese archive's ``user-id`` for the same id;
    - dialogues have no ``id``: the line number is used (in ``zh`` ``id`` equals
      the line number, and the ``en`` lines are the same dialogues in order).
    """
    if lang not in ("zh", "en"):
        raise ValueError(f"lang must be 'zh' or 'en', got {lang!r}")
    base = (Path(root) if root is not None else data_root()) / "madial"
    raw_dialogues = _read_jsonl(base / lang / f"MADial-Bench-{lang}-dialogue.json")
    raw_memories = _madial_memories(base / lang / f"MADial-Bench-{lang}-memory.json")
    names = _user_names(raw_dialogues)
    fallback: dict[str, dict[str, Any]] | None = None

    memories = []
    for mid, entry in raw_memories.items():
        user = entry.get("user-id")
        if user is None:
            owners = {uid for name, uid in names.items() if name in str(entry.get("event", ""))}
            if len(owners) == 1:
                user = owners.pop()
            else:
                if fallback is None:
                    zh = base / "zh" / "MADial-Bench-zh-memory.json"
                    fallback = _madial_memories(zh) if zh.exists() else {}
                user = fallback.get(mid, {}).get("user-id")
            if user is None:
                raise ValueError(f"MADial {lang}: cannot tell which user memory {mid} belongs to")
        memories.append(
            MadialMemory(
                memory_id=str(entry.get("id", mid)),
                user_id=int(user),
                date=dt.date.fromisoformat(str(entry["time"])),
                scene=str(entry.get("scene", "")),
                emotion=str(entry.get("emotion", "")),
                event=str(entry["event"]),
            )
        )

    user_name_of = {uid: name for name, uid in names.items()}
    dialogues = []
    for line_no, d in enumerate(raw_dialogues):
        lines = tuple(str(x) for x in d["dialogue"])
        user_id = int(d["user-id"])
        utterances: list[MadialUtterance] = []
        for i, line in enumerate(lines):
            if line.strip() in ("<BOD>", "<EOD>"):
                continue
            previous = utterances[-1].role if utterances else None
            utterances.append(_parse_utterance(i, line, previous, user_name_of.get(user_id)))
        dialogues.append(
            MadialDialogue(
                dialogue_id=int(d.get("id", line_no)),
                user_id=user_id,
                raw_lines=lines,
                utterances=tuple(utterances),
                test_turns=tuple(int(t) for t in d["test-turn"]),
                relevant_ids=tuple(str(r) for r in d["relevant-id"]),
            )
        )
    return MadialBench(lang=lang, memories=tuple(memories), dialogues=tuple(dialogues))
