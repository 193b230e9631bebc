"""`mj-state session-close-facts [--outcome …] [--if-none …] [--provider-session ID]`: what
`mj-state session-close-judge` judges, as one `session-close` fact: the episode this process
belongs to (`--provider-session`, else the environment's provider session when it is open here,
else the pointer) and whether it is open, its open record as read (or why it cannot be read),
this checkout's root, the summary piped on stdin (or what stopped reading it), and the options.
Nothing is judged here; a malformed `--provider-session` is a usage error (2), as the parser's.
"""

from __future__ import annotations

import sys

from mj_core import files
from mj_core import limits
from mj_core.errors import MjError
from mj_core.stream.stage import Stage
from mj_core.yaml import strict as yamlstrict
from mj_policy.layer.loader import load

from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

STDIN = "<stdin>"


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    named = options.provider_session
    if named is not None:
        sessions.checked_key(named)
    summary, problem = None, None
    try:
        summary = _summary(context)
    except MjError as exc:
        problem = {"code": int(exc.code), "message": exc.message}
    yield gather(layer, named, summary, problem, if_none=options.if_none, outcome=options.outcome)


def _summary(context: Context) -> str:
    stream = context.stdin if context.stdin is not None else sys.stdin.buffer
    if stream.isatty():
        return ""
    raw = files.read_stream(stream, STDIN, limits.RECORD)
    return yamlstrict.decode(raw, STDIN).replace("\r\n", "\n").strip("\n")


def gather(
    layer: Layer, named: str | None, summary: str | None, problem: Record | None, *,
    if_none: str, outcome: str,
) -> Record:  # fmt: skip
    """The `session-close` fact (the writer gathers it again for the verdict's episode)."""
    root, state = layer.root, layer.state
    key = sessions.here_key(state, named)
    is_open = key is not None and sessions.open_path(state, key).is_file()
    episode, unread = None, None
    if key is not None and is_open:
        try:
            episode = sessions.read_open(state, key, root)
        except MjError as exc:
            unread = {"code": int(exc.code), "message": exc.message}
    return {
        "kind": "fact",
        "fact": "session-close",
        "key": key,
        "open": is_open,
        "open_path": sessions.open_path(state, key).relative_to(root).as_posix() if key else None,
        "episode": episode,
        "episode_problem": unread,
        "here": str(root),
        "summary": summary,
        "summary_problem": problem,
        "if_none": if_none,
        "outcome": outcome,
    }


STAGES = {"session-close-facts": Stage(run)}
