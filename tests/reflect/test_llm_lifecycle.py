"""The trait life cycle through the LLM detector, replayed over weeks (seed 001 §3–§4.5, issue 5 §4).

The fake OpenAI server answers every ``reflect_*`` prompt through ``Brain``,
which reads the labelled memories from the rendered prompt.
"""

from __future__ import annotations

import json

from neuromem import Memory
from neuromem.store import traits as trait_store
from neuromem.store import usage

from .helpers import by_content, day, say
from .llm_brain import Brain, Theme

RUN = Theme("Goes running regularly", match=("run",), keywords=("running", "exercise"))
SWIM = Theme("Swims laps regularly", match=("swim", "Swam"), keywords=("swimming", "exercise"))


def test_english_weeks_behaviours_rise_and_make_a_preference(llm_memory: Memory, fake_openai) -> None:  # type: ignore[no-untyped-def]
    brain = Brain([RUN, SWIM], abstract_text="Prefers staying active with regular exercise")
    fake_openai.default_chat = brain
    m, u = llm_memory, "emma"
    # week 1: three sessions each, personal context
    for i, (r, s) in enumerate(
        [
            ("Went for a run along the river", "Swam twenty laps at the pool"),
            ("A short run in the park before dinner", "Evening swim, the pool was quiet"),
            ("Rainy run but I enjoyed it", "Tried a new swim technique today"),
        ]
    ):
        say(m, u, day(2 * i), [r, s], session=f"w1-{i}", metadata={"context": "personal"})
    report = m.reflect(user_id=u, now=day(4.5))
    assert report.created == 2 and report.detector == "llm"
    [run] = by_content(m, u, RUN.content)
    assert (run.trait_subtype, run.trait_stage, run.trait_confidence) == ("behavior", "emerging", 0.4)
    assert run.metadata["keywords"] == ["running", "exercise"] and run.metadata["detector"] == "llm"
    # week 2: explicit self-statements → grade B → 0.52 (still emerging)
    say(
        m,
        u,
        day(8),
        ["I always run before breakfast, it clears my head", "I always swim on Sundays"],
        session="w2",
        metadata={"context": "personal"},
    )
    m.reflect(user_id=u, now=day(8.5))
    run = m.get(run.id, user_id=u)
    assert run.trait_stage == "emerging" and 0.5 < run.trait_confidence < 0.53
    # both behaviours passed 0.5 and share the theme "exercise" → a preference above them
    groups = m.traits(user_id=u, now=day(8.5))
    [pref] = groups.preferences
    assert pref.content == "Prefers staying active with regular exercise"
    detail = m.trait(pref.id, user_id=u, now=day(8.5))
    assert {c.content for c in detail.children} == {RUN.content, SWIM.content}
    assert len(detail.supporting) == 8  # inherited from both children (seed 001 §4.3)
    # week 3: running at work with colleagues → a second context, grade A → established
    say(
        m,
        u,
        day(15),
        ["Went for a run with colleagues after the team meeting"],
        session="w3",
        metadata={"context": "work"},
    )
    m.reflect(user_id=u, now=day(15.5))
    run = m.get(run.id, user_id=u)
    assert run.trait_stage == "established", run.trait_confidence
    detail = m.trait(run.id, user_id=u, now=day(15.5))
    assert [e.quality for e in detail.supporting][-2:] == ["B", "A"]
    assert [p.id for p in detail.parents] == [pref.id]
    assert m.get(pref.id, user_id=u).trait_reinforcement_count == 2  # reinforcement propagated upwards
    # every call accounted per user and operation; the prompts carried the cycle's clock
    with m.runtime.db.connection() as conn:
        ops = {r["operation"]: r["calls"] for r in usage.usage_totals(conn, u)}
        cycles = trait_store.cycles(conn, u)
    assert ops["reflect_propose_traits"] == 1 and ops["reflect_link_evidence"] == 2
    assert ops["reflect_abstract_trait"] == 1
    assert all(c["details"]["detector_log"]["detector"] == "llm" for c in cycles)
    assert "fallback" not in cycles[0]["details"]["detector_log"]
    first = json.dumps(fake_openai.requests_to("chat/completions")[0], ensure_ascii=False)
    assert day(4.5).isoformat(timespec="minutes") in first


ZH_COFFEE = Theme("每天早上都要喝一杯咖啡", match=("咖啡",), keywords=("咖啡",))
ZH_PLAN = Theme(
    "做事前会先做详细计划",
    match=("计划",),
    keywords=("计划",),
    context="work",
    against=("说走就走",),
    split={
        "work": {"tendency": "工作中做事前先做详细计划", "confidence": 0.7},
        "personal": {"tendency": "生活中随性，说走就走", "confidence": 0.6},
    },
)


def test_chinese_weeks_behaviour_rises_and_a_contradiction_splits_by_context(
    llm_memory: Memory, fake_openai
) -> None:  # type: ignore[no-untyped-def]
    brain = Brain([ZH_COFFEE, ZH_PLAN])
    fake_openai.default_chat = brain
    m, u = llm_memory, "小王"
    week1 = [
        ("早上在楼下买了一杯咖啡", "开会前把项目计划写得很详细"),
        ("今天早上的咖啡特别香", "给新需求先列了计划再动手"),
        ("起床第一件事就是冲咖啡", "周报里把下周计划排好了"),
    ]
    for i, (coffee, plan) in enumerate(week1):
        say(m, u, day(i), [coffee], session=f"s{i}", metadata={"context": "personal"})
        say(m, u, day(i), [plan], session=f"s{i}", metadata={"context": "work"})
    m.reflect(user_id=u, now=day(3))
    [coffee] = by_content(m, u, "咖啡")
    [plan] = by_content(m, u, "计划")
    assert coffee.trait_stage == "emerging" and coffee.language.startswith("zh")
    assert plan.trait_context == "work"
    # week 2: a self-statement (B), week 3: coffee at the office too (A) → established
    say(m, u, day(9), ["我总是靠咖啡开始一天"], session="s9", metadata={"context": "personal"})
    m.reflect(user_id=u, now=day(9.5))
    assert m.get(coffee.id, user_id=u).trait_stage == "emerging"
    say(m, u, day(16), ["在公司和同事一起喝咖啡聊方案"], session="s16", metadata={"context": "work"})
    m.reflect(user_id=u, now=day(16.5))
    assert m.get(coffee.id, user_id=u).trait_stage == "established"
    # weeks 3–4: at home the opposite → contradiction ratio > 0.3 → the LLM splits the trait by context
    for i, text in enumerate(
        ["周末出门旅行，说走就走", "假期临时起意，说走就走去了海边", "和家人出去玩也是说走就走"]
    ):
        say(m, u, day(17 + i), [text], session=f"h{i}", metadata={"context": "personal"})
    m.reflect(user_id=u, now=day(20))
    plan = m.get(plan.id, user_id=u)
    assert plan.trait_context == "contextual", plan
    assert plan.metadata["contexts"]["work"] == {"tendency": "工作中做事前先做详细计划", "confidence": 0.7}
    assert plan.metadata["contexts"]["personal"]["tendency"] == "生活中随性，说走就走"
    assert plan.metadata["last_judgement"]["action"] == "split" and plan.trait_confidence == 0.6
    assert plan.trait_contradiction_count == 3 and brain.calls["judge"] == 1
    history = [h.event for h in m.trait(plan.id, user_id=u).history]
    assert history.count("ADD") == 1 and len(history) >= 3  # the old wording stays in history
