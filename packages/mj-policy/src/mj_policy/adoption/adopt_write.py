"""`mj-policy adopt-write` (what `majordomus init --import` ends with): the rules its verdict
names, each a new file under `.ai/repo/rules/project/`, and nothing written outside `.ai/`.

It passes the judge's stream on but the pieces; an `adopt` verdict becomes the writes. It does
not take the verdict on trust: it gathers the fact again over the pieces it was given and
judges again, and a verdict that differs (a rule added or edited, a piece carried since
judging, a replay) writes nothing (15). The instruction files themselves are left as they are:
`majordomus update` replaces them with projections afterwards (`mj_policy.adoption.handover`),
once each piece of them is carried by a rule.
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_core.write import atomic

from mj_policy.adoption import adopt_facts
from mj_policy.adoption import adopt_judge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    pieces: list[Record] = []
    for record in context.records(getattr(options, "input", None)):
        if record.get("kind") == "piece":
            pieces.append(record)
        elif record.get("kind") == "verdict" and record.get("action") == "adopt":
            yield from adopt(context.root(), record, pieces)
        else:
            yield record


def adopt(root: Path, verdict: Record, pieces: list[Record]) -> Iterator[Record]:
    """The rules judged again over the layer as it is now, then written."""
    again = adopt_judge.judge(adopt_facts.gather(root, pieces))
    if [r for r in again if r.get("kind") == "verdict"] != [verdict]:
        raise Refused(
            "init --import: the verdict is not what the pieces and the layer give now; "
            "nothing was written"
        )
    for rule in verdict["rules"]:
        atomic.create(root / rule["file"], str(rule["text"]).encode("utf-8"), mode=0o644,
                      root=root)  # fmt: skip
        yield rule["record"]


STAGES = {"adopt-write": Stage(run)}
