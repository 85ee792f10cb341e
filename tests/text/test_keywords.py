from neuromem.text.keywords import keywords


def test_chinese_keywords_offline_tfidf() -> None:
    words = keywords("我最近在学习数据库和向量检索，数据库性能优化很重要，向量检索也很有趣", k=4)
    assert len(words) == 4
    assert {"数据库", "检索", "向量"} & set(words)
    assert "我" not in words and "很" not in words


def test_english_keywords_by_frequency_and_length() -> None:
    text = "I use PostgreSQL with pgvector. PostgreSQL is fast and pgvector makes vector search easy."
    words = keywords(text, k=2)
    assert words == ["postgresql", "pgvector"]


def test_mixed_text_has_both_languages() -> None:
    words = keywords("我在用 PostgreSQL 做向量检索")
    assert "postgresql" in words
    assert any(not w.isascii() for w in words)


def test_k_limits_and_empty() -> None:
    # equal frequency: longer words first, ties in order of appearance
    assert keywords("alpha beta gamma delta", k=2) == ["alpha", "gamma"]
    assert keywords("", k=5) == []
    assert keywords("anything", k=0) == []


def test_deterministic() -> None:
    text = "会议 meeting 会议 预算 budget 预算 计划"
    assert keywords(text) == keywords(text)
