from neuromem.text.spans import trim_span


def test_trim_span_drops_surrounding_whitespace_and_blank_spans() -> None:
    text = "  hello world \n\t  "
    assert trim_span(text, 0, len(text)) == (2, 13) and text[2:13] == "hello world"
    assert trim_span(text, 13, len(text)) is None
    assert trim_span("你好 ", 0, 3) == (0, 2)
