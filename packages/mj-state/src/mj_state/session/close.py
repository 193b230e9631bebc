"""`mj-state session-close`: end this process's episode with its immutable record.

The episode: `--provider-session`, else the environment's provider session when it is open
here, else the pointer. Nothing open → 12 (`--if-none ignore`: 0, nothing written). An optional
summary on stdin becomes the body (an identity-like line → 10). The steps, in an order a crash
between any two leaves for `recover` to finish: (1) publish `.ai/repo/sessions/<stamp>--<id>--
<branch-key>--<short-head>--<16 hex>.md` (0600) with its `session.closed` line (no line, no
record); (2) append `## Close` to the working context; (3) remove the open file; (4) aim the
pointer at the one episode still open, or remove it. The stream then carries the episode's
facts (`mj_state.session.episode_facts`), from which `mj-knowledge derive` after it writes
candidates.
"""

from __future__ import annotations

import sys

from mj_core import clock
from mj_core import files
from mj_core import limits
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.git import questions as git
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_core.yaml import strict as yamlstrict
from mj_policy.layer.loader import load

from mj_state import identity
from mj_state.ledger import store as ledger
from mj_state.records import bodies
from mj_state.session import envelope
from mj_state.session import record as sessionrecord
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

STDIN = "<stdin>"
# Test-only fault injection: called with each step's name before it runs. Production code never
# sets it; it can only simulate a crash between two steps.
_before_step: Callable[[str], None] | None = None


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    root, state = layer.root, layer.state
    named = options.provider_session
    if named is not None:
        sessions.checked_key(named)
    key = sessions.here_key(state, named)
    if key is None or not sessions.open_path(state, key).is_file():
        if options.if_none == "ignore":
            yield {"kind": "session", "action": "none", "path": None}
            return
        raise MissingArtifact("no open session in this worktree — `majordomus session start`")
    data = sessions.read_open(state, key, root)
    if str(data["worktree"]) != str(root):
        raise Refused(
            f"{sessions.open_path(state, key).relative_to(root)}: an episode of another "
            f"checkout ({data['worktree']}); not closed here — `majordomus recover`"
        )
    summary = _summary(context)
    bodies.refuse_identity(summary, STDIN)
    yield from close(root, state, key, data, summary, outcome=options.outcome)


def _summary(context: Context) -> str:
    stream = context.stdin if context.stdin is not None else sys.stdin.buffer
    if stream.isatty():
        return ""
    raw = files.read_stream(stream, STDIN, limits.RECORD)
    return yamlstrict.decode(raw, STDIN).replace("\r\n", "\n").strip("\n")


def step(name: str) -> None:
    if _before_step is not None:
        _before_step(name)


def close(
    root: Path, state: Path, key: str, data: Record, summary: str, *, outcome: str
) -> Iterator[Record]:
    """The episode's record written, then what it was: the `session` record and the `episode`
    fact (`mj_state.session.episode_facts`) a deriver of knowledge candidates reads after it."""
    from mj_state.session import episode_facts as episodefacts

    moment = clock.now()
    session_id = str(data["session_id"])
    here, changed = _here(root, str(data["start_head"]))
    lines = envelope.stamped(state, session_id)
    lists = envelope.lists(lines)
    task = envelope.started(lines)
    if task is None and lists["tasks"]:  # a task begun before the episode, worked on in it
        task = envelope.task_started(state, lists["tasks"][-1])
    front = sessionrecord.front(
        root,
        data,
        moment=moment,
        outcome=outcome,
        lists=lists,
        task=task,
        closing={
            "head": here["head"],
            "working_tree": here["working_tree"],
            "commits": _commits(root, str(data["start_head"]), str(here["head"])),
            "changed_files": changed,
        },
    )

    def line(path: Path) -> None:
        payload = {"outcome": outcome, "session_path": path.relative_to(root).as_posix()}
        where = {"head": here["head"], "branch": here["branch"]}
        ledger.append(
            root, state, "session.closed", payload, where=where, moment=moment, session=session_id
        )

    step("record")
    path = sessionrecord.publish(root, front, summary, then=line)
    step("context")
    sessionrecord.append_close(root, session_id, front, path)
    step("open")
    sessions.remove_open(root, state, key)
    step("pointer")
    sessions.repoint_after_close(root, state, key)
    yield {
        "kind": "session",
        "action": "closed",
        "session_id": session_id,
        "key": key,
        "path": path.relative_to(root).as_posix(),
        "outcome": outcome,
    }
    yield episodefacts.fact(root, state, session_id, here, lines)


def _here(root: Path, start: str) -> tuple[Record, list[str]]:
    """Identity at the close, and the files changed since the start head (diff ∪ status)."""
    from mj_core.git import where as gitwhere

    here_where, status, changed = gitwhere.snapshot(root, start or None)
    found = {
        **identity.from_where(root, *here_where),
        "working_tree": "dirty" if status else "clean",
    }
    return found, sorted(set([*status, *changed]))


def _commits(root: Path, start: str, head: str) -> list[str]:
    """The commits between the two heads, oldest first (short); `[diverged]` when the start is
    not an ancestor of the end."""
    if not start or not head or start == head:
        return []
    if not git.is_ancestor(root, start, head):
        return ["diverged"]
    text = git.out("rev-list", "--reverse", "--abbrev-commit", f"{start}..{head}", cwd=root)
    return [line for line in (text or "").split("\n") if line]


STAGES = {"session-close": Stage(run)}
