"""`mj-state question-list`: the open-questions index read back.

Unresolved questions (`--all` adds the resolved ones), optionally one task's. A question is
opened and resolved by `question add`'s and `question resolve`'s stages (`mj_state.question`).
"""

from __future__ import annotations

import argparse

from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.records import questions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def listing(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    entries, _ = questions.load(layer.state)
    for entry in entries:
        if (entry.resolved and not options.all) or (options.task and entry.task_id != options.task):
            continue
        yield {
            "kind": "record",
            "number": entry.number,
            "state": "resolved" if entry.resolved else "unresolved",
            "task_id": entry.task_id,
            "question": entry.question,
            "date": entry.date,
            "answer": entry.answer,
        }


STAGES = {
    "question-list": Stage(listing),
}
