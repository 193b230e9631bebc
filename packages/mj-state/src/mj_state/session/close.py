"""`mj-state session-close-write`: the one write of `session close` — this process's episode
ended with its immutable record, as the verdict of `mj-state session-close-judge` names it.

It passes the judge's stream on; a `session-close` verdict becomes the close. It does not take
the verdict on trust: it gathers the facts again for the verdict's episode
(`mj_state.session.close_facts`) and judges again with the verdict's summary and outcome: a
refusal there is the command's (a replay finds the episode closed: 12), and a verdict that
differs (another episode id, one of another checkout) writes nothing (15).

The steps, in an order a crash between any two leaves for `recover` to finish: (1) publish
`.ai/repo/sessions/<stamp>--<id>--<branch-key>--<short-head>--<16 hex>.md` (0600) with its
`session.closed` line (no line, no record); (2) append `## Close` to the working context; (3)
remove the open file; (4) aim the pointer at the one episode still open, or remove it. The
stream then carries the episode's facts (`mj_state.session.episode_facts`), from which
`mj-knowledge derive-facts | derive-judge | derive-write` after it writes candidates.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused
from mj_core.git import questions as git
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state import identity
from mj_state.ledger import store as ledger
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

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

# Test-only fault injection: called with each step's name before it runs. Production code never
# sets it; it can only simulate a crash between two steps.
_before_step: Callable[[str], None] | None = None


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "session-close", lambda verdict: closed(load(context.root()), verdict)
    )


def closed(layer: Layer, verdict: Record) -> Iterator[Record]:
    """The close judged again over the episode as it is now, then made."""
    from mj_state.session import close_facts as closefacts
    from mj_state.session import close_judge as closejudge

    key, summary = verdict.get("key"), verdict.get("summary")
    if not sessions.is_key(key):  # a key that is no file name is never opened, nor removed
        raise Refused(f"session close: {key!r} names no episode; nothing was written")
    fact = closefacts.gather(
        layer, key if isinstance(key, str) else None,
        summary if isinstance(summary, str) else None, None,
        if_none="refuse", outcome=str(verdict.get("outcome")),
    )  # fmt: skip
    if closejudge.judge(fact) != verdict:
        raise Refused(
            f"session close: the verdict is not what this checkout gives now (episode "
            f"{verdict.get('session_id')}); nothing was written"
        )
    yield from close(layer.root, layer.state, str(key), fact["episode"], str(summary),
                     outcome=str(verdict["outcome"]))  # fmt: skip


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


STAGES = {"session-close-write": Stage(run)}
