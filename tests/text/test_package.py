import subprocess
import sys
import threading

import neuromem.text
from neuromem.text._jieba import cut_for_search


def test_public_surface_is_pinned() -> None:
    assert sorted(neuromem.text.__all__) == sorted(
        [
            "OPEN_END",
            "OPEN_START",
            "SENSITIVE_CATEGORIES",
            "Entity",
            "PIIMatch",
            "PatternToken",
            "RedactionResult",
            "TimeExpression",
            "apply_pii_policy",
            "count_tokens",
            "detect_language",
            "extract_entities",
            "find_pii",
            "has_exact_tokens",
            "keywords",
            "normalize_entity_name",
            "pattern_tokens",
            "query_terms",
            "redact",
            "resolve_time_expressions",
            "search_text",
            "sensitive_categories",
            "time_constraint",
            "tokenize",
            "truncate_to_tokens",
        ]
    )
    for name in neuromem.text.__all__:
        assert hasattr(neuromem.text, name)


def test_import_and_first_use_print_nothing() -> None:
    code = "import neuromem.text as t; t.tokenize('我爱北京天安门'); t.extract_entities('张伟在北京'); t.keywords('数据库')"
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr == ""


def test_concurrent_first_use_is_consistent() -> None:
    results: list[list[str]] = []

    def work() -> None:
        results.append(cut_for_search("我在北京大学读书"))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8
    assert all(r == results[0] for r in results)
