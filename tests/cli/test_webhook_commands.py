"""``memctl webhooks add|list|remove`` and ``memctl events`` (issue 26 item 5)."""

from __future__ import annotations

from neuromem import Memory


def test_webhooks_and_events_commands(memctl, memory: Memory) -> None:  # type: ignore[no-untyped-def]
    added = memctl("webhooks", "add", "http://127.0.0.1:9/hook", "--events", "memory.added,trait.formed")
    assert added.exit_code == 0, added.output
    assert "secret: whsec_" in added.output and "memory.added, trait.formed" in added.output
    hook_id = added.output.split()[1]
    listed = memctl("webhooks", "list")
    assert hook_id in listed.output and "memory.added,trait.formed" in listed.output
    bad = memctl("webhooks", "add", "http://127.0.0.1:9/hook", "--events", "memory.exploded")
    assert bad.exit_code == 2 and "unknown event kinds" in bad.output
    assert memctl("webhooks", "remove", hook_id).exit_code == 0
    assert memctl("webhooks", "list").output.strip() == "no webhooks"
    assert memctl("webhooks", "remove", hook_id).exit_code == 2

    memory.add("Tomas repairs clocks", user_id="cli-ev")
    shown = memctl("events", "-u", "cli-ev")
    assert shown.exit_code == 0 and "memory.added" in shown.output
    cursor = shown.output.strip().splitlines()[-1].removeprefix("next: ")
    assert memctl("events", "-u", "cli-ev", "--after", cursor).output.strip() == f"next: {cursor}"
