import pytest

from neuromem.text.patterns import has_exact_tokens, pattern_tokens


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("got E1234 again", "error_code", "E1234"),
        ("net::ERR_CONN_RESET in chrome", "error_code", "ERR_CONN_RESET"),
        ("server returned HTTP 404", "error_code", "HTTP 404"),
        ("查询报错 ORA-00942 表不存在", "error_code", "ORA-00942"),
        ("raised ValueError", "error_code", "ValueError"),
        ("register 0x1F set", "hex", "0x1F"),
        ("commit 9aa3993f fixed it", "hex", "9aa3993f"),
        ("id 123e4567-e89b-12d3-a456-426614174000 missing", "uuid", "123e4567-e89b-12d3-a456-426614174000"),
        ("see https://example.com/a?b=1.", "url", "https://example.com/a?b=1"),
        ("文档在 https://docs.python.org/3/，请看", "url", "https://docs.python.org/3/"),
        ("edit /etc/nginx/nginx.conf now", "path", "/etc/nginx/nginx.conf"),
        ("open ~/projects/app", "path", "~/projects/app"),
        (r"open C:\Users\bob\file.txt please", "path", r"C:\Users\bob\file.txt"),
        ("call get_user_by_id here", "identifier", "get_user_by_id"),
        ("call getUserById here", "identifier", "getUserById"),
        ("import neuromem.text.tokenize", "identifier", "neuromem.text.tokenize"),
        ("run `pip install -e .` first", "code", "pip install -e ."),
        ("upgrade to 1.2.3", "version", "1.2.3"),
        ("upgrade to v2.0", "version", "v2.0"),
    ],
)
def test_pattern_tokens(text: str, kind: str, value: str) -> None:
    tokens = pattern_tokens(text)
    assert [(t.kind, t.value) for t in tokens] == [(kind, value)]
    start, end = tokens[0].span
    assert value in text[start:end]


@pytest.mark.parametrize(
    "text",
    [
        "I like coffee and tea.",
        "我喜欢喝咖啡",
        "It costs 3.50 dollars, e.g. cheap",
        "In 2023 we moved",
        "Hello World",
    ],
)
def test_plain_text_has_no_tokens(text: str) -> None:
    assert pattern_tokens(text) == []
    assert not has_exact_tokens(text)


def test_several_tokens_in_order() -> None:
    tokens = pattern_tokens("ERR_CONN_RESET at /var/log/app.log with v1.2.3")
    assert [t.kind for t in tokens] == ["error_code", "path", "version"]
