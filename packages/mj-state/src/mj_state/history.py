"""`mj-state history`: read the ledger back; `--validate` judges it. Read-only: `history
--rotate`, which caps it, is `mj_state.ledger.rotate` (facts | judge | writer).
"""

from __future__ import annotations

import argparse

from mj_core import clock
from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import Layer
from mj_policy.layer.loader import load

from mj_state.ledger import chain
from mj_state.ledger import store as ledger

DEFAULT_LIMIT = 20  # `history` shows the newest 20 matches unless told otherwise

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    if options.validate:
        yield from (finding.record() for finding in validate(layer))
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
    threshold = since(options.since) if options.since else None
    limit = None if options.all else int(options.limit or DEFAULT_LIMIT)
    needles = [
        name.encode("utf-8", "surrogateescape") for name in (options.task, options.event) if name
    ]
    kept: list[Record] = []
    skipped: list[Record] = []
    for number, text, complete in ledger.newest_first(ledger.path(layer.state)):
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
    if options.format == "json":  # the stored lines verbatim
        yield from ({"kind": "text", "text": event["raw"] + "\n"} for event in reversed(kept))
        return
    yield from reversed(kept)
    yield from reversed(skipped)


def _matches(record: Record, task: str | None, event: str | None, threshold: str | None) -> bool:
    if task and record.get("task_id") != task:
        return False
    if event and record.get("event") != event:
        return False
    return not threshold or str(record.get("ts")) >= threshold


def validate(layer: Layer, found: ledger.Scan | None = None) -> Iterator[Finding]:
    """Every malformed line, the first link where the hash chain breaks, and the tip's word.
    Read here (no `found`) without a remote, the ledger is judged a block at a time
    (`ledger.blocks`): memory does not grow with its length."""
    target = ledger.path(layer.state)
    shown = layer.relative(target)
    witnessed = found is None and isinstance(layer.policy.data.get("remote"), dict)
    if found is None and not witnessed:
        from mj_state.ledger import blocks as ledgerblocks

        judged = ledgerblocks.judge(target)
        yield from _verdict(judged.problems, judged.chain, judged.lines, shown)
        return
    found = ledger.scan(target) if found is None else found
    yield from _verdict(found.problems, found.chain, len(found.rows), shown)
    if witnessed:  # doctor judges the mirror from its own fact (`remote-witness`)
        yield from _witnessed(layer, found, shown)


def _verdict(
    problems: list[tuple[int, str]], verdict: chain.Verdict, count: int, shown: str
) -> Iterator[Finding]:
    for number, reason in problems:
        yield Finding("FAIL", "ledger", f"{shown}:{number}", reason, f"sed -n '{number}p' {shown}")
    yield from chain.findings(verdict, shown)
    if not problems and verdict.ok:
        yield Finding("OK", "ledger", shown, _summary(count, verdict))


def _witnessed(layer: Layer, found: ledger.Scan, shown: str) -> Iterator[Finding]:
    """With a remote: whether the ledger still holds what the last sync saw published
    (`mirror.configured`, asked here first: without a `remote:` block the mirror's code is
    not loaded)."""
    from mj_state import mirror

    fact = mirror.witness(layer, found.rows, found.hashes or [])
    yield from mirror.witness_findings(fact, shown)


def _summary(count: int, verdict: chain.Verdict) -> str:
    text = f"{count} line(s), each an object with ts and event"
    if count > verdict.legacy:
        text += ", hash-chained"
    if verdict.sealed:
        text += f" on from {verdict.sealed}"
    return text


STAGES = {"history": Stage(run, raw=True)}
