"""`mj-state record`: the one write of `finish` — the verdict `mj-watch finish` gave, recorded.

It passes the judge's stream on; a `verdict` record of a met contract (and only that) becomes
the write: the completion note copied, `task.finished` appended (with the verified tree), the
task's copy written anew. An upstream that stopped, or a refused contract, writes nothing.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_core.write import atomic
from mj_policy.layer.loader import Layer
from mj_policy.layer.loader import load

from mj_state import identity
from mj_state.finish import steps as finishing
from mj_state.ledger import store as ledger
from mj_state.records import writing
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    arrived = list(context.records(options.input))
    for record in arrived:
        if record.get("kind") != "verdict":
            yield record
            continue
        written = _record(context, record)
        yield written
        yield from _published(context, str(written["task_id"]))


def _published(context: Context, task_id: str) -> Iterator[Record]:
    """With a remote: the task's claims released and the ledger published (a sync). The finish
    is recorded either way; a remote that cannot be reached says so (12, or a WARN when
    `remote.required` is false) and the next `majordomus sync` publishes it."""
    layer = load(context.root())
    from mj_state import mirror

    if not mirror.configured(layer.policy.data):
        return
    from mj_core.findings import Finding

    from mj_state.remote import config as remoteconf
    from mj_state.remote import hooks
    from mj_state.remote import transport

    hooks.release_task(layer, task_id)
    try:
        yield from hooks.publish(layer)
    except transport.Unreachable as exc:
        found = remoteconf.of(layer.policy.data)
        why = exc.message.removesuffix("; nothing was written")
        said = f"finish {task_id} is recorded here; {why}"
        if found is not None and found.required:
            raise transport.Unreachable(f"{said} — run `majordomus sync` to publish it") from None
        message = f"{said}; the next `majordomus sync` releases its claims and publishes it"
        yield Finding("WARN", "remote", task_id, message, "majordomus sync").record()


def _record(context: Context, verdict: Record) -> Record:
    from mj_core.errors import Refused

    layer = load(context.root())
    task = taskstate.read(layer).active_record()
    if task is None or task["id"] != verdict["task"]["id"]:
        raise Refused("finish: the task judged is not this checkout's active task; nothing written")
    written = record(
        layer,
        task,
        outcome=str(verdict["outcome"]),
        contract=dict(verdict["contract"]),
        run=verdict.get("run"),
        note_text=str(verdict["note_text"]),
        outside=[str(p) for p in verdict.get("scope_violations") or []],
    )
    return {
        "kind": "record",
        "action": "finished",
        "task_id": task["id"],
        "outcome": verdict["outcome"],
        "blocking": [],
        **written,
    }


def record(
    layer: Layer,
    task: Record,
    *,
    outcome: str,
    contract: dict[str, str],
    run: Record | None,
    note_text: str,
    outside: list[str] | None = None,
) -> Record:
    """Write the outcome: the note copy, the ledger line, then the task's copy from it.
    `outside`: the paths outside the task's scope an abandoning outcome records, on the
    ledger line and below the note."""
    listed, more = _listed(outside or [])
    completed = layer.state / "completed" / f"{task['id']}.md"
    text = note_text + _outside_section(outcome, listed, more)
    atomic.create(completed, text.encode("utf-8"), mode=0o600)
    here = identity.identity(layer.root)
    moment = clock.now()
    verify_record: Record | None = None
    if run:
        verify_record = {k: run[k] for k in ("command", "exit", "seconds", "tree") if k in run}
        verify_record["runs"] = [
            {k: one[k] for k in ("command", "exit", "seconds", "program", "sha256") if k in one}
            for one in run.get("runs", [])
        ]
    payload: Record = {"outcome": outcome, "contract": contract, "verify": verify_record}
    payload["checkpoints"] = finishing.checkpoints(layer, str(task["id"]))
    if listed:
        payload["scope_violations"] = listed
    if more:
        payload["scope_violations_more"] = more
    payload["working_tree"] = here["working_tree"]
    ledger.append(
        layer.root,
        layer.state,
        "task.finished",
        payload,
        task_id=str(task["id"]),
        where=here,
        moment=moment,
    )
    refreshed = {**task, "head": here["head"], "working_tree": here["working_tree"]}
    writing.touch(layer, refreshed, moment, here, outcome=outcome)
    return {"note": layer.relative(completed), "head": here["head"]}


_LISTED = 50  # paths a finish lists at most; the rest are counted
_LISTED_CHARS = 16 * 1024  # nor more characters of them (a ledger line is at most 64 KiB)


def _listed(paths: list[str]) -> tuple[list[str], int]:
    """(the paths listed, how many more there were)."""
    listed: list[str] = []
    size = 0
    for path in paths:
        size += len(path)
        if len(listed) == _LISTED or size > _LISTED_CHARS:
            break
        listed.append(path)
    return listed, len(paths) - len(listed)


def _outside_section(outcome: str, listed: list[str], more: int) -> str:
    if not listed:
        return ""
    lines = [f"- {path}" for path in listed] + ([f"- … and {more} more"] if more else [])
    return (
        f"\n# Outside the claimed scope\n(recorded by `majordomus finish --outcome {outcome}`)\n"
        + "\n".join(lines)
        + "\n"
    )


STAGES = {"record": Stage(run)}
