"""NeuromemRetriever through LangChain's own Runnable interface: invoke, ainvoke, batch, and
inside an LCEL chain."""

from __future__ import annotations

import asyncio

from langchain_core.documents import Document
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

from neuromem import Memory
from neuromem.adapters.langchain import NeuromemRetriever


def test_retriever_invoke_ainvoke_batch_and_chain(memory: Memory) -> None:
    memory.add("I drink oolong tea every morning", user_id="alice", category="preference")
    memory.add("My dog is called Rex", user_id="alice")
    memory.add("我在杭州工作", user_id="alice")
    memory.add("I drink espresso", user_id="bob")
    retriever = NeuromemRetriever(memory=memory, user_id="alice", k=2)
    docs = retriever.invoke("what tea do I drink?")
    assert isinstance(docs[0], Document) and docs[0].page_content == "I drink oolong tea every morning"
    assert docs[0].metadata["category"] == "preference" and docs[0].metadata["score"] > 0
    assert all(d.metadata["user_id"] == "alice" for d in docs) and len(docs) <= 2
    assert asyncio.run(retriever.ainvoke("我在哪里工作？"))[0].page_content == "我在杭州工作"
    batched = retriever.batch(["dog name", "tea"])
    assert batched[0][0].page_content == "My dog is called Rex"
    chain = {
        "context": retriever | RunnableLambda(lambda ds: "\n".join(d.page_content for d in ds)),
        "question": RunnablePassthrough(),
    } | RunnableLambda(lambda x: f"{x['context']}\nQ: {x['question']}")
    assert "Rex" in chain.invoke("what is my dog called?")
    only_prefs = NeuromemRetriever(memory=memory, user_id="alice", k=5, filters={"category": "preference"})
    assert [d.page_content for d in only_prefs.invoke("anything I like")] == [
        "I drink oolong tea every morning"
    ]
