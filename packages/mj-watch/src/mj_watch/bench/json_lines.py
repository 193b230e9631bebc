"""`majordomus bench --json`: JSON Lines, as every command's `--json` is — each target
(`bench-target`, with `--list`) or the run's result document (`benchmark`) and the findings of
`--check`, then the `summary` whose exit code is the command's. (`--format json` is the result
document alone, pretty-printed, for a file.)"""

from __future__ import annotations

from mj_core.stream import jsonl
from mj_core.stream import protocol as streams

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import IO
    from typing import Any

    from mj_watch.bench.targets import Target

STAGE = "majordomus bench"


def targets(out: IO[str], chosen: Iterable[Target]) -> int:
    count = 0
    for target in chosen:
        record = {"kind": "bench-target", "command": target.command, "class": target.klass}
        out.write(jsonl.dumps({**record, "accept": sorted(target.accept)}).decode())
        count += 1
    counts = {"bench-target": count} if count else {}
    out.write(jsonl.dumps(streams.summary(STAGE, 0, counts)).decode())
    return 0


def run(out: IO[str], doc: dict[str, Any], checked: list[dict[str, Any]]) -> None:
    """The result document, then each finding of `--check` (the summary comes with the verdict)."""
    out.write(jsonl.dumps({"kind": "benchmark", **doc}).decode())
    for finding in checked:
        out.write(jsonl.dumps(finding).decode())


def summary(out: IO[str], code: int, findings: int) -> None:
    counts = {"benchmark": 1, **({"finding": findings} if findings else {})}
    out.write(jsonl.dumps(streams.summary(STAGE, code, counts)).decode())
