"""The HTTP service of issue #15: a FastAPI app over ``Memory`` (``create_app`` in ``neuromem.service.api.app``).

This package imports nothing heavy on its own: ``neuromem.service.api.keys`` and
``neuromem.store.tenancy`` work without the ``service`` extra (``memctl keys`` uses them);
``neuromem.service.api.app`` needs ``pip install 'neuromem[service]'``.
"""
