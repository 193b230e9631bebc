"""`mj-state decision-list | decision-show`: the append-only decision log read back.

`decision-list` is newest first; `decision-show` prints the first entry whose title contains the
text, else 12. An entry is added by `decision add`'s stages (`mj_state.decision`).
"""

from __future__ import annotations

import argparse

from mj_core.errors import MissingArtifact
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.records import decisions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def listing(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    entries = list(reversed(decisions.read(load(context.root()).state)))
    if options.task:
        entries = [entry for entry in entries if entry.fields.get("Task") == options.task]
    if options.limit is not None:
        entries = entries[: max(options.limit, 0)]
    yield from (shown(entry) for entry in entries)


def show(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    found = decisions.matching(decisions.read(layer.state), options.text)
    if not found:
        raise MissingArtifact(
            f"{layer.relative(decisions.path(layer.state))}: no decision title contains "
            f"{options.text!r} — see `majordomus decision list`"
        )
    yield {**shown(found[0]), "text": found[0].text()}


def shown(entry: decisions.Entry) -> Record:
    return {
        "kind": "record",
        "action": "decision",
        "line": entry.line,
        "date": entry.date,
        "title": entry.title,
        **{key.lower(): entry.fields.get(key) for key in decisions.FIELDS},
    }


STAGES = {
    "decision-list": Stage(listing),
    "decision-show": Stage(show),
}
