"""`mj-watch verify-report`: `verify`'s findings passed on, and written as CI reads them when
asked — `--junit PATH` (JUnit XML, `junit`) and `--sarif PATH` (SARIF 2.1.0, `sarif`) — and,
with `--witness-out PATH`, what the remote held as this run judged it (the judge's
`verify-witness-next` fact, taken off the stream: the next run's `--witness`). Each file is
written once, atomically; an existing file is refused (15) before anything is written. A stream
that stopped upstream writes nothing."""

from __future__ import annotations

from pathlib import Path

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def _targets(options: argparse.Namespace, context: Context) -> list[tuple[Path, str]]:
    wanted = [
        (getattr(options, "junit", None), "junit"),
        (getattr(options, "sarif", None), "sarif"),
        (getattr(options, "witness_out", None), "witness-out"),
    ]
    out = []
    for given, what in wanted:
        if given:
            path = Path(given) if Path(given).is_absolute() else Path(context.cwd) / given
            if path.exists() or path.is_symlink():
                raise Refused(f"verify: {given} exists; the --{what} report never overwrites")
            out.append((path, what))
    return out


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    targets = _targets(options, context)
    findings = []
    kept: Record = {}
    for record in context.records(options.input):
        if record.get("fact") == "verify-witness-next":
            kept = {"format": 1, "head": record["head"], "ledgers": record["ledgers"]}
            continue
        if record.get("kind") == "finding":
            findings.append(record)
        yield record
    from mj_core.stream import jsonl
    from mj_core.write import atomic

    for path, what in targets:
        if what == "witness-out":
            if not kept:  # the judge never ran: nothing witnessed
                continue
            data = jsonl.dumps(kept)
        elif what == "junit":
            from mj_watch.verify import junit

            data = junit.document(findings)
        else:
            from mj_watch.verify import sarif

            data = sarif.document(findings)
        atomic.create(path, data, mode=0o644)
        yield {"kind": "record", "action": "wrote", "report": what, "path": str(path)}


STAGES = {"verify-report": Stage(_run)}
