"""Doctor's look at whether each rule reaches a client: read off the declared clients' load
receipts (the targets fact's `reach`, `mj_policy.receipt.reach`), a rule that no declared
client puts in front of its model — not always, not where it applies, not imported — is a
WARN naming each client and why; a FAIL when it is `class: blocking`, since nothing then makes
a worker follow it. A rule a tool validator enforces is left out (it holds whatever a model
reads), as is every rule when no client is declared."""

from __future__ import annotations

from mj_core.findings import Finding

from mj_watch.doctor.facts_view import Facts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def rule_reach(facts: Facts) -> Iterator[Finding]:
    seen = facts.get("targets").get("reach")
    if not seen or not seen.get("clients"):
        return
    clients = [str(c) for c in seen["clients"]]
    carried_all = seen.get("carried") or {}
    for path, rule in _rules(facts):
        key = f"{rule['id']}@{rule['version']}"
        carried = carried_all.get(key) or {}
        reached = [c for c in clients if any(i["reaches"] for i in carried.get(c) or [])]
        if reached:
            yield Finding("OK", "reach", key, f"reaches {', '.join(reached)}")
            continue
        level = "FAIL" if rule.get("class") == "blocking" else "WARN"
        why = "; ".join(f"{c}: {_why(path, carried.get(c) or [])}" for c in clients)
        message = f"reaches no declared client — {why}"
        if not (rule.get("paths") or rule.get("always_loaded")):
            message += f"; declare `paths` or `always_loaded: true` in {path}"
        yield Finding(level, "reach", key, message, f"majordomus receipt --for {clients[0]}")


def _rules(facts: Facts) -> Iterator[tuple[str, Record]]:
    """(file, front matter) of each active rule no tool enforces, from the front matter the
    facts hold (parsed once for all the checks; a rule that does not parse is the rules
    doctrine's finding)."""
    from mj_watch.doctrine.vendor import rule_files

    base = facts.section("rules", "repo/rules")
    for path in rule_files(facts.files_below(base), base):
        if path.endswith("/README.md"):
            continue
        doc, _ = facts.front_matter(path)
        data = doc.data if doc is not None and isinstance(doc.data, dict) else None
        if data is None or data.get("kind") != "rule" or data.get("status") != "active":
            continue
        block = data.get("x-majordomus")
        if isinstance(block, dict) and block.get("enforced_by"):
            continue
        if "id" in data and "version" in data:
            yield path, data


def _why(path: str, items: list[Record]) -> str:
    """Why one client does not bring the rule in: what its receipt holds of it."""
    if not items:
        return f"{path} is read only on request"
    shown = []
    for item in items:
        where, why, form = item["path"], item["why"], item["form"]
        if form == "pointer":
            shown.append(f"{where} only points at it")
        elif why == "on-request":
            shown.append(f"{where} is read only on request")
        else:
            shown.append(f"{where} is not loaded ({why})")
    return ", ".join(shown)
