"""How much a recall may reinforce a trait (seed 001 §8.2 "召回即强化", bounded by issue #12 item 3a).

Seed 001 §8.2 adds +0.02 confidence when recall returns a trait (the testing effect). Unbounded,
that is a feedback loop: a recalled trait gains confidence, ranks higher, is recalled more.
On a benchmark, a second pass of the same questions put traits in the top 10 for 2.5× as many
of them. So recall reinforcement here is:

- **bounded**: all recall reinforcement of a trait adds at most ``cap`` (default 0.1) to its
  confidence, for its whole life — evidence, not use, carries a trait further;
- **damped**: the same query reinforces a trait at most once per window (default a day), and
  the k-th reinforcement inside a window adds ``amount · damping^k`` (0.02, 0.01, 0.005…);
- **evidence-first**: a trait with no supporting evidence is never reinforced by recall, so
  evidence-free traits cannot climb over memories that carry evidence;
- **clock-neutral**: it never moves ``trait_last_reinforced``: the decay clock belongs to
  evidence (moving it on recall brought decayed traits back above the recall floor).

The state lives in the trait's ``metadata["recall_reinforcement"]``; this module is pure.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Any

STATE_KEY = "recall_reinforcement"
_MAX_QUERIES = 64  # query keys remembered per window


@dataclass(frozen=True, slots=True)
class ReinforcementPolicy:
    amount: float  # seed 001 §8.2 step
    cap: float  # lifetime total from recall
    damping: float  # factor per earlier reinforcement in the window
    window_s: float  # the same query counts once per window


def query_key(query: str) -> str:
    """A short digest of the normalised query text (case and spacing do not make a new query)."""
    normal = " ".join(query.casefold().split())
    return hashlib.blake2b(normal.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def step(
    state: Any, key: str, now: dt.datetime, policy: ReinforcementPolicy, *, has_evidence: bool
) -> tuple[float, dict[str, Any] | None]:
    """``(delta, new_state)`` for one recall of a trait by the query ``key``; ``(0.0, None)`` when
    nothing changes. ``state`` is the trait's stored ``metadata["recall_reinforcement"]`` (or None)."""
    if not has_evidence or policy.amount <= 0:
        return 0.0, None
    st = state if isinstance(state, dict) else {}
    total = _float(st.get("total"))
    start = _when(st.get("window_start"))
    if start is None or (now - start).total_seconds() >= policy.window_s or now < start:
        start, count, queries = now, 0, []
    else:
        count = int(_float(st.get("count")))
        queries = [q for q in st.get("queries", []) if isinstance(q, str)]
    if key in queries:
        return 0.0, None
    delta = min(policy.amount * policy.damping**count, max(0.0, policy.cap - total))
    if delta <= 1e-9:
        return 0.0, None
    new_state = {
        "total": round(total + delta, 9),
        "window_start": start.isoformat(),
        "count": count + 1,
        "queries": [*queries, key][-_MAX_QUERIES:],
    }
    return delta, new_state


def _float(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _when(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        stamp = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)
