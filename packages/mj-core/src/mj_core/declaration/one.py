"""One command or one stage of `share/commands.json`, decoded without the rest of the file.

`mj_core.declaration.generate` writes the declaration one entry a line: the head (`version`,
`groups`, `outcomes`, `value_flags`: every option flag that takes a value, which the
dispatcher needs before it knows the command, and `index`: every command's name and every
stage's tool and name, in order) on the first line, then each command (`{"name":…`), a line
between, then each stage (`{"tool":…,"name":…`, with the options commands forward to it), and
the closing line. The whole file is the
same JSON document (`declare.declaration` reads it whole); a hook's run decodes its head, its
command and the stages it runs, not the 70 KB of every other command's help. A file in any
other layout is a broken install (13), as a missing one is.
"""

from __future__ import annotations

from functools import cache

from mj_core import files
from mj_core import share
from mj_core.errors import InternalError
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

FILE = "commands.json"
HEAD_END = b',"commands":['  # the first line ends here; its value is closed to read it


def _broken(what: str) -> InternalError:
    return InternalError(f"share/{FILE}: {what} — broken install")


@cache
def _lines() -> list[bytes]:
    try:
        data = files.read_bytes(share.path(FILE))
    except OSError as exc:
        raise _broken(str(exc)) from None
    return data.split(b"\n")


@cache
def head() -> Record:
    """version, groups, outcomes and value_flags."""
    first = _lines()[0]
    if not first.endswith(HEAD_END):
        raise _broken("not one entry a line (run `python -m mj_core.declaration.generate`)")
    try:
        data: Record = jsonl.loads_line(first[: -len(HEAD_END)] + b"}")
    except ValueError as exc:
        raise _broken(str(exc)) from None
    return data


@cache
def _where() -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """The line of each command (by name) and of each stage (by tool and name), from the head's
    `index` (each entry's line follows from its place; `_entry` checks the name it finds)."""
    index = head().get("index")
    if not isinstance(index, dict):
        raise _broken("no index in its head (run `python -m mj_core.declaration.generate`)")
    commands = {str(name): 1 + number for number, name in enumerate(index["commands"])}
    first = 2 + len(commands)  # after the head, the commands and the line between
    stages = {(str(t), str(n)): first + number for number, (t, n) in enumerate(index["stages"])}
    return commands, stages


def names() -> dict[str, int]:
    """Every declared command's name (an action's is `parent action`), in declared order."""
    return _where()[0]


def _entry(number: int, name: str) -> Record:
    line = _lines()[number]
    try:
        data: Record = jsonl.loads_line(line[:-1] if line.endswith(b",") else line)
    except ValueError as exc:
        raise _broken(f"line {number + 1}: {exc}") from None
    if data.get("name") != name:
        raise _broken(f"line {number + 1} is not {name!r}")
    return data


@cache
def command(name: str) -> Record | None:
    """The command's declaration, or None when none is declared under `name`."""
    number = names().get(name)
    return None if number is None else _entry(number, name)


def stage(tool: str, name: str) -> Record | None:
    """The stage's line: its own options, and those commands forward to it (`forwarded`)."""
    number = _where()[1].get((tool, name))
    if number is None:
        return None
    data = _entry(number, name)
    if data.get("tool") != tool:
        raise _broken(f"line {number + 1} is not a stage of {tool}")
    return data
