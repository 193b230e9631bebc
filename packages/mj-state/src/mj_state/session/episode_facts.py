"""`mj-state episode [--episode <id>]`: the facts of one episode that a deriver of knowledge
candidates reads (`mj-knowledge derive-facts`), as one `episode` fact.

The episode: `--episode`, open here or closed (its record under `.ai/repo/sessions/`); else
the one open in this process (`mj_state.session.store.here_key`), else this checkout's newest
closed one; none → 12. Its facts are the ledger lines stamped with it (never a time window):
each decision recorded in it (its words, task, head and time) and each task started in it
(scope and issue); a decision under a task started earlier takes the task's scope and issue
from the task record when that is the task. `session close` ends an episode with the same
fact (`fact`), so the deriver runs after either.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.stream.stage import Stage

from mj_state.session import envelope
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def fact(root: Path, state: Path, session_id: str, where: Record, lines: list[Record]) -> Record:
    """The `episode` fact of the ledger lines stamped with `session_id`."""
    tasks: dict[str, Record] = {}
    decisions: list[Record] = []
    for line in lines:
        event, task_id = line.get("event"), line.get("task_id")
        if event == "task.started" and isinstance(task_id, str):
            tasks[task_id] = {"issue": line.get("issue"), "scope": list(line.get("scope") or [])}
        elif event == "decision.recorded" and isinstance(task_id, str):
            said = str(line.get("decision") or "")
            when = str(line.get("ts") or "")
            decisions.append({"decision": said, "task_id": task_id, "head": line.get("head"),
                              "ts": when})  # fmt: skip
    missing = {d["task_id"] for d in decisions} - set(tasks)
    if missing:
        tasks.update(_from_record(root, state, missing))
    return {"kind": "fact", "fact": "episode", "session_id": session_id,
            "branch": where.get("branch"), "head": where.get("head"), "tasks": tasks,
            "decisions": [d for d in decisions if d["decision"]]}  # fmt: skip


def _from_record(root: Path, state: Path, wanted: set[str]) -> dict[str, Record]:
    """The task record's scope and issue, when the record is one of the `wanted` tasks."""
    from mj_core.errors import MjError

    from mj_state.task import record as tasks

    target = state / "current.yaml"
    try:
        record = tasks.read_record(target, target.relative_to(root).as_posix())
    except (MjError, OSError, ValueError):
        return {}
    if record.get("id") not in wanted:
        return {}
    return {str(record["id"]): {"issue": record.get("issue"),
                                "scope": list(record.get("scope") or [])}}  # fmt: skip


def _named(root: Path, state: Path, ident: str) -> Record | None:
    """(branch, head) of episode `ident`: open here, else its newest closed record."""
    for key in sessions.open_keys(state):
        data = sessions.read_open(state, key, root)
        if data["session_id"] == ident:
            return {"branch": data["branch"], "head": data["start_head"]}
    names = sessions.recorded_ids(root).get(ident, [])
    if not names:
        return None
    front, _ = sessions.load_closed(sessions.closed_dir(root) / names[0], root)
    return {"branch": front["branch"], "head": front.get("head") or front["start_head"]}


def _chosen(root: Path, state: Path) -> tuple[str, Record] | None:
    """The episode open in this process, else this checkout's newest closed one."""
    key = sessions.here_key(state)
    if key is not None and sessions.open_path(state, key).is_file():
        data = sessions.read_open(state, key, root)
        return str(data["session_id"]), {"branch": data["branch"], "head": data["start_head"]}
    from mj_state import identity

    now = identity.identity(root)
    for name in sessions.closed_names(root):
        front, _ = sessions.load_closed(sessions.closed_dir(root) / name, root)
        if identity.same_checkout(front, now):
            head = front.get("head") or front["start_head"]
            return str(front["session_id"]), {"branch": front["branch"], "head": head}
    return None


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.layer.loader import load

    layer = load(context.root())
    root, state = layer.root, layer.state
    ident = getattr(options, "episode", None)
    if ident:
        if not sessions.is_session_id(ident):
            from mj_core.errors import UsageError

            raise UsageError(f"--episode {ident!r}: not an episode id (s-<14 digits>-<4 hex>)")
        where = _named(root, state, ident)
        if where is None:
            raise MissingArtifact(f"--episode {ident}: no such episode, open or closed")
        chosen = (ident, where)
    else:
        found = _chosen(root, state)
        if found is None:
            raise MissingArtifact(
                "no episode to derive from: none is open here and this checkout closed none "
                "— name one with --episode"
            )
        chosen = found
    yield fact(root, state, chosen[0], chosen[1], envelope.stamped(state, chosen[0]))


STAGES = {"episode": Stage(run)}
