import pytest

from neuromem.text.sensitive import SENSITIVE_CATEGORIES, sensitive_categories


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I was diagnosed with depression last year", {"health"}),
        ("My therapist changed my medication", {"health"}),
        ("我最近失眠，在吃抗抑郁的药", {"health"}),
        ("他确诊了糖尿病", {"health"}),
        ("I voted Republican in the election", {"politics"}),
        ("我是共产党员，关心政治", {"politics"}),
        ("We go to church every Sunday to pray", {"religion"}),
        ("她每天祷告，周末去教堂", {"religion"}),
        ("He visits the mosque during Ramadan", {"religion"}),
        ("我信佛教，初一十五去寺庙烧香", {"religion"}),
        ("After surgery I prayed at the temple", {"health", "religion"}),
        ("I like coffee and hiking", set()),
        ("我喜欢喝咖啡和爬山", set()),
        ("上礼拜去了趟杭州", set()),
        ("the godfather is a great film; massive fun", set()),
    ],
)
def test_sensitive_categories(text: str, expected: set[str]) -> None:
    assert sensitive_categories(text) == expected


def test_categories_are_the_seed_ones() -> None:
    assert {"health", "politics", "religion"} == SENSITIVE_CATEGORIES
