"""Fixtures of the reflection tests."""

from .llm_brain import llm_memory  # noqa: F401  (re-exported fixture)
