"""Procedural memory: record after success, reinforce by success counts, "Proven skills" for alike tasks."""

from __future__ import annotations

import pytest

from neuromem import Memory
from neuromem.errors import InvalidInputError
from neuromem.procedural.record import Procedure, parse_text
from neuromem.types import Operation

U = "alice"


def test_text_form_round_trips_in_english_and_chinese() -> None:
    english = Procedure(
        "Deploy the API",
        ("run the tests", "build the image", "push it"),
        ("tests are green",),
        "new version live",
    )
    assert (
        english.to_text() == "Deploy the API: run the tests → build the image → push it "
        "(when: tests are green; outcome: new version live)"
    )
    chinese = Procedure("部署接口", ("运行测试", "构建镜像", "推送镜像"), ("测试通过",), "新版本上线")
    assert chinese.to_text() == "部署接口：运行测试 → 构建镜像 → 推送镜像（前提：测试通过；结果：新版本上线）"
    for procedure in (english, chinese):
        assert parse_text(procedure.to_text()) == procedure
    assert parse_text("grind beans -> brew -> pour").steps == ("grind beans", "brew", "pour")


def test_record_reinforce_and_recall_into_proven_skills(memory: Memory) -> None:
    memory.add("I live in Lisbon", user_id=U)
    memory.add("My cat is called Mia", user_id=U)
    first = memory.record_procedure(
        "Release the app",
        ["run the tests", "tag the commit", "push the tag"],
        user_id=U,
        preconditions=["main is green"],
        outcome="a new version on PyPI",
    )
    assert first.operation is Operation.ADD and first.memory.category == "procedure"
    assert first.memory.importance == pytest.approx(0.7)
    again = memory.record_procedure(
        "release the app", ["run the tests", "tag the commit", "push the tag"], user_id=U
    )
    assert again.operation is Operation.UPDATE and again.memory.id == first.memory.id  # same steps: in place
    assert again.memory.metadata["procedure"]["successes"] == 2
    assert again.memory.importance == pytest.approx(0.75)
    changed = memory.record_procedure(
        "Release the app", ["run the tests", "build wheels", "upload with twine"], user_id=U
    )
    assert changed.memory.version == 3 and changed.memory.metadata["procedure"]["successes"] == 3
    assert "upload with twine" in changed.memory.content and "main is green" in changed.memory.content
    block = memory.recall_prompt("How do I release the app to PyPI?", user_id=U)
    assert "Proven skills:" in block.text and "upload with twine" in block.text
    assert block.text.index("Proven skills:") < block.text.index("upload with twine")
    unrelated = memory.recall_prompt("what is my cat called?", user_id=U)
    assert "Proven skills" not in unrelated.text and "twine" not in unrelated.text


def test_chinese_skill_is_recalled_for_an_alike_chinese_task(memory: Memory) -> None:
    memory.record_procedure("部署接口", ["运行测试", "构建镜像", "推送镜像"], user_id=U, outcome="新版本上线")
    memory.add("我喜欢喝乌龙茶", user_id=U, category="preference")
    block = memory.recall_prompt("帮我部署一下接口", user_id=U)
    assert "验证过的技能：" in block.text and "构建镜像" in block.text
    assert "验证过的技能" not in memory.recall_prompt("我喜欢喝什么茶？", user_id=U).text


def test_bad_procedures_are_refused_and_nothing_is_written(memory: Memory) -> None:
    for name, steps, error in (
        ("", ["a"], "name"),
        ("Deploy", [], "at least one step"),
        ("Deploy", "run tests", "list of strings"),
        ("Deploy", ["ok", " "], "non-empty"),
    ):
        with pytest.raises(InvalidInputError, match=error):
            memory.record_procedure(name, steps, user_id=U)  # type: ignore[arg-type]
    assert memory.get_all(user_id=U) == []
