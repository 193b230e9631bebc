"""`mj-state decision-add-write`: the one write of `decision add` — the entry the verdict of
`mj-state decision-add-judge` names, appended to the decision log with its
`decision.recorded` ledger line (`mj_state.records.write`: the line first, then one rename).

It passes the judge's stream on; a `decision-add` verdict becomes the write. It does not take
the verdict on trust: under the log's lock it reads this checkout's active task, git's HEAD and
the log itself, builds the request again from them and the verdict's fields, and judges it
again (`mj_state.decision.judge`): a refusal there is the command's, and a verdict that
differs (another task or HEAD, a redaction undone by hand, a `--supersedes` the log does not
hold) writes nothing (15). Nor does a verdict judged over more entries than the log holds, or
one whose entry was appended after it was judged (a replay).
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused
from mj_core.sanitise import undecodable
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.decision import facts as decisionfacts
from mj_state.decision import judge as decisionjudge
from mj_state.ledger import store as ledger
from mj_state.records import decisions
from mj_state.records import write as recordwrite
from mj_state.records import writing

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from collections.abc import Iterator
    from typing import Any
    from typing import NoReturn

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "decision-add", lambda verdict: (add(load(context.root()), verdict),)
    )


def add(layer: Layer, verdict: Record) -> Record:
    """The verdict judged again under the log's lock over what this checkout holds, then
    appended after a blank line."""
    moment = clock.now()
    written: list[decisions.Entry] = []

    def change(now: str) -> tuple[str, Callable[[], object]]:
        entry, task_id = _judged_again(layer, verdict, now, moment)
        block = undecodable(entry.text())
        written.append(entry)

        def line() -> object:
            payload = {"decision": entry.title, "entry": block}
            return ledger.append(layer.root, layer.state, "decision.recorded", payload,
                                 task_id=task_id)  # fmt: skip

        return recordwrite.appended(now, block, gap=True), line

    recordwrite.rewrite(decisions.path(layer.state), change)
    from mj_state.records import decision_log

    return {
        **decision_log.shown(written[0]),
        "action": "recorded",
        "path": layer.relative(decisions.path(layer.state)),
    }


def _judged_again(
    layer: Layer, verdict: Record, now: str, moment: int
) -> tuple[decisions.Entry, str | None]:
    """The entry the verdict names, when judging it again here gives that same verdict."""
    text = now.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    entries = decisions.parse(text)
    seen = verdict.get("seen")
    if type(seen) is not int or not 0 <= seen <= len(entries):
        _refuse(verdict, "it was judged over entries the log does not hold")
    task = writing.active_here(layer)
    task_id = str(task["id"]) if task is not None else None
    from mj_core.git import questions as git

    given = {key: verdict.get(key) for key in decisionfacts.GIVEN}
    if given["supersedes"] == "-":  # what an absent `--supersedes` becomes
        given["supersedes"] = None
    fact = decisionfacts.request(given, task_id, git.head(layer.root),
                                 [entry.title for entry in entries[:seen]], None)  # fmt: skip
    if decisionjudge.judge(fact) != verdict:
        _refuse(verdict, "it is not what this checkout gives now")
    fields = {key: str(verdict[key.lower()]) for key in decisions.FIELDS}
    entry = decisions.Entry(0, clock.iso(moment)[:10], str(verdict["title"]), fields)
    if any(e.title == entry.title and e.fields == fields for e in entries[seen:]):
        _refuse(verdict, "its entry was written after it was judged (a replay)")
    return entry, task_id


def _refuse(verdict: Record, why: str) -> NoReturn:
    raise Refused(f"decision add {str(verdict.get('title'))!r}: the verdict is refused: {why}; "
                  "nothing was written")  # fmt: skip


STAGES = {"decision-add-write": Stage(run)}
