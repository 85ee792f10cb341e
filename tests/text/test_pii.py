import pytest
from hypothesis import given
from hypothesis import strategies as st

from neuromem.errors import ConfigError, InvalidInputError, PIIRejectedError
from neuromem.text.pii import apply_pii_policy, find_pii, is_valid_cn_id, luhn_valid, redact


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("mail alice.smith+x@example.co.uk now", "mail [EMAIL] now"),
        ("手机 13812345678。", "手机 [PHONE]。"),
        ("手机 138-1234-5678", "手机 [PHONE]"),
        ("+86 138 1234 5678", "[PHONE]"),
        ("座机 010-12345678", "座机 [PHONE]"),
        ("call (415) 555-2671", "call [PHONE]"),
        ("call 415-555-2671", "call [PHONE]"),
        ("London +44 20 7946 0958", "London [PHONE]"),
        ("身份证11010519491231002X", "身份证[ID_CARD]"),
        ("card 4111 1111 1111 1111.", "card [BANK_CARD]."),
        ("卡号6225880137706587", "卡号[BANK_CARD]"),
        ("我住在北京市朝阳区建国路88号3栋2单元501室", "我住在[ADDRESS]"),
        ("寄到上海市浦东新区世纪大道100号", "寄到[ADDRESS]"),
        ("家在阳光花园3栋1201室", "家在[ADDRESS]"),
        ("I live at 221B Baker Street, London", "I live at [ADDRESS], London"),
        ("1600 Pennsylvania Ave NW, Apt 5", "[ADDRESS]"),
    ],
)
def test_redact(text: str, redacted: str) -> None:
    assert redact(text).text == redacted


@pytest.mark.parametrize(
    "text",
    [
        "In 2023 I paid 1999.99 yuan",
        "on 2023-05-05 12:30:00",
        "timestamp 1700000000000",
        "order 20230505123456",
        "价格 12345678 元",
        "身份证号 110105194912310021 校验位错误",
        "4111111111111112 fails Luhn",
        "version 1.2.3.4",
        "Meeting at 3 pm with 15 people",
        "I have 2 Main concerns",
        "population 1,412,000,000",
        "05/05/2023",
        "2024年3月13日 15:00",
        "ratio 3.1415926535",
    ],
)
def test_no_false_positives(text: str) -> None:
    assert find_pii(text) == []


def test_matches_carry_offsets_and_values() -> None:
    text = "邮箱 a@b.io 电话 13912345678"
    matches = find_pii(text)
    assert [m.kind for m in matches] == ["email", "phone"]
    for m in matches:
        assert text[m.start : m.end] == m.value


def test_id_card_checksum() -> None:
    assert is_valid_cn_id("11010519491231002X")
    assert is_valid_cn_id("11010519491231002x")
    assert not is_valid_cn_id("110105194912310021")


def test_luhn() -> None:
    assert luhn_valid("4111111111111111")
    assert not luhn_valid("4111111111111112")


def test_policy_keep_and_redact() -> None:
    text = "me@example.com"
    assert apply_pii_policy(text, "keep").text == text
    assert apply_pii_policy(text, "keep").kinds == {"email"}
    assert apply_pii_policy(text, "redact").text == "[EMAIL]"


def test_policy_reject_names_kinds_not_values() -> None:
    with pytest.raises(PIIRejectedError) as info:
        apply_pii_policy("me@example.com, 13812345678", "reject")
    message = str(info.value)
    assert "email" in message and "phone" in message
    assert "me@example.com" not in message and "13812345678" not in message
    assert isinstance(info.value, InvalidInputError)


def test_policy_reject_passes_clean_text() -> None:
    assert apply_pii_policy("no personal data here", "reject").text == "no personal data here"


def test_unknown_mode() -> None:
    with pytest.raises(ConfigError):
        apply_pii_policy("x", "shred")  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=10**10 - 1))
def test_short_numbers_never_pii(number: int) -> None:
    assert find_pii(f"total {number} items") == []


@given(st.dates())
def test_dates_never_pii(day: object) -> None:
    assert find_pii(f"on {day} and {day:%Y%m%d}") == []  # type: ignore[str-format]


@given(st.text(max_size=80))
def test_redaction_removes_every_match(text: str) -> None:
    result = redact(text)
    for m in result.matches:
        assert text[m.start : m.end] == m.value
    assert len(result.text) <= len(text) + 12 * len(result.matches)


def test_passwords_and_keys_are_found_and_only_secrets_are_redacted_by_mark() -> None:
    """Issue 21 item 5: ``mark`` keeps the user's words but for card numbers, national ids and keys."""
    from neuromem.text.pii import apply_pii_policy, find_pii, mask, privacy_spans

    text = "Our wifi password is sunflower42, card 4111 1111 1111 1111, key sk-abcdefghijklmnopqrstuvwx1234."
    assert [m.kind for m in find_pii(text)] == ["password", "bank_card", "secret"]
    marked = apply_pii_policy(text, "mark").text
    assert "sunflower42" in marked and "[BANK_CARD]" in marked and "[SECRET]" in marked
    assert [s["kind"] for s in privacy_spans(marked)] == ["password"]
    assert "sunflower42" not in mask(text)
    # seen as false positives on LongMemEval user turns (bench.user_turns)
    assert find_pii("The password is also issued by the company.") == []
    assert find_pii("sent at 12:42 PM\nDr. Kachwano, we've been helping") == []
