"""`mj-state recover-write`: the one write of `recover` — the plan `mj-state recover-judge` gave,
carried out item by item (a stranded episode closed: its record written with a
`session.recovered` line and only then its open file removed; a recorded one's open file
removed; the pointer aimed again; duplicates folded; an old temporary published or removed; a
log repaired as `mj_state.recover.logs` repairs it), each item shown with `done` set.

It passes the judge's stream on; a `recover` verdict becomes the repair. It does not take the
plan on trust: it gathers the facts again itself (`mj_state.recover.facts`) and plans again
(`mj_state.recover.judge`), and acts only when that plan names the same items (subject, state,
action, path) in the same order; a plan that differs (an item added, dropped or edited after
judging) repairs nothing (15). What each repair needs is taken from its own gathering, never
from the stream. A crash between two steps leaves what the next run finishes.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.ledger import store as ledger
from mj_state.recover import facts as recoverfacts
from mj_state.recover import judge as recoverjudge
from mj_state.session import record as sessionrecord
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

# Test-only fault injection: called with each write step's name before it runs.
_before_step: Callable[[str], None] | None = None
_SAME = ("subject", "state", "action", "path")  # an item's evidence names ages, which move


def step(name: str) -> None:
    if _before_step is not None:
        _before_step(name)


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "recover", lambda verdict: recover(load(context.root()), verdict)
    )


def recover(layer: Layer, verdict: Record) -> Iterator[Record]:
    """The plan made again here; when it is the verdict's, each item acted on in turn."""
    what, older_than = str(verdict.get("what")), verdict.get("older_than")
    fact = recoverfacts.gather(layer, what, older_than, check=False)
    planned = recoverjudge.plan(fact)
    given = verdict.get("items")
    same = isinstance(given, list) and [_key(i) for i in planned] == [
        _key(i) if isinstance(i, dict) else None for i in given
    ]
    if not same:
        raise Refused(
            f"recover {what}: the plan is not what this checkout gives now; nothing was repaired "
            f"(run: majordomus recover {what} --check)"
        )
    for item in planned:
        if item["action"] not in recoverjudge.IDLE:
            DOERS[item["action"]](layer, item)
            item["done"] = True
        yield recoverjudge.shown(item)


def _key(item: Record) -> tuple[object, ...]:
    return tuple(item.get(name) for name in _SAME)


def close_stranded(layer: Layer, item: Record) -> None:
    root, state, data = layer.root, layer.state, item["_data"]
    front = sessionrecord.front(
        root,
        data,
        moment=clock.now(),
        outcome="interrupted",
        lists=item["_lists"],
        task=item["_started"],
        closing=None,
    )

    def line(path: Path) -> None:
        shown = path.relative_to(root).as_posix()
        payload = {"action": "closed-stranded", "session_path": shown}
        ledger.append(root, state, "session.recovered", payload, session=sessions.own(state, root))

    step("record")
    path = sessionrecord.publish(root, front, "", then=line)
    item["path"] = path.relative_to(root).as_posix()
    step("context")
    sessionrecord.append_close(root, str(data["session_id"]), front, path)
    step("open")
    sessions.remove_open(root, state, item["_key"])
    step("pointer")
    sessions.repoint_after_close(root, state, item["_key"])


def remove_recorded(layer: Layer, item: Record) -> None:
    root, state = layer.root, layer.state
    shown = (sessions.closed_dir(root) / item["_record"]).relative_to(root).as_posix()
    step("line")
    payload = {"action": "removed-open", "session_path": shown}
    ledger.append(root, state, "session.recovered", payload, session=sessions.own(state, root))
    step("open")
    sessions.remove_open(root, state, item["_key"])
    step("pointer")
    sessions.repoint_after_close(root, state, item["_key"])


def repoint(layer: Layer, item: Record) -> None:
    still = sessions.open_keys(layer.state)
    sessions.point(layer.root, layer.state, still[0] if len(still) == 1 else None)


def _fold(layer: Layer, item: Record) -> None:
    from mj_state.recover import records as recoverrecords

    recoverrecords.fold(layer, item)


def _temp(layer: Layer, item: Record) -> None:
    from mj_state.recover import records as recoverrecords

    recoverrecords.settle_temp(layer, item)


def _logs(layer: Layer, item: Record) -> None:
    from mj_state.recover import logs as recoverlogs

    recoverlogs.repair(layer, item)


DOERS: dict[str, Callable[[Layer, Record], None]] = {
    "close": close_stranded,
    "remove-open": remove_recorded,
    "repoint": repoint,
    "fold": _fold,
    "publish": _temp,
    "remove": _temp,
    "restore": _logs,
    "rewrite": _logs,
    "set-aside": _logs,
    "adopt": _logs,
}

STAGES = {"recover-write": Stage(run)}
