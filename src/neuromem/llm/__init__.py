"""The LLM side: one OpenAI-compatible chat client, structured calls, and every prompt.

``create_chat_model(settings)`` returns ``None`` when no endpoint is
configured; callers then take their rule-based path (MISSION decision 4).
"""

from __future__ import annotations

from .base import ChatModel, ChatResult, Message, UsageRecord, UsageSink
from .factory import create_chat_model
from .json_repair import parse_json_reply
from .openai_compat import OpenAICompatibleChat
from .prompts import PROMPTS, Prompt, get_prompt
from .structured import complete_structured

__all__ = [
    "PROMPTS",
    "ChatModel",
    "ChatResult",
    "Message",
    "OpenAICompatibleChat",
    "Prompt",
    "UsageRecord",
    "UsageSink",
    "complete_structured",
    "create_chat_model",
    "get_prompt",
    "parse_json_reply",
]
