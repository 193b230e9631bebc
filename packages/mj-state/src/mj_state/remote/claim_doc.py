"""The claim document: the one file (`claim.json`) in the tree of each claim commit.

    {"format": 1, "what": {"type": "issue", "id": "I0001"},
     "who": {"clone": "c-…", "worktree": "/…", "branch": "main", "head": "<sha>"},
     "task": "t-…" | null, "scope": ["src/parser"], "state": "held" | "released",
     "since": "<UTC>", "lease_until": "<UTC>" | null, "took_over": {…}?}

Its schema is `share/schemas/claim.schema.json`; `parse` checks the same rules by hand (the
remote's bytes are untrusted: over 16 KiB, not that shape, a scope path that is absolute or
climbs out with `..`, or a kind and id other than its ref names → a problem, never an error).
An ADR number's claim has no lease (`lease_until: null`): it is never released.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.stream import jsonl

from mj_state.remote import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

LIMIT = 16 * 1024
NAME = "claim.json"
KEYS = {"format", "what", "who", "task", "scope", "state", "since", "lease_until"}
WHO = {"clone", "worktree", "branch", "head"}
TOOK = {"clone", "branch", "since", "lease_until"}


def make(
    kind: str,
    ident: str,
    who: Record,
    *,
    task: str | None,
    scope: list[str],
    since: int,
    lease: int | None,
) -> Record:
    """A held claim from `since` (a lease of `lease` seconds; None: never lapses)."""
    return {
        "format": 1,
        "what": {"type": kind, "id": ident},
        "who": {k: who.get(k) for k in ("clone", "worktree", "branch", "head")},
        "task": task,
        "scope": list(scope),
        "state": "held",
        "since": clock.iso(since),
        "lease_until": clock.iso(since + lease) if lease is not None else None,
    }


def encode(doc: Record) -> bytes:
    return jsonl.dumps(doc)


def holder(doc: Record) -> str:
    """`clone c-… (branch main, since …)` for messages."""
    who = doc.get("who") or {}
    return f"clone {who.get('clone')} (branch {who.get('branch')}, since {doc.get('since')})"


def lapsed(doc: Record, now: int) -> bool:
    until = doc.get("lease_until")
    ends = clock.parse_iso(str(until)) if until else None
    return ends is not None and ends < now


def parse(data: bytes, kind: str, ident: str) -> tuple[Record | None, str | None]:
    """(the document, None) when `data` is a claim on (kind, ident); else (None, why)."""
    if len(data) > LIMIT:
        return None, f"{NAME} is {len(data)} bytes (over {LIMIT})"
    try:
        doc = jsonl.loads_line(data.rstrip(b"\n"))
    except ValueError:
        return None, f"{NAME} is not one JSON object"
    problem = _problem(doc, kind, ident)
    return (None, problem) if problem else (doc, None)


def _problem(doc: object, kind: str, ident: str) -> str | None:
    if type(doc) is not dict:
        return f"{NAME} is not an object"
    keys = set(doc)
    form = doc.get("format")
    if not keys >= KEYS or keys - KEYS - {"took_over"} or type(form) is not int or form != 1:
        return f"{NAME} does not have the claim's keys (format 1)"
    what, who = doc["what"], doc["who"]
    if type(what) is not dict or what != {"type": kind, "id": ident}:
        return f"{NAME} names another claim than its ref"
    if type(who) is not dict or set(who) != WHO or not layout.clone_ok(str(who.get("clone"))):
        return f"{NAME}: `who` is not a clone id, worktree, branch and head"
    if not all(type(v) is str or v is None for v in who.values()):
        return f"{NAME}: `who` holds something other than text"
    if doc["state"] not in ("held", "released") or not _time(doc["since"]):
        return f"{NAME}: state or since is not one the tool writes"
    if doc["lease_until"] is not None and not _time(doc["lease_until"]):
        return f"{NAME}: lease_until is not a UTC time"
    if doc["task"] is not None and type(doc["task"]) is not str:
        return f"{NAME}: task is not text"
    return _scope_problem(doc["scope"]) or _took_problem(doc)


def _time(value: object) -> bool:
    return type(value) is str and clock.parse_iso(value) is not None


def _scope_problem(scope: object) -> str | None:
    if type(scope) is not list or len(scope) > 256:
        return f"{NAME}: scope is not a list of paths"
    for path in scope:
        if type(path) is not str or not path or len(path) > 4096:
            return f"{NAME}: scope holds something other than a path"
        if path.startswith("/") or ".." in path.split("/") or "\0" in path or "\\" in path:
            return f"{NAME}: scope path {path[:80]!r} names a place outside the repository"
    return None


def _took_problem(doc: Record) -> str | None:
    if "took_over" not in doc:
        return None
    took = doc["took_over"]
    if type(took) is not dict or set(took) != TOOK:
        return f"{NAME}: took_over is not the claim it replaced"
    return None
