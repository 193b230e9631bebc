"""`majordomus sync` and `majordomus claims` (rendered here too): the remote's side."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]

ACTIONS = {"renew": "renewed", "publish": "published", "release": "released"}


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import render as show

    if options.command == "claims":
        code, _ = show.stream(records, inv, claim_line)
        return code
    counts: dict[str, int] = {}

    def text(record: Record) -> str | None:
        if record.get("kind") == "finding":
            from mj_core.findings import render_text

            level = str(record["level"])
            counts[level] = counts.get(level, 0) + 1
            return render_text(record)
        if record.get("view") == "published":
            counts["published"] = counts.get("published", 0) + 1
        return published(record)

    code, summary = show.stream(records, inv, text)
    if not inv.json and not summary.get("error"):
        if counts.get("FAIL"):
            inv.stdout.write(f"sync: {counts['FAIL']} failure(s); nothing was published\n")
        else:
            inv.stdout.write("sync: published, the mirror is up to date\n")
    return code


def claim_line(record: Record) -> str | None:
    if record.get("view") == "mirror":
        if record["synced_at"] is None:
            said = "never synced here — `majordomus sync` mirrors its claims"
            return f"remote {record['remote']}: {said}"
        bad = (
            f"; {record['problems']} ref(s) not read (`majordomus sync` names them)"
            if record["problems"]
            else ""
        )
        return f"remote {record['remote']}: claims as of the sync {record['age']} ago{bad}"
    if record.get("view") != "claim":
        return None
    state = str(record["state"])
    if record.get("local") and record["local"] != "held":
        state = (
            f"{state}, {record['local']} here"
            if record["source"] == "remote"
            else str(record["local"])
        )
    who = f"clone {record['clone']} branch {record['branch']}"
    mine = "  (this clone)" if record["mine"] else ""
    told = [f"{_span(int(record['age_s']))} ago"] if record.get("age_s") is not None else []
    told.append(f"lease until {record['lease_until']}" if record["lease_until"] else "no lease")
    scope = f"  scope {','.join(record['scope'])}" if record["scope"] else ""
    what = f"{record['what']:<5} {record['id']:<24} {state:<10}"
    held = f"since {record['since']} ({', '.join(told)})"
    return f"{what} {who}  {held}{scope}{mine}"


def _span(seconds: int) -> str:
    """A claim's age, as `12m`."""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{max(seconds, 0)}s"


def published(record: Record) -> str | None:
    """A ref a sync moved, one line."""
    if record.get("view") != "published":
        return None
    if record["action"] == "ledger":
        return f"ledger   {record['ref']}  +{record.get('lines', 0)} line(s)"
    return f"{ACTIONS[record['action']]:<8} {record['ref']}"
