"""The ``/v1`` routers, one module per part of the SDK."""
