"""``memctl demo`` (issue 22 items 7 and 10): it says that it erases ``demo-user``, and shows a
trait forming from dated evidence, with its evidence chain."""

from __future__ import annotations

import re

from neuromem import Memory


def test_the_demo_says_what_it_erases_and_shows_a_trait_with_its_dated_evidence(
    memctl, memory: Memory
) -> None:  # type: ignore[no-untyped-def]
    memory.add("someone else's memory", user_id="not-the-demo")
    first = memctl("demo")
    assert first.exit_code == 0, first.output
    assert "erases what is stored for 'demo-user'" in first.output
    assert "left by an earlier run" not in first.output  # nothing to erase the first time
    chain = first.output.split("evidence chain:")[1].split("(memctl trait")[0]
    dated = re.findall(r"^\s+(2024-03-\d\d) grade [A-D]\s+(.+)$", chain, flags=re.M)
    assert len(dated) >= 2 and any("run" in words for _, words in dated), chain
    assert re.search(r"1 trait|\d+ traits", first.output)
    again = memctl("demo")
    assert again.exit_code == 0
    assert re.search(r"erased \d+ rows of 'demo-user' left by an earlier run", again.output)
    assert [m.content for m in memory.get_all(user_id="not-the-demo")] == ["someone else's memory"]
