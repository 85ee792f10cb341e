"""A LangChain ``BaseRetriever`` over neuromem recall (optional extra ``neuromem[langchain]``).

::

    from neuromem import Memory
    from neuromem.adapters.langchain import NeuromemRetriever

    retriever = NeuromemRetriever(memory=Memory(), user_id="alice", k=5)
    docs = retriever.invoke("what does alice drink?")     # list[Document], best first

Each ``Document`` holds a memory's content; its metadata the memory id, type, category,
score, the retrievers that found it and when it was created.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

try:
    from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from pydantic import ConfigDict
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the LangChain retriever needs the extra: pip install 'neuromem[langchain]'") from exc

from ..memory import Memory
from ..types import SearchHit


class NeuromemRetriever(BaseRetriever):
    """Recall the ``k`` memories of ``user_id`` that matter for a query, as LangChain documents."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Memory
    user_id: str
    k: int = 5
    filters: Mapping[str, Any] | None = None
    memory_types: Sequence[str] | None = None

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.memory.search(
            query, user_id=self.user_id, limit=self.k, filters=self.filters, memory_types=self.memory_types
        )
        return [_document(h) for h in hits]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = await asyncio.to_thread(
            self.memory.search,
            query,
            user_id=self.user_id,
            limit=self.k,
            filters=self.filters,
            memory_types=self.memory_types,
        )
        return [_document(h) for h in hits]


def _document(hit: SearchHit) -> Document:
    m = hit.memory
    return Document(
        page_content=m.content,
        id=str(m.id),
        metadata={
            "id": str(m.id),
            "memory_type": m.memory_type.value,
            "category": m.category,
            "score": hit.score.final,
            "retrievers": list(hit.retrievers),
            "created_at": m.created_at.isoformat(),
            "user_id": m.user_id,
        },
    )
