"""The ledger's lines held to their declared shape: each field, the envelope's included, of
the type `share/events.yaml` gives it (`mj_core.json_types`). A line whose event is not
declared is held to the envelope's types only (`ledger.scan.problem` reports the name).

This runs for every line a reader takes, so it is one pass over the line's keys with a set
lookup each; a field's expression is compiled the first time its event is met.
"""

from __future__ import annotations

from functools import cache

from mj_core import files
from mj_core import json_types as jsontypes
from mj_core import share
from mj_core.errors import InternalError
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_core.json_types import Type

_CHECKS: dict[str, dict[str, Type]] = {}  # event name → key → its compiled type
_UNDECLARED = "\0"  # the key of the envelope's checks alone, never an event's name
_PLAIN: list[frozenset[str]] = []  # `_all_strings()`, once asked


def mistyped(value: dict[str, Any]) -> str | None:
    """Why `value` (an object whose `event` is a string) is malformed, or None: the first
    field of another type than its declaration, named with the type found and the one due."""
    event = value["event"]
    checks = _CHECKS.get(event)
    if checks is None:
        checks = _compiled(event)
    for key, found in value.items():
        want = checks.get(key)
        if want is None:
            continue
        kind = type(found)
        if kind not in want.types:
            return f"{event}: {key!r} is {_said(found)}, not {want.shown} (share/events.yaml)"
        if want.deep and kind in want.deep and not want.deep[kind](found):
            said = f"{_said(found)} holding another type"
            return f"{event}: {key!r} is {said}, not {want.shown} (share/events.yaml)"
    return None


def decoded_mistyped(value: dict[str, Any]) -> str | None:
    """`mistyped` for an object as the JSON decoder made it (a string is a `str`, never a
    subclass): a line of an event whose every field is declared a plain `string` (most of a
    ledger) is asked in one join whether every value it holds is a string."""
    if value["event"] in (_PLAIN[0] if _PLAIN else _plain()):
        try:
            "".join(value.values())
            return None
        except TypeError:  # a value that is not a string: asked field by field
            pass
    return mistyped(value)


def all_typed(values: list[dict[str, Any]], events: list[str] | None = None) -> bool:
    """True when no field of any of `values` (objects whose `event` is a string) is of another
    type than declared; `events` is each value's event, when the caller has them.

    `values` are as the JSON decoder made them (a string is a `str`, never a subclass). The
    lines of an event whose every declared field is a plain `string` (most of a ledger:
    checkpoints, sessions, records) are asked at once whether every value they hold is a
    string (joining them fails on any other), without a loop in Python; a line of any other
    event, or every line when one of those holds something else, is checked field by field."""
    from itertools import chain
    from itertools import compress
    from operator import itemgetter
    from operator import not_

    plain = _all_strings()
    names = map(itemgetter("event"), values) if events is None else events
    marks = list(map(plain.__contains__, names))
    try:
        "".join(chain.from_iterable(map(dict.values, compress(values, marks))))
    except TypeError:  # a value that is not a string: each line is asked on its own
        marks = [False] * len(values)
    return all(mistyped(value) is None for value in compress(values, map(not_, marks)))


def _plain() -> frozenset[str]:
    _PLAIN.append(_all_strings())
    return _PLAIN[0]


@cache
def _all_strings() -> frozenset[str]:
    """The events whose every field, the envelope's included, is declared a plain `string`."""
    data = declaration()
    envelope = set(map(str, data["envelope"].values()))
    return frozenset(
        name
        for name, spec in data["events"].items()
        if envelope | set(map(str, spec["types"].values())) == {"string"}
    )


@cache
def declaration() -> dict[str, Any]:
    """`share/events.yaml` (read as its generated `events.json`): `envelope` and `events`."""
    try:
        data: dict[str, Any] = jsonl.loads_line(files.read_bytes(share.path("events.json")))
        data["envelope"], data["events"]  # both are there, or the install is broken
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InternalError(f"share/events.json: {exc} — broken install") from None
    return data


def _compiled(event: str) -> dict[str, Type]:
    data = declaration()
    spec = data["events"].get(event)
    if spec is None:  # an undeclared name shares the envelope's checks: no line grows the map
        if _UNDECLARED not in _CHECKS:
            _CHECKS[_UNDECLARED] = _compile(data["envelope"])
        return _CHECKS[_UNDECLARED]
    _CHECKS[event] = _compile({**data["envelope"], **spec["types"]})
    return _CHECKS[event]


def _compile(expressions: dict[str, Any]) -> dict[str, Type]:
    return {key: jsontypes.compile_type(str(shape)) for key, shape in expressions.items()}


def _said(found: Any) -> str:
    kind = jsontypes.shown(found)
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"
