"""`majordomus plan status|list|ready|blocked|graph|next [--milestone <id>] [--json]` answered
before the dispatcher builds its parser, when the listing asked for is one the plan's stage kept
under a key git still vouches for (`mj_policy.plan.views`).

The arguments are read here only when they are exactly such a listing (anything else — another
option, `--repo`, no action word — goes the ordinary way, which also judges it); the kept
records and the stage's summary, made as `mj_core.stream.stage.run_stream` makes it, are shown by
the
command's own renderer, so the output and the exit code are the ordinary path's. The key is
asked of git from here, both questions at once, before anything else is read; a key that does
not match, a listing not kept, or a cache that does not read answers None, and the dispatcher
runs the command as ever (which keeps the listing for the next run).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import IO
    from typing import Any

STAGE = (
    "mj-state plan-markers"  # the listings' last stage (share/commands.yaml): its summary's name
)
FILTERED = ("list", "ready", "blocked", "graph", "next")  # the views that take --milestone


class Options:
    """What the renderer reads of the parsed options."""

    __slots__ = ("command", "json", "milestone")

    def __init__(self, command: str, json: bool, milestone: str | None) -> None:
        self.command, self.json, self.milestone = command, json, milestone


def asked(args: list[str]) -> Options | None:
    """The listing `args` ask for, when they are exactly one (else None)."""
    from mj_policy.plan.views import VIEWS

    view = milestone = None
    as_json = False
    rest = iter(args[1:])
    for arg in rest:
        if arg == "--json" and not as_json:
            as_json = True
        elif arg == "--milestone" and milestone is None:
            milestone = next(rest, "")
            if not milestone or milestone.startswith("-"):
                return None
        elif arg in VIEWS and view is None:
            view = arg
        else:
            return None
    if args[:1] != ["plan"] or view is None or (milestone is not None and view not in FILTERED):
        return None
    return Options(f"plan {view}", as_json, milestone)


def answer(args: list[str], out: IO[str], err: IO[str]) -> int | None:
    """The command's exit code after showing the kept listing, or None (nothing was written)."""
    options = asked(args)
    if options is None:
        return None
    from mj_core import timing

    with timing.phase(f"{options.command}: kept"):
        try:
            found = _kept(options)
        except (OSError, ValueError, LookupError, TypeError):
            found = None  # a cache that does not read: the ordinary path answers
    if found is None:
        return None
    records, (render, invocation) = found
    if options.json:
        from mj_core import sanitise

        sanitise.plain_stdout()  # a machine stream: JSON keeps its exact data
    inv = invocation(cwd=None, json=options.json, stdout=out, stderr=err)
    code: int = render(records, options, inv)
    return code


def _renderer() -> tuple[Any, Any]:
    """The command's renderer and the invocation it is given."""
    from majordomus.commands.task import plan
    from majordomus.invocation import Invocation

    return plan.render, Invocation


def _kept(options: Options) -> tuple[list[dict[str, Any]], tuple[Any, Any]] | None:
    """The kept records and their summary, once git has vouched for the key, and the
    renderer (imported while git works)."""
    from mj_core.git import questions as git
    from mj_policy.plan import views as planviews

    here = os.getcwd()
    root = _top(here)
    data = planviews.read(root) if root is not None else None
    view = options.command.split(" ", 1)[1]
    if root is None or data is None or not planviews.recall(data, "", view, options.milestone):
        return None  # nothing kept for this listing: git need not be asked
    section = data["section"]
    running = git.start_many([(q, here) for q in planviews.questions(section)])
    try:  # while git looks at the plan: the manifest, and what would be shown
        manifest = planviews.manifest_bytes(root)
        shown = _replayed(planviews.recall(data, data["key"], view, options.milestone))
        renderer = _renderer()
    finally:
        answers = git.decoded(running.wait())
    top, key = planviews.key_of(answers, section, manifest)
    if key is None or key != data["key"] or top != os.path.realpath(root):
        return None
    return shown, renderer


def _top(here: str) -> str | None:
    """The nearest directory from `here` up holding `.git` (the checkout's top level, which
    git confirms), when it keeps listings; else None."""
    from mj_policy.plan import views as planviews

    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here if os.path.exists(planviews.path(here)) else None
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _replayed(found: dict[str, Any]) -> list[dict[str, Any]]:
    """The kept records and the summary the last stage ends them with: with nothing changed
    under the plan (what a kept listing needs), `plan-markers` passes them on and adds none."""
    from mj_core.stream import protocol as streams

    records: list[dict[str, Any]] = list(found["records"])
    counts: dict[str, int] = {}
    for record in records:
        kind = str(record.get("kind"))
        counts[kind] = counts.get(kind, 0) + 1
    error = found.get("error")
    if error:  # the view stopped: the last stage stops for it (`mj_core.stream.stage.run_stream`)
        stopped = streams.summary(STAGE, int(error[0]), counts, str(error[1]))
        return [*records, stopped | {"stopped": True}]
    return [*records, streams.summary(STAGE, 0, counts)]
