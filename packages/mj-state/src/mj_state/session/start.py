"""`mj-state session-start`: open one execution episode, after the briefing it is given.

Input: the built briefing (`mj-state facts | mj-context build`). Writes the open episode
(`state/sessions-open/<key>.yaml`, 0600; identity from git), the ledger's `session.started`
stamped with the new episode (the open file is removed again when that line cannot be written),
the pointer, and the working context `.ai/local/session-contexts/<stamp>--<id>.md` holding the
briefing as it was at the open. An episode of this key already open → 15, unless
`--if-open keep`, which writes nothing and hands the briefing back (what a provider hook does on
every SessionStart).
"""

from __future__ import annotations

from mj_core import clock
from mj_core import ids
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
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
    from mj_state import brief_render as briefrender

    arrived = list(context.records(getattr(options, "input", None)))
    root = context.root()
    state = root / ".ai" / "local" / "state"  # the facts stage before this one loaded the layer
    brief = briefrender.Briefing(arrived)
    briefing = briefrender.text(brief, None) if brief.head else ""
    named = options.provider_session
    if named is not None:
        sessions.checked_key(named)
    if (options.provider is None) != (named is None):
        raise UsageError("--provider and --provider-session go together (a provider hook's)")
    key = named or sessions.HAND
    if sessions.open_path(state, key).is_file():
        yield kept(root, state, key, briefing, keep=options.if_open == "keep")
        return
    if not brief.head:
        raise MissingArtifact("<stdin>: no briefing — pipe mj-state facts | mj-context build")
    yield opened(root, state, key, options=options, head=brief.head, briefing=briefing)


def kept(root: Path, state: Path, key: str, briefing: str, *, keep: bool) -> Record:
    """The episode already open under `key`: handed back under `keep`, else refused (15)."""
    data = sessions.read_open(state, key, root)
    if str(data["worktree"]) != str(root):
        raise Refused(
            f"{sessions.open_path(state, key).relative_to(root)}: an episode of another "
            f"checkout ({data['worktree']}); it is not this checkout's — `majordomus recover`"
        )
    if not keep:
        raise Refused(
            f"episode {data['session_id']} is already open here (key {key}) — close it first "
            "(`majordomus session close`), or pass --if-open keep"
        )
    return {
        "kind": "session",
        "action": "kept",
        "session_id": data["session_id"],
        "key": key,
        "path": sessions.open_path(state, key).relative_to(root).as_posix(),
        "started_at": data["started_at"],
        "head": str(data["start_head"])[:7],
        "briefing": briefing,
    }


def opened(
    root: Path,
    state: Path,
    key: str,
    *,
    options: argparse.Namespace,
    head: Record,
    briefing: str,
) -> Record:
    from mj_core.write import atomic

    moment = clock.now()
    session_id = ids.session_id(moment)
    # git's status asked as the briefing's facts ask it (each file listed): the hook begins both
    # questions once for the two readers (`git.ahead(times=2)`); a dirty tree is a non-empty one
    here = identity.identity(root, git.STATUS_ARGS)
    data = _open_record(session_id, moment, options, here)
    path = sessions.open_path(state, key)

    def line() -> None:
        payload = {"owner": data["owner"]}
        if options.worker:
            payload["worker"] = options.worker
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
    task = head.get("task") if isinstance(head.get("task"), dict) else None
    doc = _write_context(
        root, data, key=key, options=options, task=task, briefing=briefing, moment=moment
    )
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


def _open_record(session_id: str, moment: int, options: argparse.Namespace, here: Record) -> Record:
    data: Record = {
        "session_id": session_id,
        "started_at": clock.iso(moment),
        "owner": options.owner or tasks.default_owner(),
    }
    if options.worker:
        data["worker"] = options.worker
    if options.provider:
        data["provider"] = options.provider
        data["provider_session"] = options.provider_session
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


def _write_context(
    root: Path,
    data: Record,
    *,
    key: str,
    options: argparse.Namespace,
    task: Record | None,
    briefing: str,
    moment: int,
) -> Path:
    """The working context: front matter naming the open, the briefing verbatim, `## Notes`."""
    from mj_core.write import atomic

    front: Record = {
        "schema": f"{CONTEXT_KIND}/v1",
        "kind": CONTEXT_KIND,  # a document's kind, not a stream's
        "session_id": data["session_id"],
        "opened_at": data["started_at"],
        "opened_by": "hook" if options.provider else "hand",
    }
    if options.provider:
        front["provider"] = options.provider
        front["provider_session"] = key
    front.update(
        {
            "branch": data["branch"],
            "head": data["start_head"],
            "task_id": str(task["id"]) if task and task.get("id") else "none",
            "profile": str(task["profile"]) if task and task.get("profile") else "none",
        }
    )
    if options.worker:
        front["worker"] = options.worker
    body = (
        f"# Working context of session {data['session_id']}\n\n"
        f"## Context at open\n{briefing or '(no briefing)'}\n## Notes\n\n"
    )
    text = f"---\n{yamlstrict.dump(front)}---\n\n{body}"
    path = sessions.contexts_dir(root) / f"{clock.compact(moment)}--{data['session_id']}.md"
    atomic.create(path, text.encode(), mode=sessions.MODE, root=root)
    return path


STAGES = {"session-start": Stage(run)}
