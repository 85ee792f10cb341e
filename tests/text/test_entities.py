import pytest

from neuromem.text.entities import Entity, extract_entities, normalize_entity_name


def _by_name(text: str) -> dict[str, str]:
    return {e.name: e.type for e in extract_entities(text)}


def test_chinese_entities_with_types() -> None:
    found = _by_name("张伟上周在北京的阿里巴巴公司见了李娜。")
    assert found["张伟"] == "person"
    assert found["李娜"] == "person"
    assert found["北京"] == "place"
    assert found["阿里巴巴公司"] == "organization"


def test_english_entities_with_types() -> None:
    found = _by_name("Yesterday I met Alice Smith at Stanford University in New York.")
    assert found == {"Alice Smith": "person", "Stanford University": "organization", "New York": "place"}


def test_a_questions_auxiliary_and_i_are_not_a_name() -> None:
    assert _by_name("Do I take sertraline?") == {}
    assert _by_name("Did I book the Padstow cottage?") == {"Padstow": "other"}


def test_a_possessive_is_not_part_of_the_name() -> None:
    assert _by_name("Who is Mark's girlfriend?") == {"Mark": "other"}
    assert _by_name("Where does Oscar's Cub pack meet?") == {
        "Oscar": "other",
        "Cub": "other",
    }  # whose, then what
    assert _by_name("I met Dr. Lee’s nurse") == {"Dr. Lee": "person"}


def test_sentence_initial_capital_is_not_an_entity() -> None:
    assert extract_entities("Coffee is great. Tea is fine too.") == []


def test_honorific_makes_person() -> None:
    assert _by_name("I saw Dr. Brown today") == {"Dr. Brown": "person"}


def test_spans_point_at_names() -> None:
    text = "我和王小明在 Google 工作, then met Bob Jones"
    entities = extract_entities(text)
    assert entities
    for e in entities:
        assert isinstance(e, Entity)
        assert text[e.span[0] : e.span[1]] == e.name
    assert [e.span for e in entities] == sorted(e.span for e in entities)


def test_no_entities_in_plain_text() -> None:
    assert extract_entities("我喜欢喝咖啡 and I like tea") == []


@pytest.mark.parametrize(
    ("raw", "normal"),
    [("  ＯｐｅｎＡＩ  Inc ", "openai inc"), ("New\tYork", "new york"), ("北京", "北京"), ("ALICE", "alice")],
)
def test_normalize_entity_name(raw: str, normal: str) -> None:
    assert normalize_entity_name(raw) == normal


def test_people_called_by_their_surname_are_people() -> None:
    # 老欧, 小陈: jieba drops or splits them; a manager or a colleague is often named so
    assert [(e.name, e.type) for e in extract_entities("市场总监是老欧。")] == [("老欧", "person")]
    assert ("小李", "person") in [(e.name, e.type) for e in extract_entities("我和小李去吃饭了")]
    assert ("老王", "person") in [
        (e.name, e.type) for e in extract_entities("老王上个月退休了，不开出租了。")
    ]
    for text in (
        "我一个小时后到。",
        "老师说明天考试。",
        "小时候我住在小区里。",
    ):  # an hour, a teacher, a compound
        assert not extract_entities(text), text
