"""Framework adapters, each behind its optional extra: ``langgraph`` (a ``BaseStore``) and
``langchain`` (a ``BaseRetriever``). Importing one without its extra raises an ``ImportError``
naming the extra to install."""
