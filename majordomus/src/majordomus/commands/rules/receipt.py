"""`majordomus receipt [--for PROVIDER] [--path PATH]…`: a short table per provider of what its
client loads and why, then what it does not load and why (the rule files it reads only on
request counted in one line; `--json` lists each)."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]

RULES = ".ai/repo/rules/"


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import render as show

    held = list(records)
    if inv.json:
        code, _ = show.stream(held, inv, lambda record: None)
        return code
    shown = [r for r in held if r.get("kind") != "load"]
    by: dict[str, list[Record]] = {}
    for record in held:
        if record.get("kind") == "load":
            by.setdefault(str(record["provider"]), []).append(record)
    text = "".join(_provider(name, found) for name, found in by.items())
    code, _ = show.stream([{"kind": "text", "text": text}, *shown], inv, lambda record: None)
    return code


def _provider(name: str, found: list[Record]) -> str:
    rows = [r for r in found if not _rule_on_request(r)]
    width = max((len(str(r["path"])) for r in rows), default=0)
    counted = [r for r in found if r["loaded"] and r["budget"]]
    total = sum(int(r["lines"]) for r in counted)
    budget = f", budget {counted[0]['budget']}" if counted else ""
    out = [f"{name}: {total} lines in every conversation{budget}\n"]
    out += [_row(r, width) + "\n" for r in rows]
    asked = [r for r in found if _rule_on_request(r)]
    if asked:
        out.append(
            f"  {'on-request':<12} {len(asked)} rule files in {RULES} (the bootstrap points "
            "there; `majordomus rules list`)\n"
        )
    return "".join(out)


def _rule_on_request(record: Record) -> bool:
    return record["why"] == "on-request" and str(record["path"]).startswith(RULES)


def _row(record: Record, width: int) -> str:
    why = str(record["why"])
    if record["lines"] is None:
        hand = "" if record["projected"] else " (hand-written)"
        return f"  {'not loaded':<12} {record['path']:<{width}}  {why}{hand}: {record['note']}"
    size = f"{record['lines']:>5} lines {record['bytes']:>7} bytes ~{record['tokens']} tokens"
    extra = []
    if not record["projected"] and why not in ("mcp", "on-request"):
        extra.append("hand-written")
    if record["from"]:
        extra.append(f"from {record['from']}")
    if record["note"]:
        extra.append(str(record["note"]))
    tail = f"  ({'; '.join(extra)})" if extra else ""
    return f"  {why:<12} {record['path']:<{width}}  {size}{tail}"
