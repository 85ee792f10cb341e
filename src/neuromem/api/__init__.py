"""The HTTP service of issue #15: a FastAPI app over ``Memory`` (``create_app`` in ``neuromem.api.app``).

This package imports nothing heavy on its own: ``neuromem.api.keys`` and
``neuromem.api.tenancy`` work without the ``service`` extra (``memctl keys`` uses them);
``neuromem.api.app`` needs ``pip install 'neuromem[service]'``.
"""
