"""Real fakes for tests: an OpenAI-compatible HTTP server (``FakeOpenAI``)."""

from .openai_server import FakeError, FakeOpenAI

__all__ = ["FakeError", "FakeOpenAI"]
