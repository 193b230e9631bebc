"""The provider template language: `{{ name }}` substitution and nothing else.

The language is closed on purpose: no expressions, no loops, no includes, no evaluation. A
template names variables from a fixed table; an unknown name or an unclosed `{{` is refused
with the template's file and line, so a bad repository override can never half-render.
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Mapping

_TOKEN = r"\{\{\s*([a-z][a-z0-9_]*)\s*\}\}"  # compiled by `re` on first use: doctor never renders
_OPEN = "{{"


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def variables_used(text: str) -> list[str]:
    return [match.group(1) for match in re.finditer(_TOKEN, text)]


def render(text: str, values: Mapping[str, str], name: str) -> str:
    """Substitute every `{{ name }}`; refuse unknown names and stray braces (10)."""
    out: list[str] = []
    position = 0
    for match in re.finditer(_TOKEN, text):
        _refuse_stray(text, position, match.start(), name)
        key = match.group(1)
        if key not in values:
            line = _line_of(text, match.start())
            known = ", ".join(sorted(values))
            raise ContractUnmet(
                f"{name}:{line}: unknown template variable '{key}' (known: {known})"
            )
        out.append(text[position : match.start()])
        out.append(values[key])
        position = match.end()
    _refuse_stray(text, position, len(text), name)
    out.append(text[position:])
    return "".join(out)


def _refuse_stray(text: str, start: int, end: int, name: str) -> None:
    found = text.find(_OPEN, start, end)
    if found != -1:
        line = _line_of(text, found)
        raise ContractUnmet(
            f"{name}:{line}: '{{{{' that is not a '{{{{ name }}}}' variable — "
            "the template language has variables only"
        )
