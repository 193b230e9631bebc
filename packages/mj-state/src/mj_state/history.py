"""`mj-state history`: read the ledger back; `--validate` judges it; `--rotate` caps it.

Read-only except `--rotate`, which moves all but the newest `ledger.retention_max_lines` lines
to `ledger.<utc-compact>.jsonl.archived` under the ledger's lock, never deletes, refuses (15) to
overwrite an archive, and appends one `ledger.rotated` line.
"""

from __future__ import annotations

import argparse
import os

from mj_core import atomic
from mj_core import clock
from mj_core.cli import Context
from mj_core.cli import Stage
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_policy.layer import Layer
from mj_policy.layer import load

from mj_state import ledger

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--task", help="only lines for this task id")
    parser.add_argument("--event", help="only this event (a name from share/events.yaml)")
    parser.add_argument("--since", help="only lines newer than <n>m|h|d or an ISO timestamp")
    amount = parser.add_mutually_exclusive_group()
    amount.add_argument("--limit", type=int, default=20, help="newest matches to show (20)")
    amount.add_argument("--all", action="store_true", help="every match")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--validate", action="store_true", help="report every malformed line")
    mode.add_argument("--rotate", action="store_true", help="archive lines over the cap")


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    if options.validate:
        yield from (finding.record() for finding in validate(layer))
    elif options.rotate:
        yield rotate(layer)
    else:
        yield from select(layer, options)


def since(text: str) -> str:
    """The ISO threshold `--since` names; malformed → 2."""
    seconds = clock.parse_duration(text)
    if seconds is not None:
        return clock.iso(clock.now() - seconds)
    if clock.parse_iso(text) is not None:
        return text
    raise UsageError(f"history: --since {text!r}: use <n>m, <n>h, <n>d or 2026-09-03T19:30:12Z")


def select(layer: Layer, options: argparse.Namespace) -> Iterator[Record]:
    if options.event and options.event not in ledger.vocabulary():
        raise UsageError(f"history: --event {options.event!r} is not declared in share/events.yaml")
    if options.limit < 1 and not options.all:
        raise UsageError("history: --limit takes a positive number")
    threshold = since(options.since) if options.since else None
    limit = None if options.all else int(options.limit)
    needles = [
        name.encode("utf-8", "surrogateescape") for name in (options.task, options.event) if name
    ]
    kept: list[Record] = []
    skipped: list[Record] = []
    for number, text, complete in reversed(ledger.raw_lines(ledger.path(layer.state))):
        if limit is not None and len(kept) >= limit:
            break  # newest first until enough: a long ledger is parsed only as far as needed
        if not all(needle in text for needle in needles):
            continue  # cannot match; not parsed
        line = ledger.parse(number, text, complete=complete)
        if line.record is None or line.error:
            skipped.append({"kind": "skipped", "lineno": number, "error": line.error})
        elif _matches(line.record, options.task, options.event, threshold):
            raw = text.decode("utf-8", "replace")
            kept.append({"kind": "event", "lineno": number, "record": line.record, "raw": raw})
    yield from reversed(kept)
    yield from reversed(skipped)


def _matches(record: Record, task: str | None, event: str | None, threshold: str | None) -> bool:
    if task and record.get("task_id") != task:
        return False
    if event and record.get("event") != event:
        return False
    return not threshold or str(record.get("ts")) >= threshold


def validate(layer: Layer) -> Iterator[Finding]:
    target = ledger.path(layer.state)
    shown = layer.relative(target)
    count, bad = ledger.problems(target)
    for number, reason in bad:
        yield Finding("FAIL", "ledger", f"{shown}:{number}", reason, f"sed -n '{number}p' {shown}")
    if not bad:
        yield Finding("OK", "ledger", shown, f"{count} line(s), each an object with ts and event")


def rotate(layer: Layer) -> Record:
    target = ledger.path(layer.state)
    cap = int(layer.policy.data["ledger"]["retention_max_lines"])
    if not target.exists():
        return {"kind": "record", "action": "rotate", "moved": 0, "lines": 0, "cap": cap}
    archive = target.with_name(f"ledger.{clock.compact(clock.now())}.jsonl.archived")
    with atomic.locked(target) as fd:
        lines = os.pread(fd, os.fstat(fd).st_size, 0).splitlines(keepends=True)
        if len(lines) <= cap:
            return {
                "kind": "record",
                "action": "rotate",
                "moved": 0,
                "lines": len(lines),
                "cap": cap,
            }
        moved, kept = lines[: len(lines) - cap], lines[len(lines) - cap :]
        if archive.exists():
            raise Refused(f"{layer.relative(archive)}: already exists; nothing was moved")
        atomic.create(archive, b"".join(moved), mode=0o600)
        atomic.create(target, b"".join(kept), mode=0o600, replace=True)
    payload = {"archived": len(moved), "kept": len(kept), "archive": layer.relative(archive)}
    ledger.append(layer.root, layer.state, "ledger.rotated", payload)
    return {
        "kind": "record",
        "action": "rotate",
        "moved": len(moved),
        "lines": len(lines),
        "cap": cap,
        "archive": payload["archive"],
    }


STAGES = {"history": Stage("read the ledger back; --validate, --rotate", arguments, run)}
