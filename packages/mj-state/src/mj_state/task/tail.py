"""The newest task's lines of the ledger: the one rule `ledger.scan.task_rows` follows, and a
reading of it with the standard `json` module alone, for the client hooks that run on every
tool call (`mj_state.task.active`).

`rows(data, value_of)` finds the newest line whose own event is `task.started` and every later
line that names its id; `value_of(number, raw)` is how one line is read. `ledger.scan` reads
with `ledger.read.parse_line`; `light` reads with `json`, and gives up (None: ask `ledger.scan`)
wherever the two could differ — a key written twice, a ledger over its cap — so that when it
answers, it answers as the full reader would.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    Rows = list[tuple[int, Any]]

LEDGER = (".ai", "local", "state", "ledger.jsonl")
_CAP = (64 << 20, 64 << 10)  # mj_core.limits.LEDGER: the file, one line


class Undecided(Exception):
    """The light reading cannot tell what the full reader would: ask it."""


def rows(data: bytes, value_of: Callable[[int, bytes], Any]) -> Rows | None:
    """(line number, value) of the newest `task.started` line and of every later line holding
    its id; None when the whole tail must be read line by line (a backslash after the start: an
    escape could spell the event or the id; or an id that is not a string)."""
    start, value = newest_start(data, value_of)
    if start < 0:
        return [] if data.find(b"\\") == -1 else None
    task = value.get("task_id")
    stop = data.find(b"\n", start)
    stop = len(data) if stop == -1 else stop + 1
    if type(task) is not str or not task or data.find(b"\\", stop) != -1:
        return None
    first = data.count(b"\n", 0, start) + 1
    found: Rows = [(first, value)]
    needle = task.encode()
    number, line_start = first + 1, stop  # the line that begins at `line_start`
    at = data.find(needle, stop)
    while at != -1:
        number += data.count(b"\n", line_start, at)
        line_start = data.rfind(b"\n", 0, at) + 1
        end = data.find(b"\n", at)
        raw = data[line_start : len(data) if end == -1 else end + 1]
        found.append((number, value_of(number, raw)))
        if end == -1:
            break
        line_start, number = end + 1, number + 1
        at = data.find(needle, line_start)
    return found


def newest_start(data: bytes, value_of: Callable[[int, bytes], Any]) -> tuple[int, Any]:
    """(offset, value) of the newest line whose own event is `task.started`, however its
    blanks are spelled; (-1, None) when there is none. The bytes can appear nested in a line,
    so each candidate line is parsed to be sure."""
    end = len(data)
    while True:
        found = data.rfind(b"task.started", 0, end)
        if found == -1:
            return -1, None
        start = data.rfind(b"\n", 0, found) + 1
        stop = data.find(b"\n", found)
        value = value_of(0, data[start : len(data) if stop == -1 else stop + 1])
        if type(value) is dict and value.get("event") == "task.started":
            return start, value
        end = start


def light(ledger: Path | str) -> Rows | None:
    """`rows` of the ledger file read with `json` alone; None when only the full reader can
    tell (see the module's note). A missing ledger has no rows."""
    try:
        fd = os.open(ledger, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return []
    try:
        data = os.read(fd, _CAP[0] + 1)
    finally:
        os.close(fd)
    if len(data) > _CAP[0]:
        return None
    try:
        return rows(data, _value)
    except Undecided:
        return None


def _value(number: int, raw: bytes) -> Any:
    """One line's object as `ledger.read.parse_line` gives it (None when it is malformed)."""
    import json

    text = raw.rstrip(b"\r\n")
    if len(text) > _CAP[1]:
        return None
    try:
        value = json.loads(text.decode("utf-8"), parse_constant=_refuse, object_pairs_hook=_once)
    except (ValueError, RecursionError):
        return None
    return value if type(value) is dict else None


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise Undecided  # the full reader keeps the first of a key written twice
    return value
