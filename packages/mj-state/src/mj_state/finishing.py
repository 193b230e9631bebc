"""The state side of `finish`: the facts the contract is judged on, the verification run, the write.

`facts` gathers what `mj_watch.contract` judges (JSON-native). `verify` runs the worker's
verification command itself — an argument vector from `shlex.split`, never a shell — in the
repository root and records command, exit code and seconds. `record` writes only after every
line passed: the completion note, the task's outcome with refreshed git fields, `task.finished`.
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

from mj_core import atomic
from mj_core import clock
from mj_core import git
from mj_core import paths
from mj_core import yamlstrict
from mj_core.errors import UsageError
from mj_policy.layer import Layer

from mj_state import bodies
from mj_state import decisions
from mj_state import identity
from mj_state import ledger
from mj_state import questions
from mj_state import resolve
from mj_state import scope
from mj_state import tasks

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]


def verify(root: Path, command: str) -> Record:
    """Run `command` as an argument vector in `root`; its output goes to stderr."""
    import subprocess  # only `finish --verify-command` spawns the worker's command

    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"--verify-command {command!r}: {exc}") from None
    if not argv:
        raise UsageError("--verify-command is empty")
    began = time.monotonic()
    error = None
    try:
        proc = subprocess.run(
            argv, cwd=root, env=git.clean_env(), stdin=subprocess.DEVNULL,
            stdout=sys.stderr.fileno(), check=False,
        )  # fmt: skip
        code = proc.returncode
    except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
        code, error = (127 if isinstance(exc, FileNotFoundError) else 126), exc.strerror
    run: Record = {"command": command, "argv": argv, "exit": code}
    run["seconds"] = round(time.monotonic() - began, 2)
    if error:
        run["error"] = error
    return run


def facts(layer: Layer, task: Record, outcome: str, *, check_only: bool) -> Record:
    """Scope and state always; blockers, note, decisions and profile only for a real finish."""
    root, here = layer.root, resolve.here(layer.root)
    policy = layer.policy.data
    touched = scope.touched(root, str(task["head"]))
    allowed = scope.always_allowed(policy)
    out: Record = {
        "task_id": str(task["id"]),
        "outcome": outcome,
        "check_only": check_only,
        "finish_requires": list(policy["verification"]["finish_requires"]),
        "required_sections": list(policy["handover"]["required_sections"]),
        "scope": list(task["scope"]),
        "touched": touched,
        "outside": scope.outside(touched, list(task["scope"]), allowed),
        "base": str(task["head"]),
        "state": {"label": identity.label(root, task, here), "recorded_head": str(task["head"])},
        "profile": {},
        "paths": {
            "questions": layer.relative(questions.path(layer.state)),
            "decisions": layer.relative(decisions.path(layer.state)),
        },
    }
    if not check_only:
        out.update(_acceptance(layer, task, here))
    return out


def _acceptance(layer: Layer, task: Record, here: Record) -> Record:
    entries, bad = questions.load(layer.state)
    open_ = questions.unresolved_for(entries, str(task["id"]))
    profile = layer.profile(str(task["profile"])).data.get("verification") or {}
    logged = decisions.read(layer.state)
    return {
        "profile": {key: bool(value) for key, value in profile.items()},
        "blockers": [{"lineno": e.lineno, "question": e.question} for e in open_],
        "malformed_questions": [{"lineno": m.lineno, "text": m.text} for m in bad],
        "decision_recorded": any(e.fields.get("Task") == task["id"] for e in logged),
        "note": newest_handover(layer, task, here),
    }


def newest_handover(layer: Layer, task: Record, here: Record) -> Record:
    """The newest handover of this worktree and branch that names the task."""
    for found, front, body in resolve.scan(layer.root, layer.state, "handover", here):
        if front.get("task_id") == task["id"] and identity.same_checkout(front, here):
            return note_facts(f"handover {found.name}", layer.relative(found), body)
    return {"source": None, "path": None, "sections": []}


def note_facts(source: str, shown: str, body: str) -> Record:
    present = [name for name, text in bodies.sections(body).items() if not bodies.is_empty(text)]
    return {"source": source, "path": shown, "sections": present}


def read_note(layer: Layer, argument: str) -> tuple[Record, str]:
    """`--note <file>` inside the repository (an escape → 15); its optional YAML block is kept."""
    relative = paths.repo_relative(layer.root, argument, what="--note")
    text = yamlstrict.read_text(layer.root / relative, relative)
    body = text
    if text.startswith("---\n") and "\n---\n" in text[4:]:
        body = text[4:].split("\n---\n", 1)[1]
    return note_facts(f"--note {relative}", relative, body), text


def record(
    layer: Layer,
    task: Record,
    *,
    outcome: str,
    contract: dict[str, str],
    run: Record | None,
    note_text: str,
) -> Record:
    """Write the outcome: the note copy, the task record, then the ledger line."""
    completed = layer.state / "completed" / f"{task['id']}.md"
    here = identity.identity(layer.root)
    stamp = clock.iso(clock.now())
    finished = {**task, **here, "outcome": outcome, "checkpoint_at": stamp}
    verify_record = {k: run[k] for k in ("command", "exit", "seconds")} if run else None
    payload: Record = {"outcome": outcome, "contract": contract, "verify": verify_record}
    payload["checkpoints"] = checkpoints(layer, str(task["id"]))

    def line() -> None:  # the last of the three writes: all of them land, or none
        ledger.append(layer.root, layer.state, "task.finished", payload, task_id=str(task["id"]))

    atomic.create(
        completed,
        note_text.encode("utf-8"),
        mode=0o600,
        then=lambda: tasks.write_current(layer, finished, replace=True, then=line),
    )
    return {"note": layer.relative(completed), "head": here["head"]}


def checkpoints(layer: Layer, task_id: str) -> int:
    return sum(
        1
        for line in ledger.read(ledger.path(layer.state))
        if line.record
        and line.record.get("event") == "task.checkpoint"
        and line.record.get("task_id") == task_id
    )
