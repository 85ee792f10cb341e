"""A thing that takes a new name changes the value of its name (``text.renames``, issue 21 item 1)."""

from __future__ import annotations

import pytest

from neuromem.text.renames import renamed
from neuromem.text.value_changes import value_change

BAKERY = "The bakery on Church Street is called Crumbs."
HOTPOT = "我们常去的那家火锅店叫老码头。"


@pytest.mark.parametrize(
    ("new", "old", "was", "now"),
    [
        (
            "Crumbs changed hands in the spring — the new owners have renamed it Proper Loaf, same sourdough though.",
            BAKERY,
            "Crumbs",
            "Proper Loaf",
        ),
        ("They renamed Crumbs to Proper Loaf.", BAKERY, "Crumbs", "Proper Loaf"),
        ("Crumbs has been renamed Proper Loaf.", BAKERY, "Crumbs", "Proper Loaf"),
        ("Crumbs was rebranded as Proper Loaf.", BAKERY, "Crumbs", "Proper Loaf"),
        ("Crumbs changed its name to Proper Loaf.", BAKERY, "Crumbs", "Proper Loaf"),
        ("The bakery on Church Street is now called Proper Loaf.", BAKERY, "Crumbs", "Proper Loaf"),
        (
            "The Falcons changed their name to Orbit.",
            "Our five-a-side team is named the Falcons.",
            "the Falcons",
            "Orbit",
        ),
        ("老码头改名叫蜀大侠了。", HOTPOT, "老码头", "蜀大侠"),
        ("那家火锅店现在叫蜀大侠。", HOTPOT, "老码头", "蜀大侠"),
        ("老码头更名为蜀大侠，味道没变。", HOTPOT, "老码头", "蜀大侠"),
    ],
)
def test_a_new_name_for_the_thing_the_older_statement_names_is_a_change(
    new: str, old: str, was: str, now: str
) -> None:
    found = renamed(new, old)
    assert found is not None and (found.old_value, found.new_value) == (was, now)
    assert found.arity == "single" and found.reason == "renamed"
    change = value_change(new, old)
    assert change is not None and now.casefold() in change.new_value.casefold(), change


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Our new puppy is called Biscuit.", BAKERY),  # another thing's name
        ("The café renamed its sandwich The Biscuit.", BAKERY),  # renames something the older does not name
        ("The bakery on Church Street is called Crumbs, it's lovely.", BAKERY),  # the same name
        ("They renamed the spare room the Snug.", "My cat is called Pepper."),
        ("我家狗叫旺财。", HOTPOT),
        ("公司楼下的奶茶店改名叫茶百道了。", HOTPOT),
    ],
)
def test_a_name_for_another_thing_or_the_same_name_is_no_rename(new: str, old: str) -> None:
    assert renamed(new, old) is None
