"""`mj-state capture-prune-judge`: which prompt texts go, over `mj-state capture-prune-facts`.

A judge: it reads the one `capture-prune` fact on stdin (or a file) and never the repository.
A file that is not a capture record is a FAIL naming it (10; the others are still judged).
Oldest first, a text captured before `prompts.retention_max_days` goes, then texts while the
archive's texts are over `prompts.retention_max_bytes`. With `--dry-run` each is a
`prompt-record` not done; otherwise one `verdict` names them for `mj-state capture-prune-write`
(none when nothing goes).
"""

from __future__ import annotations

from mj_core import clock
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    fact = context.the_fact(options.input, "capture-prune", "mj-state capture-prune-facts")
    yield from bad(fact)
    going = judge(fact)
    if fact["dry_run"]:
        for item in going:
            yield entry(item, done=False)
    elif going:
        yield {"kind": "verdict", "action": "capture-prune", "pruned": going}


def bad(fact: Record) -> Iterator[Record]:
    for found in fact["records"]:
        if "problem" in found:
            yield failed(str(found["path"]), str(found["problem"]))


def failed(shown: str, why: str) -> Record:
    """The FAIL of a file of the archive that is not a capture record."""
    return Finding("FAIL", "prompts", shown, why, f"head -c 300 {shown}").record()


def judge(fact: Record) -> list[Record]:
    """The texts that go, oldest first: (path, bytes, reason)."""
    days, most = int(fact["days"]), int(fact["most"])
    threshold = clock.iso(int(fact["now"]) - days * 86400)
    kept = [found for found in fact["records"] if "problem" not in found]
    total = sum(int(found["bytes"]) for found in kept)
    going: list[Record] = []
    for found in kept:
        if str(found["captured_at"]) < threshold:
            reason = f"older than prompts.retention_max_days ({days})"
        elif total > most:
            reason = f"the archive's texts over prompts.retention_max_bytes ({most})"
        else:
            continue
        total -= int(found["bytes"])
        going.append({"path": found["path"], "bytes": found["bytes"], "reason": reason})
    return going


def entry(item: Record, *, done: bool) -> Record:
    return {"kind": "prompt-record", "action": "prune", "path": item["path"], "done": done,
            "detail": f"{item['bytes']} byte(s): {item['reason']}"}  # fmt: skip


STAGES = {"capture-prune-judge": Stage(run)}
