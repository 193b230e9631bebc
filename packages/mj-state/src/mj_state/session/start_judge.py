"""`mj-state session-start-judge`: whether an episode may be opened, over the briefing and the
`session-start` fact of `mj-state session-start-facts`.

A judge: it reads its input (the briefing's records and the one fact) and never the
repository. In this order: `--provider` without `--provider-session` or the other way round
(2); an episode of this key open here whose record does not read (10), one of another checkout
(15: `recover` there), one open here without `--if-open keep` (15), and with it the episode
kept (one `session` record with the briefing: what a provider hook does on every
SessionStart); no briefing (12). An episode that may be opened becomes one `verdict` for
`mj-state session-start-write`: its key, the options, the briefing's text and its task.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.exit_codes import ExitCode
from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_state import brief_render as briefrender

    given = getattr(options, "input", None)
    arrived, fact = context.beside_fact(given, "session-start", "mj-state session-start-facts")
    brief = briefrender.Briefing(arrived)
    briefing = briefrender.text(brief, None) if brief.head else None
    task = brief.head.get("task") if isinstance(brief.head.get("task"), dict) else None
    yield judge(fact, briefing, task)


def judge(fact: Record, briefing: str | None, task: Record | None) -> Record:
    """The kept episode, or the verdict of an open; a refusal raised. `briefing`: its text,
    None when the input carried none; `task`: the briefing's task."""
    if (fact.get("provider") is None) != (fact.get("provider_session") is None):
        raise UsageError("--provider and --provider-session go together (a provider hook's)")
    if fact["open"]:
        return kept(fact, briefing or "")
    if briefing is None:
        raise MissingArtifact("<stdin>: no briefing — pipe mj-state facts | mj-context build")
    chosen = None
    if task:  # what the working context names: the task's id and profile
        chosen = {name: str(task[name]) if task.get(name) else None for name in ("id", "profile")}
    return {
        "kind": "verdict",
        "action": "session-start",
        "key": fact["key"],
        "owner": fact.get("owner"),
        "worker": fact.get("worker"),
        "provider": fact.get("provider"),
        "provider_session": fact.get("provider_session"),
        "briefing": briefing,
        "task": chosen,
    }


def kept(fact: Record, briefing: str) -> Record:
    """The episode already open under the key: handed back under `keep`, else refused (15)."""
    problem = fact.get("episode_problem")
    if problem:
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))
    data = fact["episode"]
    if str(data["worktree"]) != str(fact["here"]):
        raise Refused(
            f"{fact['open_path']}: an episode of another checkout ({data['worktree']}); it is "
            "not this checkout's — `majordomus recover`"
        )
    if fact.get("if_open") != "keep":
        raise Refused(
            f"episode {data['session_id']} is already open here (key {fact['key']}) — close it "
            "first (`majordomus session close`), or pass --if-open keep"
        )
    return {
        "kind": "session",
        "action": "kept",
        "session_id": data["session_id"],
        "key": fact["key"],
        "path": fact["open_path"],
        "started_at": data["started_at"],
        "head": str(data["start_head"])[:7],
        "briefing": briefing,
    }


STAGES = {"session-start-judge": Stage(run)}
