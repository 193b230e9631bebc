"""The ledger's hash chain: each line's `prev` is the hash (`line_hash`, BLAKE2b-256) of the
previous line's bytes.

The first line of a ledger carries `GENESIS`. After `history --rotate` the file opens with a
`ledger.sealed` line whose `prev` is the hash of the last archived line; the seal is not itself
a link, so the line after it carries that same hash and the chain runs on across the files.
Lines written before the chain existed carry no `prev`: such a leading run is accepted once,
and the first chained line seals it (its `prev` is the hash of the last of them).

The newest line has no successor to vouch for it, so `ledger.tip` beside the ledger holds the
file's size and the hash of its last line, written under the ledger's lock around each append
(first naming the line about to be written as `pending`, then the line written). An edit,
removal, insertion, duplication or reordering of any line therefore shows, the newest included.

A hash chain without a secret is not a signature: whoever rewrites every line and the tip
consistently is not stopped. What it stops is the edit made by hand or by a script that does not
recompute what follows. The rest is the remote's: with `remote:` set, `sync` publishes the lines
as they are (`mj_state.remote.segment`), and a published line's hash, still in the ledger, vouches
for every line before it; a rewrite loses it and is refused. Everything here is pure: bytes and
parsed values in, verdicts out.
"""

from __future__ import annotations

from mj_core import line_hash as linehash
from mj_core.findings import Finding
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

GENESIS = "0" * 64
SEAL = "ledger.sealed"
TIP = "ledger.tip"
_HEX = frozenset("0123456789abcdef")


class Tip:
    """What `ledger.tip` says: the size and last-line hash of the ledger, and the line pending."""

    __slots__ = ("last", "pending", "pending_size", "size")

    def __init__(
        self, size: int, last: str, pending_size: int | None = None, pending: str | None = None
    ) -> None:
        self.size = size
        self.last = last
        self.pending_size = pending_size
        self.pending = pending

    def render(self) -> bytes:
        data: dict[str, Any] = {"size": self.size, "last": self.last}
        if self.pending is not None:
            data.update({"pending_size": self.pending_size, "pending": self.pending})
        return jsonl.dumps(data)

    def vouches(self, size: int, last: str) -> bool:
        """True when a ledger of `size` bytes whose last line hashes to `last` is the one this
        tip describes, or the one it was about to become."""
        if size == self.size and last == self.last:
            return True
        return self.pending is not None and size == self.pending_size and last == self.pending


def parse_tip(data: bytes) -> Tip | None:
    """The tip in `data`, or None when it is not one (a damaged tip is no tip)."""
    try:
        value = jsonl.loads_line(data.rstrip(b"\n"))
    except ValueError:
        return None
    if type(value) is not dict or set(value) - {"size", "last", "pending_size", "pending"}:
        return None
    size, last = value.get("size"), value.get("last")
    pending_size, pending = value.get("pending_size"), value.get("pending")
    if type(size) is not int or type(last) is not str or not is_hash(last, empty=True):
        return None
    if (pending is None) != (pending_size is None):
        return None
    if pending is not None and (type(pending_size) is not int or not is_hash(pending)):
        return None
    return Tip(size, last, pending_size, str(pending) if pending is not None else None)


def is_hash(value: object, *, empty: bool = False) -> bool:
    if empty and value == "":
        return True
    return type(value) is str and len(value) == 64 and _HEX.issuperset(value)


def earlier(line: bytes) -> str:
    """The hash builds before `line_hash` chained with (SHA-256 of the same bytes): a link or a
    tip that names it still holds, so a ledger chained by an earlier build reads on and takes
    new lines (each linked with `digest`). Worked out only where `digest` did not match."""
    from mj_core import sha

    return sha.hexdigest(line)


def digest(line: bytes) -> str:
    """The hash a line's successor carries: over the line's bytes, without its newline."""
    return linehash.hexdigest(line)


def is_seal(number: int, value: object) -> bool:
    return number == 1 and type(value) is dict and value.get("event") == SEAL


def prev_after(last: bytes | None, last_value: object, *, only: bool) -> str:
    """The `prev` of a line appended after `last` (None: the ledger is empty; `only`: the
    ledger holds that one line)."""
    if last is None:
        return GENESIS
    if only and is_seal(1, last_value) and type(last_value) is dict:
        return str(last_value.get("prev"))  # a seal alone in its file: the chain runs through it
    return digest(last)


