"""`mj-state recover-judge`: the repair plan, over `mj-state recover-facts`.

A judge: it reads the one `recover` fact on stdin (or a file) and never the repository. Each
thing found becomes a `recovery` item (subject, state, the action it needs, the evidence):
- an open episode of this worktree whose last sign of life (its `started_at`, or the newest
  ledger line stamped with it) is older than `--older-than` (else `session.stranded_after`,
  else 12h) is `stranded` and closed; one that already has its record has its open file
  removed; the episode this process belongs to is `live`; another worktree's, or one that
  cannot be read, is skipped; a pointer naming no open episode is aimed again;
- closed records of one session id fold into the oldest when identity and times agree, else
  they are reported; each gap between a log and the ledger is repaired as
  `mj_state.recover.logs` says;
- a temporary younger than the stale age is a live writer's; an old one holding the only copy
  of a session record is published, one already published or empty is removed, anything else
  is reported.
For `status` or `--check` the items are the output. Otherwise they become one `verdict`, the
plan `mj-state recover-write` carries out after planning again over what it reads itself.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import UsageError
from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

DEFAULT_STRANDED = 12 * 3600
_AGREE = ("repository_id", "worktree_id", "branch", "start_head", "started_at", "session_id")
STATES = {"restore": "unwritten", "report": "unwritten", "rewrite": "differs",
          "set-aside": "unrecorded", "adopt": "unrecorded"}  # fmt: skip
IDLE = ("none", "report")  # the actions that change nothing


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    fact = context.the_fact(options.input, "recover", "mj-state recover-facts")
    items = [shown(item) for item in plan(fact)]
    if fact["what"] == "status" or fact["check"]:
        yield from items
    else:
        yield {"kind": "verdict", "action": "recover", "what": fact["what"],
               "older_than": fact["older_than"], "items": items}  # fmt: skip


def shown(item: Record) -> Record:
    """An item as the stream carries it: without what only the writer uses."""
    return {k: v for k, v in item.items() if not k.startswith("_")}


def plan(fact: Record) -> list[Record]:
    """Every item, in the order of the scopes, each with what its repair needs (`_…`)."""
    threshold = _threshold(fact.get("older_than"), fact.get("stranded_after"))
    out: list[Record] = []
    if fact.get("episodes") is not None:
        out += _episodes(fact, threshold)
    if fact.get("duplicates") is not None:
        out += [_duplicate(found) for found in fact["duplicates"]]
        out += [_gap(fact, gap) for gap in fact.get("gaps") or []]
    if fact.get("temporaries") is not None:
        out += [_temporary(fact, found) for found in fact["temporaries"]]
    return out


def _threshold(given: str | None, configured: str | None) -> int:
    text = given if given is not None else configured
    if text is None:
        return DEFAULT_STRANDED
    seconds = clock.parse_duration(str(text))
    if seconds is None:
        raise UsageError(f"--older-than {text!r}: expected <n>m, <n>h or <n>d")
    return seconds


def _item(subject: str, state: str, action: str, evidence: str, path: str | None) -> Record:
    return {"kind": "recovery", "subject": subject, "state": state, "action": action,
            "done": False, "evidence": evidence, "path": path}  # fmt: skip


def _age(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return f"{seconds}s ago"


def _episodes(fact: Record, threshold: int) -> list[Record]:
    out: list[Record] = []
    recorded = fact.get("recorded") or {}
    for found in fact["episodes"]:
        key, shown_path = str(found["key"]), str(found["shown"])
        if "problem" in found:
            out.append(_item(key, "skipped", "none", f"unreadable: {found['problem']}", shown_path))
            continue
        data = found["data"]
        subject = f"{data['session_id']} key={key}"
        if str(data["worktree"]) != str(fact["here"]):
            evidence = f"another worktree ({data['worktree']})"
            out.append(_item(subject, "skipped", "none", evidence, shown_path))
            continue
        names = recorded.get(str(data["session_id"]))
        if names:  # closed already (a close that stopped after its publish): only its leftovers
            item = _item(subject, "recorded", "remove-open", f"record {names[-1]}", shown_path)
            out.append({**item, "_key": key, "_record": names[-1]})
            continue
        if key == fact.get("mine"):
            evidence = "the episode this process belongs to"
            out.append(_item(subject, "live", "none", evidence, shown_path))
            continue
        out.append(_judged(fact, found, subject, shown_path, threshold))
    if fact.get("dangling") is not None:
        evidence = f"names {fact['dangling']}, which is not open"
        out.append(_item("session-current.yaml", "dangling", "repoint", evidence, None))
    return out


def _judged(fact: Record, found: Record, subject: str, shown_path: str, threshold: int) -> Record:
    data, seen, now = found["data"], found.get("last_seen"), int(fact["now"])
    started = clock.parse_iso(str(data["started_at"]))
    if started is None:
        return _item(subject, "skipped", "none", "its started_at cannot be read", shown_path)
    stamps = [m for m in (started, clock.parse_iso(seen) if seen else None) if m is not None]
    last = max(stamps)
    source = "ledger" if seen and clock.parse_iso(seen) == last else "started_at"
    evidence = f"last seen {clock.iso(last)} ({source}, {_age(now - last)})"
    if now - last <= threshold:
        return _item(subject, "live", "none", evidence, shown_path)
    item = _item(subject, "stranded", "close", evidence, shown_path)
    return {**item, "_key": found["key"], "_data": data, "_lists": found["lists"],
            "_started": found["started"]}  # fmt: skip


def _duplicate(found: Record) -> Record:
    session_id, names, copies = str(found["session_id"]), found["names"], found.get("copies")
    if not copies:
        return _item(session_id, "skipped", "none", "a copy cannot be read", None)
    loaded = sorted(copies, key=lambda c: (str(c["front"]["created_at"]), str(c["name"])))
    first = loaded[0]["front"]
    if any(any(c["front"].get(k) != first.get(k) for k in _AGREE) for c in loaded[1:]):
        evidence = f"{len(names)} records disagree on identity or times: {', '.join(names)}"
        return _item(session_id, "disagreeing", "report", evidence, None)
    oldest = f".ai/repo/sessions/{loaded[0]['name']}"
    evidence = f"{len(names)} records; fold into the oldest, {loaded[0]['name']}"
    return {**_item(session_id, "duplicate", "fold", evidence, oldest), "_loaded": loaded}


def _gap(fact: Record, gap: Record) -> Record:
    state, (where, line) = fact["state"], str(gap["where"]).split(":", 1)
    item = _item(f"{state}/{where}:{line}", STATES[str(gap["action"])], str(gap["action"]),
                 str(gap["message"]), f"{state}/{gap['file']}")  # fmt: skip
    return {**item, "_file": gap["file"], "_key": gap["key"]}


def _temporary(fact: Record, found: Record) -> Record:
    name, shown_path, age = str(found["name"]), str(found["shown"]), int(found["age"])
    if age < int(fact["stale"]):
        return _item(name, "young", "none", f"written {age}s ago: a live writer's", shown_path)
    if "unreadable" in found:
        evidence = f"unreadable ({found['unreadable']})"
        return _item(name, "stray", "report", evidence, shown_path)
    if found.get("empty"):
        return _item(name, "stray", "remove", "empty", shown_path)
    session_id = found.get("session_id")
    if session_id is None:
        return _item(name, "stray", "report", "not a session record: left as it is", shown_path)
    if session_id in (fact.get("recorded") or {}):
        return _item(name, "stray", "remove", f"{session_id} is already published", shown_path)
    item = _item(name, "stray", "publish", f"the only copy of {session_id}'s record", shown_path)
    return {**item, "_text": found["text"]}


STAGES = {"recover-judge": Stage(run)}
