"""The memory page (seed 001 §8.2 "Trait Transparency", issue 17): what neuromem believes
about a user — traits by stage with confidence, decay and evidence down to the original
words; memories with history and sources; the prompt block a query would get — and the
user's corrections, deletions, pins and forgetting. Plain HTML, JS and CSS served as package
data (no build step), in English and Chinese.

``build_router(service)`` returns the FastAPI router that ``neuromem.service.api`` mounts at ``/ui``.
"""

from .routes import build_router

__all__ = ["build_router"]
