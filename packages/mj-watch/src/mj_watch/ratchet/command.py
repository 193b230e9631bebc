"""`ratchet check` and `ratchet update`: existing dirt is ratcheted, new dirt is blocked.

The judge (`mj-watch ratchet`) reads the `ratchet` fact: a metric at or below its accepted
count is OK, above it FAILs naming both numbers and how it is counted, without an accepted
count it WARNs and passes; a metric that could not be counted FAILs. A secret-shaped string
in the tracked tree is a hard zero, never ratcheted: each FAILs naming the file and line, never
the value. `ratchet update` is `mj-watch ratchet-update-judge` (a count that went up is refused, 15,
unless `--allow-increase --why`) and `mj-watch ratchet-update-write` (the current counts written
as the baseline and recorded in the ledger, `ratchet.updated`, with `ratchet.raised` and the
reason for a rise). A
baseline that differs from the newest recorded counts was edited by hand, and FAILs.
"""

from __future__ import annotations

import shlex

from mj_core.errors import MissingArtifact
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

from mj_watch.ratchet.facts import BASELINE
from mj_watch.ratchet.facts import DECLARATION

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

CATEGORY = "ratchet"
LEDGER = ".ai/local/state/ledger.jsonl"


def _fact(records: Iterable[Record]) -> Record:
    for record in records:
        if record.get("kind") == "fact" and record.get("fact") == "ratchet":
            return record
    raise MissingArtifact(
        "ratchet: the facts carry no ratchet fact — `mj-watch facts --for ratchet`"
    )


def findings(told: Record) -> Iterator[Finding]:
    baseline = told.get("baseline")
    if not told.get("declared"):
        yield Finding(
            "WARN", CATEGORY, DECLARATION, "absent: no metric is ratcheted (the secret scan runs)"
        )
    yield from _vouched(baseline, told.get("recorded"))
    yield from _altered(told.get("altered"))
    for metric in told.get("metrics") or []:
        yield _judged(metric, baseline)
    for hit in told.get("secrets") or []:
        path, line, kind = hit["path"], hit["line"], hit["class"]
        yield Finding(
            "FAIL",
            CATEGORY,
            f"{path}:{line}",
            f"a secret-shaped string ({kind}) in the tracked tree — a hard zero, never "
            "ratcheted: remove it from the file and its history, and rotate the credential",
            f"majordomus ratchet check --json | grep -F -e {shlex.quote(f'{path}:{line}')}",
        )


def _vouched(baseline: dict[str, int] | None, recorded: Record | None) -> Iterator[Finding]:
    """The baseline against what `ratchet update` last recorded in this checkout's ledger: a
    count raised by editing the file, not by `update --allow-increase --why`, FAILs."""
    if baseline is None:
        return
    if recorded is None:
        said = "written by no `ratchet update` in this checkout (as a fresh clone has it)"
        yield Finding("INFO", CATEGORY, BASELINE, said)
        return
    if recorded.get("counts") != baseline:
        message = (
            f"differs from the counts `ratchet update` recorded at ledger line {recorded['line']} "
            "— edited outside `majordomus ratchet update`; its counts are not accepted"
        )
        reproduce = f"git diff -- {BASELINE}; sed -n '{recorded['line']}p' {LEDGER}"
        yield Finding("FAIL", CATEGORY, BASELINE, message, reproduce)


def _altered(altered: Record | None) -> Iterator[Finding]:
    """Each file of the rules the active task started under that changed since, unless the
    task's claims name it: the metrics are counted as the task's head declared them."""
    from mj_core import paths

    if altered is None:
        return
    for path in altered.get("paths") or []:
        if not paths.claimed(path, list(altered["scope"])):
            message = (
                "changed since the active task started, and no claim names it — the metrics "
                "are counted as the task's start declared them"
            )
            base = str(altered.get("base") or "HEAD")[:12]
            yield Finding(
                "FAIL", CATEGORY, path, message, f"git diff {base} -- {shlex.quote(path)}"
            )


def _judged(metric: Record, baseline: dict[str, int] | None) -> Finding:
    name, count = metric["name"], metric.get("count")
    how = _how(metric)
    if count is None:
        message = f"could not be counted: {metric.get('problem')} ({how})"
        return Finding("FAIL", CATEGORY, name, message, _reproduce(metric))
    accepted = (baseline or {}).get(name)
    if accepted is None:
        message = (
            f"{count}, no accepted count in {BASELINE} — `majordomus ratchet update` records it"
        )
        return Finding("WARN", CATEGORY, name, message)
    if count > accepted:
        message = f"{count}, up from the accepted {accepted} ({how}) — new dirt is blocked"
        return Finding("FAIL", CATEGORY, name, message, _reproduce(metric))
    return Finding("OK", CATEGORY, name, f"{count}, accepted {accepted}")


def _how(metric: Record) -> str:
    if "command" in metric:
        return "counted by " + shlex.join(metric["command"])
    under = f" under {metric['under']}" if metric.get("under") else ""
    return f"tracked lines containing {metric['text']!r}{under}"


def _reproduce(metric: Record) -> str:
    if "command" in metric:
        return shlex.join(metric["command"])
    under = f" -- {shlex.quote(metric['under'])}" if metric.get("under") else ""
    return f"git grep -F -e {shlex.quote(metric['text'])}{under} | wc -l"


def _check(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    for finding in findings(_fact(context.records(options.input))):
        yield finding.record()


STAGES = {"ratchet": Stage(_check)}
