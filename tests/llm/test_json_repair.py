from __future__ import annotations

import pytest

from neuromem.llm import parse_json_reply


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('```\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
        ('Here is the JSON you asked for:\n{"a": "x"}\nLet me know!', {"a": "x"}),
        ('{"a": [1, 2,], "b": {"c": 3,},}', {"a": [1, 2], "b": {"c": 3}}),
        ("{'name': 'Li Lei', 'ok': True, 'none': None}", {"name": "Li Lei", "ok": True, "none": None}),
        ('{"text": "it\'s fine, really", "n": False}', {"text": "it's fine, really", "n": False}),
        ('<think>the user wants {json}</think>{"a": 1}', {"a": 1}),
        ('{"zh": "我喜欢咖啡，也喜欢茶"}', {"zh": "我喜欢咖啡，也喜欢茶"}),
        ('{"braces": "a } inside", "x": 1} trailing {"b": 2}', {"braces": "a } inside", "x": 1}),
        ("[1, 2, 3,]", [1, 2, 3]),
        ("{'quote': 'he said \"hi\"'}", {"quote": 'he said "hi"'}),
        ('{"True": "keep True inside strings"}', {"True": "keep True inside strings"}),
    ],
)
def test_repairs(reply: str, expected: object) -> None:
    assert parse_json_reply(reply) == expected


@pytest.mark.parametrize("reply", ["", "no json here", '{"a": ', "{'a': undefined_thing}"])
def test_unrepairable_raises_value_error(reply: str) -> None:
    with pytest.raises(ValueError):
        parse_json_reply(reply)
