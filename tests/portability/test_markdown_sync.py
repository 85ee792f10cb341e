"""memory.md / learnings.md two-way sync: round trips in English and Chinese, three-way conflicts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from neuromem import Memory
from neuromem.errors import MarkdownSyncError
from tests.reflect.helpers import day, say

U = "alice"


def anchor_of(text: str, needle: str) -> str:
    [line] = [line for line in text.splitlines() if needle in line and line.startswith("- ")]
    return re.search(r"nm:([0-9a-f-]{36})", line).group(1)  # type: ignore[union-attr]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, text)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def contents(memory: Memory) -> set[str]:
    return {m.content for m in memory.get_all(user_id=U)}


def test_english_round_trip_add_edit_delete_with_history_actor_file(memory: Memory, tmp_path: Path) -> None:
    [vim] = memory.add("My favourite editor is vim", user_id=U, category="preference")
    memory.add("I work at Acme in Berlin", user_id=U)
    memory.add("My sister is called Anna", user_id=U)
    memory.record_procedure(
        "Release the app",
        ["run the tests", "tag the commit", "push the tag"],
        preconditions=["main is green"],
        outcome="a new version on PyPI",
        user_id=U,
    )
    first = memory.sync_markdown(tmp_path, user_id=U)
    assert first.changes == 0 and first.conflicts == 0
    page = (tmp_path / "memory.md").read_text(encoding="utf-8")
    assert "## Preferences" in page and "## Known facts" in page
    assert page.index("My favourite editor is vim") < page.index("## Known facts") < page.index("Anna")
    learnings = (tmp_path / "learnings.md").read_text(encoding="utf-8")
    assert (
        "Release the app: run the tests → tag the commit → push the tag (when: main is green; "
        "outcome: a new version on PyPI)" in learnings
    )
    # the person edits a line, removes one and adds two
    edit(tmp_path / "memory.md", "My favourite editor is vim", "My favourite editor is helix")
    edit(tmp_path / "memory.md", "- My sister is called Anna", "- I drink green tea every morning\n- ")
    page = (tmp_path / "memory.md").read_text(encoding="utf-8")
    page = re.sub(r"\n- <!-- nm:[0-9a-f-]+ -->", "", page)  # the removed line's anchor goes with it
    (tmp_path / "memory.md").write_text(
        page.replace("## Preferences\n", "## Preferences\n- I prefer aisle seats\n"), encoding="utf-8"
    )
    edit(tmp_path / "learnings.md", "push the tag", "push the tag → announce it")
    report = memory.sync_markdown(tmp_path, user_id=U)
    assert (report.added, report.updated, report.deleted, report.conflicts) == (2, 2, 1, 0)
    assert contents(memory) >= {
        "My favourite editor is helix",
        "I drink green tea every morning",
        "I prefer aisle seats",
        "I work at Acme in Berlin",
    }
    assert "My sister is called Anna" not in contents(memory)
    history = memory.history(vim.memory.id, user_id=U)
    assert [(h.event.value, h.actor) for h in history][-1] == ("UPDATE", "file")
    [aisle] = [m for m in memory.get_all(user_id=U) if m.content == "I prefer aisle seats"]
    assert aisle.category == "preference"
    [release] = [m for m in memory.get_all(user_id=U) if m.category == "procedure"]
    assert release.metadata["procedure"]["steps"][-1] == "announce it"
    # the anchors are stable across the update, and a second sync changes nothing
    page = (tmp_path / "memory.md").read_text(encoding="utf-8")
    assert anchor_of(page, "helix") == str(vim.memory.id)
    assert "I prefer aisle seats" in page.split("## Known facts")[0]
    again = memory.sync_markdown(tmp_path, user_id=U)
    assert again.changes == 0 and (tmp_path / "memory.md").read_text(encoding="utf-8") == page


def test_chinese_round_trip_and_traits_with_stage_and_confidence(memory: Memory, tmp_path: Path) -> None:
    memory.add("我喜欢喝乌龙茶", user_id=U, category="preference")
    memory.add("我在杭州的一家创业公司工作", user_id=U)
    say(memory, U, day(0), ["I went jogging in the park this morning"], session="s1")
    say(memory, U, day(1), ["Another jogging session along the river today"], session="s2")
    say(memory, U, day(2), ["jogging again before breakfast, felt great"], session="s3")
    memory.reflect(user_id=U, now=day(2.5))
    memory.sync_markdown(tmp_path, user_id=U, language="zh")
    page = (tmp_path / "memory.md").read_text(encoding="utf-8")
    assert "## 偏好" in page and "## 已知事实" in page and "## 行为模式" in page
    assert re.search(r"jogging.* _\(behavior · emerging · 置信度 0\.40\)_ <!-- nm:", page), page
    edit(tmp_path / "memory.md", "我喜欢喝乌龙茶", "我更喜欢喝龙井茶")
    page = (tmp_path / "memory.md").read_text(encoding="utf-8")
    (tmp_path / "memory.md").write_text(
        page.replace("## 已知事实\n", "## 已知事实\n- 我的猫叫小白\n"), encoding="utf-8"
    )
    report = memory.sync_markdown(tmp_path, user_id=U, language="zh")
    assert (report.added, report.updated, report.deleted) == (1, 1, 0)
    assert {"我更喜欢喝龙井茶", "我的猫叫小白", "我在杭州的一家创业公司工作"} <= contents(memory)
    assert "我喜欢喝乌龙茶" not in contents(memory)
    # the file written in Chinese reads back the same when the headings are English
    memory.sync_markdown(tmp_path, user_id=U, language="en")
    assert "## Known facts" in (tmp_path / "memory.md").read_text(encoding="utf-8")
    assert memory.sync_markdown(tmp_path, user_id=U, language="en").changes == 0


def test_conflicts_keep_both_versions_until_the_person_chooses(memory: Memory, tmp_path: Path) -> None:
    [home] = memory.add("I live in Munich", user_id=U)
    [job] = memory.add("I work as a nurse", user_id=U)
    [pet] = memory.add("I have a dog named Rex", user_id=U)
    memory.sync_markdown(tmp_path, user_id=U)
    path = tmp_path / "memory.md"
    # both sides change the same memories since the last sync
    edit(path, "I live in Munich", "I live in Hamburg")
    memory.update(home.memory.id, user_id=U, content="I live in Cologne")
    page = path.read_text(encoding="utf-8")
    path.write_text(
        "\n".join(line for line in page.splitlines() if "nurse" not in line) + "\n", encoding="utf-8"
    )
    memory.update(job.memory.id, user_id=U, content="I work as a head nurse")
    edit(path, "I have a dog named Rex", "I have a dog named Rex and a cat")
    memory.delete(pet.memory.id, user_id=U)
    report = memory.sync_markdown(tmp_path, user_id=U)
    assert report.conflicts == 3 and report.changes == 0
    page = path.read_text(encoding="utf-8")
    for version in (
        "I live in Hamburg",
        "I live in Cologne",
        "I work as a head nurse",
        "a dog named Rex and a cat",
    ):
        assert version in page
    assert page.count("<!-- conflict nm:") == 3
    assert {"I live in Cologne", "I work as a head nurse"} <= contents(memory)  # the database kept its own
    # unresolved, a conflict stays as it is
    assert memory.sync_markdown(tmp_path, user_id=U).conflicts == 3
    # the person keeps the file's city, confirms the delete of the job, keeps the pet line
    kept: list[str] = []
    skip = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("<!-- conflict") or line.startswith("<!-- end conflict"):
            continue
        if "Cologne" in line or "head nurse" in line:
            continue
        kept.append(line)
    assert not skip
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    report = memory.sync_markdown(tmp_path, user_id=U)
    assert (report.added, report.updated, report.deleted, report.conflicts) == (1, 1, 1, 0)
    assert contents(memory) == {"I live in Hamburg", "I have a dog named Rex and a cat"}


def test_bad_lines_and_another_users_directory_are_refused(memory: Memory, tmp_path: Path) -> None:
    memory.add("I like chess", user_id=U)
    memory.sync_markdown(tmp_path, user_id=U)
    path = tmp_path / "memory.md"
    page = path.read_text(encoding="utf-8")
    path.write_text(
        page.replace("## Known facts\n", "## Known facts\n- " + "x" * 20_001 + "\n- I like go\n"),
        encoding="utf-8",
    )
    with pytest.raises(MarkdownSyncError, match="nothing was changed"):
        memory.sync_markdown(tmp_path, user_id=U)
    assert contents(memory) == {"I like chess"}
    with pytest.raises(MarkdownSyncError, match="memory of 'alice'"):
        memory.sync_markdown(tmp_path, user_id="bob")
    path.write_text(page + "<!-- conflict nm:00000000-0000-0000-0000-000000000000: x -->\n", encoding="utf-8")
    with pytest.raises(MarkdownSyncError, match="not closed"):
        memory.sync_markdown(tmp_path, user_id=U)


def test_memctl_sync(memctl, memory: Memory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    memory.add("I like chess", user_id=U)
    out = memctl("sync", str(tmp_path), "-u", U)
    assert out.exit_code == 0 and "0 added" in out.output
    edit(tmp_path / "memory.md", "I like chess", "I like chess and go")
    out = memctl("sync", str(tmp_path), "-u", U, "--language", "zh")
    assert out.exit_code == 0 and "1 updated" in out.output
    assert contents(memory) == {"I like chess and go"}
