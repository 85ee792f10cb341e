import pytest

from neuromem.text.language import detect_language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我昨天去了北京", "zh"),
        ("I went to Beijing yesterday", "en"),
        ("我在用 PostgreSQL 和 pgvector 做向量检索", "zh"),
        ("Use the 北京 office for the meeting with the whole engineering team", "en"),
        ("", "other"),
        ("12345 !!! ...", "other"),
        ("Привет, как дела?", "other"),
        ("ＡＢＣ abc def", "en"),
    ],
)
def test_detect_language(text: str, expected: str) -> None:
    assert detect_language(text) == expected
