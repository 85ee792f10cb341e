"""Who holds a role (``text.holders``): the people a statement names, and a newer statement that tells another
person now holds the role an older one gives the holder of (issue 21 item 1, a person-valued slot)."""

from __future__ import annotations

import pytest

from neuromem.text.holders import asks_who, holders, new_holder


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("我们楼的管家是小郑。", {"小郑"}),
        ("我女儿的舞蹈老师是杨老师。", {"杨老师"}),
        ("老周退休了，这学期换了个年轻司机，大家都叫他小严。", {"老周", "小严"}),
        ("Wilf plays top board for the chess club.", {"Wilf"}),
        ("Wilf's been bumped off top board by a twelve-year-old called Ottilie.", {"Wilf", "Ottilie"}),
        ("She's off on long-term sick, Mr Oduya's taking the class.", {"Mr Oduya"}),
        ("Alun's retired; his niece Carys has taken the van on.", {"Alun", "Carys"}),
        ("The café by the station has switched its coffee to Origin beans.", set()),  # a brand, no person
        ("I play Saturdays with Lucinda from the club now.", {"Lucinda"}),  # a day is no one
    ],
)
def test_holders_are_the_people_a_statement_names(text: str, names: set[str]) -> None:
    assert holders(text) == names


@pytest.mark.parametrize(
    ("old", "new", "changed"),
    [
        # the role changed hands: a change word, a handover, or what became of the older holder
        ("我们楼的管家是小郑。", "楼栋管家换人了，新来的叫小冉，今天挨家挨户发了联系卡。", True),
        ("孩子学校的校车司机是老周。", "老周退休了，这学期换了个年轻司机，大家都叫他小严。", True),
        (
            "Wilf plays top board for the chess club.",
            "Wilf's been bumped off top board by a twelve-year-old called Ottilie.",
            True,
        ),
        (
            "The vicar at St Mary's is Reverend Howe.",
            "Reverend Adeyemi was licensed as vicar of St Mary's on Sunday.",
            True,
        ),
        (
            "The fish van is run by an old boy called Alun.",
            "Alun's retired; his niece Carys has taken the van on.",
            True,
        ),
        # another role of one owner, another owner's role, another kind of one role: no change of holder
        ("丽娜的老公是马瑞。", "丽娜的老板现在是葛蕾。", False),
        ("Lena's husband is Marek.", "Lena's boss is now Greta.", False),
        ("儿子班的语文老师是唐老师。", "儿子班的数学老师换成了邱老师。", False),
        ("Milo's class teacher is Mrs Fenwick.", "Ava's class teacher is now Mr Ross.", False),
        ("My dentist is Dr. Alvarez.", "My kids' dentist is now Dr. Moreau.", False),  # the kids' own
        (
            "My Saturday tennis partner is Graham.",
            "I play Saturdays with Lucinda from the club now, my old partner's Achilles will take months to heal.",
            True,
        ),
        # what both name is whose the roles are, not a role: two roles of one surgery
        (
            "The surgery's practice manager is Lorraine.",
            "The surgery's new senior partner is Dr Iqbal.",
            False,
        ),
        # a thing named first is no holder: "Instagram is owned by …" names no one who acts
        ("Instagram is owned by Meta.", "Instagram is owned by Meta Platforms.", False),
        # the same holder told again, no one new
        (
            "Wren's key worker at nursery is Miss Tamsin.",
            "Miss Tamsin is the one who looks after Wren at nursery.",
            False,
        ),
        # a new name but no word that the role changed hands
        ("Our book club is run by Mrs Patel.", "Mrs Okafor joined our book club last week.", False),
    ],
)
def test_a_new_holder_needs_a_new_person_the_role_and_a_word_of_change(
    old: str, new: str, changed: bool
) -> None:
    assert new_holder(new, old) is changed


@pytest.mark.parametrize(
    ("query", "who"),
    [
        ("Who plays top board for the chess club?", True),
        ("Who's leading the office league?", True),
        ("我们单元现在谁当楼长？", True),
        ("What is our pub quiz team called?", False),
        ("我的年假休到哪天？", False),
    ],
)
def test_asks_who(query: str, who: bool) -> None:
    assert asks_who(query) is who
