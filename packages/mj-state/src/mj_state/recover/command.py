"""`mj-state recover [status|episodes|records|orphans|all] [--check] [--older-than D]`.

Recurring, idempotent repair of the session stores. One plan is computed, then acted on (or,
with `--check` and for `status`, only shown; the computation is the same):
- episodes: an open episode whose last sign of life (its `started_at`, or the newest ledger line
  stamped with it) is older than `--older-than` (else the policy's `session.stranded_after`,
  else 12h) is stranded: its record is written (outcome `interrupted`, no commits, no changed
  files, no closing head) with a `session.recovered` line, and only then is its open file
  removed, so a crash mid-run leaves what the next run finishes. An open episode that already
  has its record (a close that stopped after its publish) has its open file removed, this
  process's own included (it is closed already). A pointer naming no open episode is aimed
  again. Never closed: the episode this process belongs to (the one the environment names when
  it is open here, else the one the pointer names: `sessions.here_key`, as every command
  resolves it; `session close` ends that one). Never touched: another worktree's, one whose
  times cannot be read (skipped and counted).
- records: closed records sharing one session id fold into the oldest (lists united, the
  others moved to `state/archive/recovered/`) when identity and times agree; else reported.
  And the decision log and the question file against the ledger (`mj_state.recover.logs`): a
  ledger line without its entry is restored from the line, an entry without its line is set
  aside (a decision) or adopted (a question, which keeps blocking).
- orphans: a temporary file in `.ai/local/tmp/` younger than the stale age is live; an old one
  holding the only copy of a session record is published, one already published or empty is
  removed, anything else is left and counted. No directory is ever deleted.
"""

from __future__ import annotations

import os

from mj_core import clock
from mj_core.errors import MjError
from mj_core.errors import UsageError
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

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

DEFAULT_STRANDED = 12 * 3600
STALE_TEMP = 900  # what mj_core.write.temp_files calls a crashed writer's leftover
_IDENTITY = ("repository_id", "worktree_id", "branch", "start_head", "started_at")
# Test-only fault injection: called with each write step's name before it runs.
_before_step: Callable[[str], None] | None = None


def step(name: str) -> None:
    if _before_step is not None:
        _before_step(name)


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    threshold = _threshold(layer, options.older_than)
    act = options.what != "status" and not options.check
    scopes = ("episodes", "records", "orphans") if options.what in ("status", "all") else ()
    for scope in scopes or (options.what,):
        for item in PLANNERS[scope](layer, threshold):
            if act and item["action"] not in ("none", "report"):
                DOERS[item["action"]](layer, item)
                item["done"] = True
            yield _shown(item)


def _shown(item: Record) -> Record:
    return {k: v for k, v in item.items() if not k.startswith("_")}


def _threshold(layer: Layer, given: str | None) -> int:
    text = given
    if text is None:
        configured = layer.policy.data.get("session")
        text = configured.get("stranded_after") if isinstance(configured, dict) else None
    if text is None:
        return DEFAULT_STRANDED
    seconds = clock.parse_duration(str(text))
    if seconds is None:
        raise UsageError(f"--older-than {text!r}: expected <n>m, <n>h or <n>d")
    return seconds


def _item(subject: str, state: str, action: str, evidence: str, path: str | None) -> Record:
    return {
        "kind": "recovery",
        "subject": subject,
        "state": state,
        "action": action,
        "done": False,
        "evidence": evidence,
        "path": path,
    }


def _age(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return f"{seconds}s ago"


def plan_episodes(layer: Layer, threshold: int) -> Iterator[Record]:
    root, state = layer.root, layer.state
    mine = sessions.here_key(state)  # the environment's episode when open here, else the pointer's
    recorded = sessions.recorded_ids(root)
    now = clock.now()
    for key in sessions.open_keys(state):
        shown = sessions.open_path(state, key).relative_to(root).as_posix()
        try:
            data = sessions.read_open(state, key, root)
        except MjError as exc:
            yield _item(key, "skipped", "none", f"unreadable: {exc.message}", shown)
            continue
        subject = f"{data['session_id']} key={key}"
        if str(data["worktree"]) != str(root):
            yield _item(subject, "skipped", "none", f"another worktree ({data['worktree']})", shown)
            continue
        names = recorded.get(str(data["session_id"]))
        if names:  # closed already (a close that stopped after its publish): only its leftovers
            item = _item(subject, "recorded", "remove-open", f"record {names[-1]}", shown)
            yield {**item, "_key": key, "_record": names[-1]}
            continue
        if key == mine:
            yield _item(subject, "live", "none", "the episode this process belongs to", shown)
            continue
        yield _judged(layer, key, data, subject=subject, shown=shown, threshold=threshold, now=now)
    dangling = _dangling(state)
    if dangling is not None:
        yield _item("session-current.yaml", "dangling", "repoint", dangling, None)


def _judged(
    layer: Layer, key: str, data: Record, *, subject: str, shown: str, threshold: int, now: int
) -> Record:
    lines = envelope.stamped(layer.state, str(data["session_id"]))
    seen = envelope.last_seen(lines)
    started = clock.parse_iso(str(data["started_at"]))
    stamps = [m for m in (started, clock.parse_iso(seen) if seen else None) if m is not None]
    if started is None:
        return _item(subject, "skipped", "none", "its started_at cannot be read", shown)
    last = max(stamps)
    source = "ledger" if seen and clock.parse_iso(seen) == last else "started_at"
    evidence = f"last seen {clock.iso(last)} ({source}, {_age(now - last)})"
    if now - last <= threshold:
        return _item(subject, "live", "none", evidence, shown)
    item = _item(subject, "stranded", "close", evidence, shown)
    return {**item, "_key": key, "_data": data, "_lines": lines}


def _dangling(state: Path) -> str | None:
    pointer = state / sessions.POINTER
    if not os.path.islink(pointer) or sessions.pointed(state) is not None:
        return None
    return f"names {os.readlink(pointer)}, which is not open"


def close_stranded(layer: Layer, item: Record) -> None:
    root, state, data = layer.root, layer.state, item["_data"]
    front = sessionrecord.front(
        root,
        data,
        moment=clock.now(),
        outcome="interrupted",
        lists=envelope.lists(item["_lines"]),
        task=envelope.started(item["_lines"]),
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


def plan_records(layer: Layer, threshold: int) -> Iterator[Record]:
    from mj_state.recover import logs as recoverlogs
    from mj_state.recover import records as recoverrecords

    yield from recoverrecords.plan(layer)
    yield from recoverlogs.plan(layer)


def plan_orphans(layer: Layer, threshold: int) -> Iterator[Record]:
    from mj_state.recover import records as recoverrecords

    yield from recoverrecords.orphans(layer, STALE_TEMP)


def _fold(layer: Layer, item: Record) -> None:
    from mj_state.recover import records as recoverrecords

    recoverrecords.fold(layer, item)


def _temp(layer: Layer, item: Record) -> None:
    from mj_state.recover import records as recoverrecords

    recoverrecords.settle_temp(layer, item)


def _logs(layer: Layer, item: Record) -> None:
    from mj_state.recover import logs as recoverlogs

    recoverlogs.repair(layer, item)


PLANNERS: dict[str, Callable[[Layer, int], Iterator[Record]]] = {
    "episodes": plan_episodes,
    "records": plan_records,
    "orphans": plan_orphans,
}
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

STAGES = {"recover": Stage(run)}
