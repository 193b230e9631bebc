"""The whole ledger judged a block of lines at a time, for `history --validate`: the malformed
lines, the hash chain's verdict and the count of lines, as `ledger.scan.scan` gives them, with
only one block held at a time, so memory does not grow with the ledger's length.

`Walk` is `chain.verify` fed block by block: a block whose every line links to the one before
is passed at once (as `verify` passes a whole ledger), any other is walked line by line with
the state `verify` carries (the hash expected next, the legacy lead, the seal), so the verdict
is `verify`'s over the whole file. The file is read as the snapshot of the size it had when
opened, the tip read first, as `scan` reads them. A file a whole read refuses (over the cap,
not a regular file) is left to `scan`, which says why.
"""

from __future__ import annotations

import os
import stat

from mj_core import limits
from mj_core import line_hash as linehash

from mj_state.ledger import chain
from mj_state.ledger import scan as ledgerscan
from mj_state.ledger import tail as ledgertail
from mj_state.ledger.read import rows_of

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

_BLOCK = 1 << 18  # bytes read at a time; a block holds the whole lines among them


class Judged:
    """What `history --validate` reports of a ledger: its problems, its chain, its length."""

    __slots__ = ("chain", "lines", "problems")

    def __init__(self, problems: list[tuple[int, str]], verdict: chain.Verdict, lines: int) -> None:
        self.problems = problems
        self.chain = verdict
        self.lines = lines


class Walk:
    """`chain.verify` over rows that arrive a block at a time."""

    def __init__(self) -> None:
        self.verdict = chain.Verdict()
        self.expected: str = chain.GENESIS  # the `prev` the next line must carry
        self.before: bytes | None = None  # the line before it (an earlier build's hash)
        self.leading = True  # still inside the run of lines written before the chain
        self.index = 0  # lines walked so far
        self.last_hash, self.last_line = "", b""

    def feed(self, rows: list[tuple[int, bytes, bool]], values: list[object]) -> None:
        if not rows:
            return
        hashes = linehash.hexdigests([raw for _, raw, _ in rows])
        first, self.index = self.index, self.index + len(rows)
        self.last_hash, self.last_line = hashes[-1], rows[-1][1]
        if self.verdict.broken is not None:
            return  # the first break is the one reported
        prevs = [value.get("prev") if type(value) is dict else None for value in values]
        if (
            prevs[0] == self.expected
            and prevs[1:] == hashes[:-1]
            and not (first == 0 and chain.is_seal(rows[0][0], values[0]))
        ):
            self.leading, self.expected, self.before = False, hashes[-1], rows[-1][1]
            return  # every line links to the one before
        for offset, value in enumerate(values):
            if not self._step(first + offset, rows[offset], value, hashes[offset]):
                return

    def _step(self, index: int, row: tuple[int, bytes, bool], value: object, own: str) -> bool:
        verdict = self.verdict
        if index == 0 and chain.is_seal(row[0], value):
            assert type(value) is dict
            verdict.sealed = str(value.get("archive"))
            self.expected, self.before = str(value.get("prev")), None
            if not chain.is_hash(self.expected):
                verdict.broken = (row[0], "the seal line carries no hash of the archived part")
                return False
            return True
        prev = value.get("prev") if type(value) is dict else None
        if prev is None and self.leading and type(value) is dict:
            verdict.legacy += 1
        else:
            self.leading = False
            earlier = self.before is not None and prev == chain.earlier(self.before)
            if prev != self.expected and not earlier:
                verdict.broken = (row[0], chain.why(prev, index))
                return False
        self.expected, self.before = own, row[1]
        return True

    def end(self, tip: chain.Tip | None, *, tip_present: bool, size: int) -> chain.Verdict:
        verdict = self.verdict
        verdict.lines = self.index
        verdict.unsealed = self.leading and verdict.legacy > 0
        last_line = self.last_line if self.index else None
        chain.judge_tip(verdict, self.index, last_line, tip, tip_present=tip_present,
                        size=size, last=self.last_hash)  # fmt: skip
        return verdict


def _block(fd: int, offset: int, size: int) -> tuple[bytes, int]:
    """(bytes from `offset`, how many of them are whole lines): at least one whole line, or the
    rest of the file; nothing is copied out of what was read."""
    want = _BLOCK
    while True:
        chunk = ledgertail._read(fd, min(want, size - offset), offset)
        if not chunk or offset + len(chunk) >= size:
            return chunk, len(chunk)
        cut = chunk.rfind(b"\n") + 1
        if cut:
            return chunk, cut
        want *= 2  # a line longer than a block


def judge(ledger: Path) -> Judged:
    """The ledger at `ledger` judged a block at a time (a missing one is empty)."""
    tip_bytes = ledgerscan._tip(ledger)
    tip = chain.parse_tip(tip_bytes) if tip_bytes is not None else None
    try:
        fd = os.open(ledger, os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return Judged([], Walk().end(tip, tip_present=tip_bytes is not None, size=0), 0)
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > limits.LEDGER[0]:
            whole = ledgerscan.scan(ledger)  # refuses the file in a whole read's words
            return Judged(whole.problems, whole.chain, len(whole.rows))
        size, walk, problems = found.st_size, Walk(), []
        offset, number = 0, 0
        while offset < size:
            chunk, cut = _block(fd, offset, size)
            if not chunk:
                break  # the file is shorter than it was: judged as far as it went
            rows = rows_of(chunk, number + 1)
            if cut < len(chunk):
                rows.pop()  # a line the block cuts: read again at the next block's start
            _, parsed, found_here = ledgerscan._values_and_problems(chunk, rows, cut)
            problems.extend(found_here)
            walk.feed(rows, parsed)
            number += len(rows)
            offset += cut
    finally:
        os.close(fd)
    return Judged(problems, walk.end(tip, tip_present=tip_bytes is not None, size=size), number)
