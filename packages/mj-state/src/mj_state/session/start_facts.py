"""`mj-state session-start-facts [--owner …] [--worker …] [--if-open …] [--provider P
--provider-session ID]`: the briefing it is given (`mj-state facts | mj-context build`), passed
on, and what `mj-state session-start-judge` judges, as one `session-start` fact: the episode's
key, whether an episode of that key is open here and its open record as read (or why it cannot
be read), this checkout's root, and the options. Nothing is judged here; a malformed
`--provider-session` is a usage error (2), as the parser's.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.stream.stage import Stage

from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

OPTIONS = ("owner", "worker", "if_open", "provider", "provider_session")


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.records(getattr(options, "input", None))
    given = {name: getattr(options, name, None) for name in OPTIONS}
    yield gather(context.root(), given)


def gather(root: Path, given: Record) -> Record:
    """The `session-start` fact (the writer gathers it again for the verdict's options)."""
    named = given.get("provider_session")
    if named is not None:
        sessions.checked_key(str(named))
    state = root / ".ai" / "local" / "state"  # the facts stage before this one loaded the layer
    key = str(named or sessions.HAND)
    path = sessions.open_path(state, key)
    is_open = path.is_file()
    episode, unread = None, None
    if is_open:
        try:
            data = sessions.read_open(state, key, root)
            episode = {name: data.get(name) for name in
                       ("session_id", "worktree", "started_at", "start_head")}  # fmt: skip
        except MjError as exc:
            unread = {"code": int(exc.code), "message": exc.message}
    return {
        "kind": "fact",
        "fact": "session-start",
        "key": key,
        "open": is_open,
        "open_path": path.relative_to(root).as_posix(),
        "episode": episode,
        "episode_problem": unread,
        "here": str(root),
        **{name: given.get(name) for name in OPTIONS},
    }


STAGES = {"session-start-facts": Stage(run)}
