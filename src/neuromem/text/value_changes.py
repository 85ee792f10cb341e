"""Whether a new statement changes the value an older one gave to a slot (issue 21, seed 004 §4.1
UPDATE): the templates and aligned words of ``text.slots`` first, then the statement frames of
``text.slot_frames``. One decision for the write side (``conflicts``, ``ingest.rules``) and recall's
truth stage (``recall.truth``)."""

from __future__ import annotations

import re
from functools import lru_cache

from .renames import renamed
from .slot_frames import (
    change_evidence,
    definite_frame_change,
    ends_its_value,
    frame_change,
    names_another_thing,
    of_a_shared_thing,
    one_statement_long,
    qualified_apart,
    same_people,
    states_a_value,
    subjects_apart,
)
from .slots import (
    ValueChange,
    _aligned_change,
    _named_apart,
    _template_change,
    claim_of,
    clauses_apart,
    explicit_from_to,
    same_slot,
    shares_only_value_words,
)


def may_change(text: str) -> bool:
    """Whether ``text`` can change a stored value at all: it fills a slot, says a change or an end, or ends
    in a definite frame's value ("… affiliated with the religion of Islam": ``definite_frame_change``)."""
    if claim_of(text, generic=True) is not None or _DEFINITE_VALUE_EN.search(text):
        return True
    return change_evidence(text) is not None


_DEFINITE_VALUE_EN = re.compile(
    r"\bthe\s+[\w-]+(?:\s+[\w-]+){0,2}\s+of\s+[^.?!;]{1,60}[.!]?\s*$", re.IGNORECASE
)


#: Pairs of statements whose decision is remembered: recall compares the same few memories two by two
#: on every search of a user (``recall.truth.value_changes``), and the decision is a pure function of
#: the two texts and their cosine
DECISIONS_KEPT = 16384


@lru_cache(maxsize=DECISIONS_KEPT)
def value_change(new: str, old: str, *, cosine: float | None = None) -> ValueChange | None:
    """How ``new`` changes the value of ``old``'s slot, or None (another slot, the same value,
    a multi-valued relation, values of different kinds): the templates first, then a change that
    names both values ("switched from X to Y"), then the aligned words, then the statement frames
    (``text.slot_frames``; ``cosine`` of the two statements' vectors when known)."""
    found = _change(new, old, cosine)
    if found is not None:
        return found
    # "The building was sold; our new landlord is Mrs. Baptiste", 县里给换了一辆新的宇通校车，黄色的，…: one clause of
    # several says the change, and the others' words hide it from the whole statement's reading; of the people the
    # whole statement names ("My wife switched jobs, she works at Allianz now" is not "I work at …")
    if not one_statement_long(new):
        return None  # a turn that tells many things: its clauses may each be of another thing
    clauses = clauses_apart(new)
    if not clauses or not same_people(new, old):
        return None
    return next((c for clause in clauses if (c := _change(clause, old, None)) is not None), None)


def _change(new: str, old: str, cosine: float | None) -> ValueChange | None:
    found = _template_change(new, old) or renamed(new, old)
    if found is not None:
        return found
    if states_a_value(new, old) and same_people(new, old):
        found = explicit_from_to(new, old)  # both values named: whatever the templates say of the slot
        if found is not None:
            return found
    a, b = claim_of(new), claim_of(old)
    if a is not None and b is not None and (same_slot(a, b) or _named_apart(a, b)):
        return None  # one slot whose templates found no change, or two slots each statement names
    if not states_a_value(new, old) or not same_people(new, old):
        return None  # a question, a request, a long turn state no value; "my wife", "my kids'": the aligned words of another subject say nothing of this one
    if shares_only_value_words(new, old) and names_another_thing(new, old):
        return None  # 我的办公室在214房间 / 打印机现在放在118房间: two things in two rooms
    aligned = _aligned_change(new, old)
    # the aligned words of a thing of a shared word (吴医生的诊所搬到了人民路 / 我的牙医是吴医生: the clinic's address,
    # not the dentist), or of two kinds of one thing ("My reading glasses are +1.5" / "My distance glasses
    # prescription has changed to -0.75"), or of two things each statement opens on, change nothing
    if aligned is not None and (
        of_a_shared_thing(new, old) or qualified_apart(new, old) or subjects_apart(new, old)
    ):
        aligned = None
    return (
        aligned
        or frame_change(new, old, cosine=cosine)
        or definite_frame_change(new, old)
        or ends_its_value(new, old)
    )


__all__ = ["may_change", "value_change"]
