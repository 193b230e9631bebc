"""`mj-state decision-add | decision-list | decision-show`: the append-only decision log.

`decision-add` computes Task (the active task here, else `-`) and Head, appends one entry and
one `decision.recorded` ledger line; a credential in a field refuses it (15) unless `--redact`.
`decision-list` is newest first; `decision-show` prints the first entry whose title contains the
text, else 12.
"""

from __future__ import annotations

import argparse

from mj_core import clock
from mj_core.errors import MissingArtifact
from mj_core.git import questions as git
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.ledger import store as ledger
from mj_state.records import bodies
from mj_state.records import decisions
from mj_state.records import writing

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def add(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    task = writing.active_here(layer)
    fields = _guarded(options)
    entry = decisions.build(
        decisions.read(layer.state),
        title=fields["title"],
        why=fields["why"],
        rejected=fields["rejected"],
        evidence=fields["evidence"],
        supersedes=options.supersedes,
        task_id=str(task["id"]) if task else None,
        head=git.head(layer.root),
        moment=clock.now(),
    )
    task_id = str(task["id"]) if task else None
    payload = {"decision": entry.title}
    decisions.append(
        layer.state,
        entry,
        then=lambda text: ledger.append(
            layer.root,
            layer.state,
            "decision.recorded",
            {**payload, "entry": text},
            task_id=task_id,
        ),
    )
    yield {
        **shown(entry),
        "action": "recorded",
        "path": layer.relative(decisions.path(layer.state)),
    }


def _guarded(options: argparse.Namespace) -> dict[str, Any]:
    """The fields a person wrote, each refused (15) or redacted when it holds a credential."""
    shown = {"title": "the title", "why": "--why", "rejected": "--rejected",
             "evidence": "--evidence"}  # fmt: skip
    return {
        key: None if getattr(options, key) is None
        else bodies.guarded(getattr(options, key), f"decision add {flag}", redact=options.redact)
        for key, flag in shown.items()
    }  # fmt: skip


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
    "decision-add": Stage(add),
    "decision-list": Stage(listing),
    "decision-show": Stage(show),
}
