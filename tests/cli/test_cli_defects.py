"""The smaller command-line defects of issue 12 item 11 and the time travel of item 9, each
through memctl over a real database."""

from __future__ import annotations

import re

import click
import pytest

from neuromem import Memory
from neuromem.cli.main import cli
from tests.reflect.helpers import day, say


@pytest.fixture
def run(memctl):  # type: ignore[no-untyped-def]
    return memctl


def test_bad_metadata_is_a_usage_error_and_writes_nothing(run) -> None:  # type: ignore[no-untyped-def]
    for bad, why in (("{not json", "not valid JSON"), ("[1, 2]", "must be a JSON object")):
        result = run("add", "-u", "kim", "Kim likes tea", "--metadata", bad)
        assert result.exit_code == 2, result.output
        assert "--metadata" in result.output and why in result.output and "Traceback" not in result.output
    assert run("list", "-u", "kim").output == "(none)\n"
    ok = run("add", "-u", "kim", "Kim likes tea", "--metadata", '{"source": "crm"}')
    assert ok.exit_code == 0 and ok.output.startswith("ADD:")


def test_list_as_of_is_record_time_and_valid_at_is_event_time(run, memory: Memory) -> None:  # type: ignore[no-untyped-def]
    """Turns dated April 2024 and imported today: not known to the system on 1 May 2024, but
    true then."""
    memory.ingest(
        [
            {
                "role": "user",
                "content": "I moved to Lisbon last week.",
                "timestamp": "2024-04-20T10:00:00+00:00",
            },
            {
                "role": "user",
                "content": "I am allergic to peanuts.",
                "timestamp": "2024-04-21T10:00:00+00:00",
            },
        ],
        user_id="ana",
        session_id="april",
    )
    assert run("list", "-u", "ana", "--as-of", "2024-05-01T00:00:00+00:00").output == "(none)\n"
    then = run("list", "-u", "ana", "--valid-at", "2024-05-01T00:00:00+00:00")
    assert "peanuts" in then.output and "Lisbon" in then.output
    assert run("list", "-u", "ana", "--valid-at", "2024-01-01T00:00:00+00:00").output == "(none)\n"
    bad = run("list", "-u", "ana", "--valid-at", "last tuesday")
    assert bad.exit_code == 2 and "valid_at" in bad.output


def test_status_counts_one_user(run, memory: Memory) -> None:  # type: ignore[no-untyped-def]
    memory.add("Kim sails", user_id="kim")
    memory.add("Lee rows", user_id="lee")
    memory.add("Lee swims", user_id="lee")
    assert "fact 3" in run("status").output
    one = run("status", "-u", "lee")
    assert one.exit_code == 0 and "memories of lee: fact 2" in one.output


def test_search_and_prompt_never_pad_with_zero_scores(run, memory: Memory) -> None:  # type: ignore[no-untyped-def]
    for text in (
        "我不喜欢咖啡",
        "I keep my bike in the garage",
        "My sister works at a bank",
        "The dentist appointment is on Friday",
        "周末我喜欢去西湖边散步",
    ):
        memory.add(text, user_id="lin")
    hits = memory.search("周末去哪玩", user_id="lin", limit=10)
    positive = [h.memory.content for h in hits if h.score.final > 0]
    assert positive == [
        h.memory.content for h in hits
    ]  # search itself returns no hit scored 0 (issue 22 item 6)
    for command in ("search", "recall"):
        printed = run(command, "-u", "lin", "周末去哪玩", "-k", "10").output
        assert "0.0000  " not in printed and "西湖" in printed
        assert re.findall(r"^ *\d+\. [\d.]+  (.*)$", printed, re.M) == positive
    block = memory.recall_prompt("周末去哪玩", user_id="lin", token_budget=400)
    assert "西湖" in block.text and "咖啡" not in block.text


def test_dissolved_traits_are_not_listed_as_current(run, memory: Memory) -> None:  # type: ignore[no-untyped-def]
    for i in range(3):
        say(memory, "bob", day(i), [f"painting watercolour number {i} this morning"], session=f"p{i}")
    memory.reflect(user_id="bob", now=day(3))
    [trait] = [t for t in memory.traits(user_id="bob").all() if "painting" in t.content]
    memory.reflect(user_id="bob", now=day(800))  # decayed far below the floor → dissolved
    assert memory.get(trait.id, user_id="bob").trait_stage == "dissolved"
    assert trait.id not in {r.id for r in memory.get_all(user_id="bob")}
    assert str(trait.id) not in run("list", "-u", "bob").output
    kept = {r.id: r for r in memory.get_all(user_id="bob", include_inactive=True)}
    assert trait.id in kept and not kept[trait.id].is_current


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in group.commands.items():
        found.append((*prefix, name))
        if isinstance(command, click.Group):
            found.extend(_commands(command, (*prefix, name)))
    return found


def test_help_says_what_commands_do_without_internal_references(run) -> None:  # type: ignore[no-untyped-def]
    for path in [(), *_commands(cli)]:
        shown = run(*path, "--help")
        assert shown.exit_code == 0, path
        assert not re.search(r"seed \d|§|issue \d", shown.output), (path, shown.output)
    session = run("session", "--help").output
    assert "groups the turns" in session and "end " in session
    delete = run("delete", "--help").output
    assert "MEMORY_ID" in delete and "history" in delete
