"""`mj-state session-start-write`: open one execution episode, as the verdict of `mj-state
session-start-judge` says (after `mj-state facts | mj-context build | mj-state
session-start-facts`).

It passes the judge's stream on; a `session-start` verdict becomes the open. It does not take
the verdict on trust: it gathers the fact again and judges again with the verdict's briefing,
and a verdict that differs (an episode opened meanwhile, an edited key or owner, a replay)
writes nothing (15). Writes the open episode (`state/sessions-open/<key>.yaml`, 0600; identity
from git, never from the stream), the ledger's `session.started` stamped with the new episode
(the open file is removed again when that line cannot be written), the pointer, and the
working context `.ai/local/session-contexts/<stamp>--<id>.md` holding the briefing as it was at
the open.
"""

from __future__ import annotations

from mj_core import clock
from mj_core import ids
from mj_core.errors import Refused
from mj_core.git import questions as git
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_core.yaml import strict as yamlstrict

from mj_state import identity
from mj_state.ledger import store as ledger
from mj_state.session import store as sessions
from mj_state.task import record as tasks

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

CONTEXT_KIND = "session-context"


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        getattr(options, "input", None), "session-start", lambda v: start(context.root(), v)
    )


def start(root: Path, verdict: Record) -> Iterator[Record]:
    """The open judged again over this checkout as it is now, then made."""
    from mj_state.session import start_facts
    from mj_state.session import start_judge

    given = {name: verdict.get(name) for name in start_facts.OPTIONS if name != "if_open"}
    task = verdict.get("task") if isinstance(verdict.get("task"), dict) else None
    briefing = verdict.get("briefing") if isinstance(verdict.get("briefing"), str) else None
    again = start_judge.judge(start_facts.gather(root, given), briefing, task)
    if again != verdict:
        raise Refused(
            "session start: the verdict is not what this checkout gives now; nothing was written"
        )
    state = root / ".ai" / "local" / "state"
    yield opened(root, state, again)


def opened(root: Path, state: Path, verdict: Record) -> Record:
    """The open episode written, its ledger line, the pointer and the working context."""
    from mj_core.write import atomic

    key, briefing = str(verdict["key"]), str(verdict["briefing"])

    moment = clock.now()
    session_id = ids.session_id(moment)
    # git's status asked as the briefing's facts ask it (each file listed): the hook begins both
    # questions once for the two readers (`git.ahead(times=2)`); a dirty tree is a non-empty one
    here = identity.identity(root, git.STATUS_ARGS)
    data = _open_record(session_id, moment, verdict, here)
    path = sessions.open_path(state, key)

    def line() -> None:
        payload = {"owner": data["owner"]}
        if verdict.get("worker"):
            payload["worker"] = verdict["worker"]
        where = {"head": here["head"], "branch": here["branch"]}
        ledger.append(
            root,
            state,
            "session.started",
            payload,
            where=where,
            moment=moment,
            session=session_id,
        )

    atomic.create(path, yamlstrict.dump(data).encode(), mode=sessions.MODE, root=root, then=line)
    sessions.point(root, state, key)
    doc = _write_context(root, data, key=key, verdict=verdict, moment=moment)
    return {
        "kind": "session",
        "action": "started",
        "session_id": session_id,
        "key": key,
        "path": path.relative_to(root).as_posix(),
        "context": doc.relative_to(root).as_posix(),
        "started_at": data["started_at"],
        "head": str(here["head"])[:7],
        "briefing": briefing,
    }


def _open_record(session_id: str, moment: int, verdict: Record, here: Record) -> Record:
    data: Record = {
        "session_id": session_id,
        "started_at": clock.iso(moment),
        "owner": verdict.get("owner") or tasks.default_owner(),
    }
    if verdict.get("worker"):
        data["worker"] = verdict["worker"]
    if verdict.get("provider"):
        data["provider"] = verdict["provider"]
        data["provider_session"] = verdict["provider_session"]
    data.update(
        {
            "repository_id": here["repository_id"],
            "worktree": here["worktree"],
            "branch": here["branch"],
            "start_head": here["head"],
            "start_working_tree": here["working_tree"],
        }
    )
    return data


def _write_context(root: Path, data: Record, *, key: str, verdict: Record, moment: int) -> Path:
    """The working context: front matter naming the open, the briefing verbatim, `## Notes`."""
    from mj_core.write import atomic

    task = verdict.get("task") or {}
    provider, worker, briefing = verdict.get("provider"), verdict.get("worker"), verdict["briefing"]

    front: Record = {
        "schema": f"{CONTEXT_KIND}/v1",
        "kind": CONTEXT_KIND,  # a document's kind, not a stream's
        "session_id": data["session_id"],
        "opened_at": data["started_at"],
        "opened_by": "hook" if provider else "hand",
    }
    if provider:
        front["provider"] = provider
        front["provider_session"] = key
    front.update(
        {
            "branch": data["branch"],
            "head": data["start_head"],
            "task_id": task.get("id") or "none",
            "profile": task.get("profile") or "none",
        }
    )
    if worker:
        front["worker"] = worker
    body = (
        f"# Working context of session {data['session_id']}\n\n"
        f"## Context at open\n{briefing or '(no briefing)'}\n## Notes\n\n"
    )
    text = f"---\n{yamlstrict.dump(front)}---\n\n{body}"
    path = sessions.contexts_dir(root) / f"{clock.compact(moment)}--{data['session_id']}.md"
    atomic.create(path, text.encode(), mode=sessions.MODE, root=root)
    return path


STAGES = {"session-start-write": Stage(run)}
