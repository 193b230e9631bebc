"""The ledger's lines that can name a value, found in its bytes: every line a reader would take
as holding the value is among them, and each of them is read as `ledger.read.read` reads it.

A stored line is JSON: a string equal to the value holds the value's UTF-8 bytes, or an escape
(a backslash) spells some of them. So a line whose bytes hold neither the value's bytes nor a
backslash cannot name it, and is never parsed: a count over a few lines of a long ledger costs
a byte search, not a parse of every line.
"""

from __future__ import annotations

from mj_state.ledger import read as ledgerread

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from mj_state.ledger.read import Line


def lines(ledger: Path, value: str) -> Iterator[Line]:
    """The lines of `ledger` that may name `value`, in order, each as `ledger.read.read` gives
    it; every line when `value` is empty. A ledger past its cap is refused (10), as a read is."""
    data = ledgerread.contents(ledger)
    if not value:
        yield from ledgerread.read(ledger)
        return
    number, counted = 1, 0  # the number of the line that begins at `counted`
    needle = value.encode("utf-8", "surrogatepass")  # a lone surrogate is only ever escaped
    for start in sorted(_starts(data, needle) | _starts(data, b"\\")):
        number += data.count(b"\n", counted, start)
        counted = start
        end = data.find(b"\n", start)
        yield ledgerread.parse_line(number, data[start:] if end == -1 else data[start : end + 1])


def _starts(data: bytes, needle: bytes) -> set[int]:
    """The offset of each line holding `needle`."""
    found: set[int] = set()
    at = data.find(needle)
    while at != -1:
        start = data.rfind(b"\n", 0, at) + 1
        found.add(start)
        end = data.find(b"\n", at)
        if end == -1:
            break
        at = data.find(needle, end + 1)
    return found
