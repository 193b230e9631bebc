"""`history --rotate` as facts | judge | writer: `mj-state rotate-facts | rotate-judge |
rotate-write`.

The facts: the ledger as scanned (its lines, whether its hash chain holds, whether it opens with
a seal, the first line the active task holds), the policy's `ledger.retention_max_lines`, the
archive a rotation now would write (`ledger.<utc-compact>.jsonl.archived`) and whether that name
is taken. The judge: a chain that does not hold is 10; how many lines move
(`mj_state.ledger.rotation`: the oldest, until the newest `retention_max_lines` remain behind the
seal, never the active task's); none is the record of a rotation that moved nothing; an archive
name already taken is 15; else a verdict. The writer, under the ledger's lock, scans again and
judges again for the verdict's archive name (a stamp, in the ledger's directory), and moves only
when that is the verdict: a verdict judged before the ledger moved, edited, or replayed moves
nothing (15). It never
deletes: the moved lines go to the archive behind a seal line, then one `ledger.rotated` line.
"""

from __future__ import annotations

import os
import re

from mj_core import clock
from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.stream import jsonl
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.ledger import chain
from mj_state.ledger import rotation
from mj_state.ledger import store as ledger

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

STAMP = re.compile(r"^\d{8}T\d{6}Z$")  # `clock.compact`: an archive's name, nothing else


def gather(layer: Layer, stamp: str) -> Record:
    """The `ledger-rotate` fact for an archive stamped `stamp` (the writer's, under the lock)."""
    target = ledger.path(layer.state)
    archive = target.with_name(f"ledger.{stamp}.jsonl.archived")
    fact: Record = {"kind": "fact", "fact": "ledger-rotate", "ledger": layer.relative(target),
                    "cap": int(layer.policy.data["ledger"]["retention_max_lines"]),
                    "archive": layer.relative(archive), "taken": archive.exists(),
                    "present": target.exists(), "lines": 0, "chain_ok": True, "sealed": False,
                    "held": None}  # fmt: skip
    if fact["present"]:
        found = ledger.scan(target)
        fact.update(lines=len(found.rows), chain_ok=found.chain.ok,
                    sealed=rotation.sealed(found.values),
                    held=rotation.held_from(found.values))  # fmt: skip
    return fact


def judge(fact: Record) -> Record:
    """The verdict of a rotation, or the record of one that moves nothing; a refusal raised."""
    cap, lines, sealed, held = (
        int(fact["cap"]),
        int(fact["lines"]),
        bool(fact["sealed"]),
        fact["held"],
    )
    nothing = {"kind": "record", "action": "rotate", "moved": 0, "lines": 0, "cap": cap,
               "counted": 0, "held": 0}  # fmt: skip
    if not fact["present"]:
        return nothing
    if not fact["chain_ok"]:
        raise ContractUnmet(
            f"{fact['ledger']}: the hash chain does not hold; nothing was rotated "
            "(see `majordomus history --validate`)"
        )
    count = rotation.movable(lines, cap, is_sealed=sealed, held=held)
    counted = rotation.counted(lines, is_sealed=sealed)
    nothing.update(lines=lines, counted=counted, held=lines - held if held is not None else 0)
    if not count:
        return nothing
    if fact["taken"]:
        raise Refused(f"{fact['archive']}: already exists; nothing was moved")
    return {**nothing, "kind": "verdict", "action": "ledger-rotate", "archive": fact["archive"],
            "cut": count + (1 if sealed else 0)}  # fmt: skip


def write(layer: Layer, verdict: Record) -> Record:
    """The rotation judged again under the ledger's lock, then made."""
    archive = str(verdict.get("archive"))
    stamp = archive.rsplit("/", 1)[-1].removeprefix("ledger.").removesuffix(".jsonl.archived")
    target = ledger.path(layer.state)
    from mj_core.write import atomic  # the one writer here: the rest of history reads

    with atomic.locked(target) as fd:
        again = judge(gather(layer, stamp)) if STAMP.match(stamp) else None
        if again != verdict:
            raise Refused(
                "history --rotate: the verdict is not what the ledger holds now; nothing was "
                "moved (run: majordomus history --rotate)"
            )
        found = ledger.scan(target)
        data = os.pread(fd, os.fstat(fd).st_size, 0)
        lines = data.splitlines(keepends=True)
        cut = int(verdict["cut"])
        # the old seal opens the new archive (its chain runs on from there), never dropped
        moved, kept = lines[:cut], lines[cut:]
        seal = _seal(layer, archive, len(moved), found.rows[cut - 1][1])
        atomic.create(layer.root / archive, b"".join(moved), mode=0o600)
        body = seal + b"".join(kept)
        last = chain.digest(body.rstrip(b"\n").rsplit(b"\n", 1)[-1])
        # The tip first: a writer that opens the new file before this lock is released must
        # find the tip that vouches for it (the old file's writers wait on this lock).
        ledger.write_tip(target, chain.Tip(len(body), last))
        atomic.create(target, body, mode=0o600, replace=True)
    payload = {"archived": len(moved), "kept": len(kept), "archive": archive}
    ledger.append(layer.root, layer.state, "ledger.rotated", payload)
    return {"kind": "record", "action": "rotate", "moved": len(moved), "lines": len(kept) + 2,
            "cap": verdict["cap"], "counted": len(kept) + 1, "held": verdict["held"],
            "archive": archive, "kept": len(kept)}  # fmt: skip


def _seal(layer: Layer, archive: str, archived: int, last: bytes) -> bytes:
    line = ledger.envelope(
        layer.root, layer.state, chain.SEAL, {"archive": archive, "archived": archived}
    )
    line["prev"] = chain.digest(last)
    return jsonl.dumps(line)


def _facts(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield gather(load(context.root()), clock.compact(clock.now()))


def _judge(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield judge(context.the_fact(options.input, "ledger-rotate", "mj-state rotate-facts"))


def _write(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "ledger-rotate", lambda verdict: (write(load(context.root()), verdict),)
    )


STAGES = {
    "rotate-facts": Stage(_facts),
    "rotate-judge": Stage(_judge),
    "rotate-write": Stage(_write),
}
