"""`mj-state session-close-judge`: whether this process's episode may be closed, over `mj-state
session-close-facts`.

A judge: it reads the one `session-close` fact on stdin (or a file) and never the repository.
In the order a person meets the faults: nothing open (12; `--if-none ignore`: one `session`
record that closed nothing, exit 0), an open record that does not read (10), an episode of
another checkout (15: `recover` there), a summary that could not be read, or one with a line
that sets identity (10). An episode that may be closed becomes one `verdict`: its key and id,
the outcome and the summary, for `mj-state session-close-write`.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.exit_codes import ExitCode
from mj_core.stream.stage import Stage

from mj_state.records import bodies

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

STDIN = "<stdin>"


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield judge(context.the_fact(options.input, "session-close", "mj-state session-close-facts"))


def judge(fact: Record) -> Record:
    """The verdict of a close, or the record of one with nothing to close; a refusal raised."""
    if not fact.get("open"):
        if fact.get("if_none") == "ignore":
            return {"kind": "session", "action": "none", "path": None}
        raise MissingArtifact("no open session in this worktree — `majordomus session start`")
    for problem in (fact.get("episode_problem"),):
        if problem:
            raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))
    data = fact["episode"]
    if str(data["worktree"]) != str(fact["here"]):
        raise Refused(
            f"{fact['open_path']}: an episode of another checkout ({data['worktree']}); not "
            "closed here — `majordomus recover`"
        )
    problem = fact.get("summary_problem")
    if problem:
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))
    summary = str(fact.get("summary") or "")
    bodies.refuse_identity(summary, STDIN)
    return {"kind": "verdict", "action": "session-close", "key": fact["key"],
            "session_id": str(data["session_id"]), "outcome": fact["outcome"],
            "summary": summary}  # fmt: skip


STAGES = {"session-close-judge": Stage(run)}