class Verdict:
    """The chain's verdict over a ledger: the legacy lead, the first break, the tip's word."""

    __slots__ = ("broken", "legacy", "lines", "sealed", "tip_problem", "unsealed")

    def __init__(self) -> None:
        self.lines = 0
        self.legacy = 0  # leading lines written before the chain
        self.unsealed = False  # ... and no chained line after them yet
        self.sealed: str | None = None  # the archive a seal line names
        self.broken: tuple[int, str] | None = None  # (line number, why)
        self.tip_problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.broken is None and self.tip_problem is None

    def fact(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_fact(cls, fact: dict[str, Any]) -> Verdict:
        verdict = cls()
        for name in cls.__slots__:
            if name in fact:
                setattr(verdict, name, fact[name])
        if verdict.broken is not None:
            verdict.broken = (int(verdict.broken[0]), str(verdict.broken[1]))
        return verdict


def verify(
    rows: list[tuple[int, bytes, bool]],
    values: list[object],
    tip: Tip | None,
    *,
    tip_present: bool,
    size: int,
    expected: str = GENESIS,
    before: bytes | None = None,
    hashes: list[str] | None = None,
) -> Verdict:
    """Judge the chain over rows (line number, bytes, complete) and their parsed values: the
    whole ledger, or its tail when `expected` is the hash the first of them must carry (of the
    line `before` it, when there is one). `hashes` are the rows' own digests when the caller
    has them (the tail of a whole ledger already hashed)."""
    verdict = Verdict()
    verdict.lines = len(rows)
    if hashes is None:
        hashes = linehash.hexdigests([raw for _, raw, _ in rows])  # each line's, at once
    prevs = [value.get("prev") if type(value) is dict else None for value in values]
    if (
        prevs
        and prevs[0] == expected
        and prevs[1:] == hashes[:-1]
        and not is_seal(rows[0][0], values[0])
    ):
        judge_tip(verdict, len(rows), rows[-1][1], tip, tip_present=tip_present, size=size,
                  last=hashes[-1])  # fmt: skip
        return verdict  # every line links to the one before: no legacy lead, no seal, no break
    leading = True  # still inside the run of lines written before the chain
    for index, value in enumerate(values):
        if index == 0 and is_seal(rows[0][0], value):
            assert type(value) is dict
            verdict.sealed = str(value.get("archive"))
            expected, before = str(value.get("prev")), None  # the archived line's own hash
            if not is_hash(expected):
                verdict.broken = (rows[0][0], "the seal line carries no hash of the archived part")
                break
            continue
        prev = value.get("prev") if type(value) is dict else None
        if prev is None and leading and type(value) is dict:
            verdict.legacy += 1
        else:
            leading = False
            if prev != expected and (before is None or prev != earlier(before)):
                verdict.broken = (rows[index][0], why(prev, index))
                break
        expected, before = hashes[index], rows[index][1]
    verdict.unsealed = leading and verdict.legacy > 0
    judge_tip(verdict, len(rows), rows[-1][1] if rows else None, tip,
              tip_present=tip_present, size=size, last=hashes[-1] if hashes else "")  # fmt: skip
    return verdict


def why(prev: object, index: int) -> str:
    if prev is None:
        return "no `prev`: a line added by hand, or by a writer that does not chain"
    if index == 0:
        return "the first line's `prev` is not the chain's start: lines before it were removed"
    return (
        "`prev` is not the hash of the line before it: a line was edited, removed, "
        "inserted or moved"
    )


def judge_tip(
    verdict: Verdict,
    count: int,
    last_line: bytes | None,
    tip: Tip | None,
    *,
    tip_present: bool,
    size: int,
    last: str,
) -> None:
    """The tip's word on a ledger of `count` lines and `size` bytes whose last line is
    `last_line` (hashing to `last`)."""
    chained = count > verdict.legacy + (1 if verdict.sealed is not None else 0)
    if tip is None:
        if tip_present:
            verdict.tip_problem = f"{TIP} is not a tip (damaged or written by hand)"
        elif chained or verdict.sealed is not None:
            verdict.tip_problem = f"{TIP} is missing, though the ledger is chained"
        return
    if not tip.vouches(size, last) and not (
        last_line is not None and tip.vouches(size, earlier(last_line))
    ):
        verdict.tip_problem = (
            f"the ledger ({size} bytes) is not the one {TIP} vouches for ({tip.size} bytes): "
            "its newest lines were edited, removed or added"
        )


def findings(verdict: Verdict, shown: str) -> Iterator[Finding]:
    """The chain's FAILs (a break, a tip that does not vouch) and the legacy lead as INFO."""
    tip = f"{shown.rsplit('/', 1)[0]}/{TIP}"
    if verdict.broken is not None:
        number, why = verdict.broken
        before = ""
        if number > 1:
            before = f"sed -n '{number - 1}p' {shown} | tr -d '\\n' | b2sum -l 256; "
        reproduce = f"{before}sed -n '{number}p' {shown}"
        yield Finding(
            "FAIL", "ledger", f"{shown}:{number}", f"hash chain broken — {why}", reproduce
        )
    if verdict.tip_problem is not None:
        reproduce = (
            f"cat {tip}; echo; wc -c < {shown}; tail -n 1 {shown} | tr -d '\\n' | b2sum -l 256; "
            f"tail -n 1 {shown}"
        )
        yield Finding("FAIL", "ledger", tip, verdict.tip_problem, reproduce)
    if verdict.legacy:
        first = 2 if verdict.sealed is not None else 1
        span = f"lines {first}–{first + verdict.legacy - 1}"
        said = (
            "the next append seals them"
            if verdict.unsealed
            else f"line {first + verdict.legacy} seals them"
        )
        message = f"{span} predate the hash chain: accepted once; {said}"
        yield Finding("INFO", "ledger", shown, message)
