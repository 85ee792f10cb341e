"""``Prompt``: a named pair of templates rendered at call time (STYLE habit 10).

Templates use ``string.Template`` syntax (``$name`` / ``${name}``), so JSON
examples need no brace escaping. ``$today`` and ``$now`` are filled at render
time (local clock) unless the caller passes them — never frozen at import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from string import Template
from typing import Any

__all__ = ["CALL_TIME_VARIABLES", "Prompt"]

CALL_TIME_VARIABLES: Mapping[str, Callable[[], str]] = {
    "today": lambda: datetime.now().astimezone().date().isoformat(),
    "now": lambda: datetime.now().astimezone().isoformat(timespec="minutes"),
}
"""Variables computed when a prompt is rendered, unless passed explicitly."""


@dataclass(frozen=True)
class Prompt:
    """A system and a user template; ``render`` checks the variables and returns chat messages.

    >>> p = Prompt(name="greet", system="Today is $today.", user="Say hello to $who.")
    >>> sorted(p.required_variables)
    ['who']
    >>> p.render(who="Li Lei", today="2025-01-31")
    [{'role': 'system', 'content': 'Today is 2025-01-31.'}, {'role': 'user', 'content': 'Say hello to Li Lei.'}]
    """

    name: str
    system: str
    user: str
    version: int = 1
    _templates: tuple[Template, Template] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        templates = (Template(self.system), Template(self.user))
        for template in templates:
            if not template.is_valid():
                raise ValueError(f"prompt {self.name!r} has an invalid $-placeholder")
        object.__setattr__(self, "_templates", templates)

    @property
    def variables(self) -> frozenset[str]:
        """Every placeholder in the templates."""
        return frozenset(name for t in self._templates for name in t.get_identifiers())

    @property
    def required_variables(self) -> frozenset[str]:
        """Placeholders the caller must supply (the call-time ones are filled automatically)."""
        return self.variables - CALL_TIME_VARIABLES.keys()

    def render(self, **variables: Any) -> list[dict[str, str]]:
        """The messages for this call; ``TypeError`` names missing or unknown variables."""
        missing = self.required_variables - variables.keys()
        if missing:
            raise TypeError(f"prompt {self.name!r} is missing variable(s): {', '.join(sorted(missing))}")
        unknown = variables.keys() - self.variables
        if unknown:
            raise TypeError(f"prompt {self.name!r} has no variable(s): {', '.join(sorted(unknown))}")
        values = {name: str(value) for name, value in variables.items()}
        for name, make in CALL_TIME_VARIABLES.items():
            if name in self.variables and name not in values:
                values[name] = make()
        system, user = (t.substitute(values) for t in self._templates)
        messages = [{"role": "system", "content": system}] if system.strip() else []
        messages.append({"role": "user", "content": user})
        return messages
