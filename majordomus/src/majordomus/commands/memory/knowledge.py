"""`majordomus knowledge sources|nodes|edges|related|derive|candidates|promote|reject|check`."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from majordomus import render as show

    if options.command == "knowledge check":
        return show.findings("knowledge check", records, inv)
    if options.command.split()[-1] in ("derive", "candidates", "promote", "reject"):
        return reviewing(records, options, inv)
    return listing(records, options, inv)


def reviewing(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    """The candidate records a derive, a listing or a judgement gave, one line each, then the
    count (`knowledge <action>: …`); the summary's exit code."""
    from mj_core.findings import render_text

    from majordomus import render as show

    seen: dict[str, int] = {}

    def text(record: Record) -> str | None:
        if record.get("kind") == "finding":
            return render_text(record)
        if record.get("kind") != "candidate":
            return None
        action = str(record["action"])
        seen[action] = seen.get(action, 0) + 1
        if action == "listed":
            seen[str(record["status"])] = seen.get(str(record["status"]), 0) + 1
            where = record["branch"] or "unassigned"
            return f"{record['id']}  {record['status']}  {where}  {record['title']}"
        return f"{SAID[action]} {record['path']}  {record['title']}"

    code, summary = show.stream(records, inv, text)
    action = options.command.split()[-1]
    if not inv.json and not summary.get("error") and action in ("derive", "candidates"):
        inv.stdout.write(_counted(action, seen) + "\n")
    return code


SAID = {"derived": "derived", "kept": "kept (already derived)", "planned": "would derive",
        "promoted": "promoted to", "rejected": "rejected"}  # fmt: skip


def _counted(action: str, seen: dict[str, int]) -> str:
    if action == "candidates":
        counts = [(seen.get("candidate", 0), "awaiting review"), (seen.get("rejected", 0),
                  "rejected"), (seen.get("invalid", 0), "invalid")]  # fmt: skip
        return "knowledge candidates: " + ", ".join(f"{n} {what}" for n, what in counts)
    if "planned" in seen:
        return f"knowledge derive: {seen['planned']} would be derived (dry run: nothing written)"
    return f"knowledge derive: {seen.get('derived', 0)} derived, {seen.get('kept', 0)} kept"


def listing(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    """Every record, written in blocks (a listing can be 20,000 lines: one write and flush a
    line would cost more than building them), then the count; the summary's exit code."""
    from mj_core.exit_codes import ExitCode
    from mj_core.stream import jsonl
    from mj_core.stream.protocol import written_part

    from majordomus import render as show

    summary: Record = {"exit": int(ExitCode.INTERNAL_ERROR)}
    counted = 0
    block: list[str] = []
    for record in records:
        kind = record.get("kind")
        if kind == "summary":
            summary = record
            if not inv.json:
                continue
        elif kind == "written":  # the cache's lines, copied (`mj_core.stream.protocol.written`)
            counted += int(record["count"])
            said = written_part(record, "jsonl" if inv.json else "text")
            _write_bytes(inv, block, said)
            block = []
            continue
        elif kind in ("source", "node", "edge", "pointer"):
            counted += 1
        block.append(jsonl.dumps(record).decode() if inv.json else f"{line(record)}\n")
        if len(block) >= 1024:
            inv.stdout.write("".join(block))
            block = []
    inv.stdout.write("".join(block))
    if not inv.json and not summary.get("error"):
        what = options.command.split()[-1]
        if what == "related":
            inv.stdout.write(f"knowledge related: {counted} node(s)\n")
        else:
            scope = getattr(options, "scope", None) or "all"
            noun = {"sources": "file(s)", "nodes": "node(s)", "edges": "edge(s)"}[what]
            inv.stdout.write(f"knowledge {what}: {counted} {noun} in scope {scope}\n")
    inv.stdout.flush()
    return show.ended(summary, inv)


def _write_bytes(inv: Invocation, block: list[str], data: bytes | memoryview) -> None:
    """The lines so far, then `data` as it is: to the binary stream under a text one (no
    decoding 20,000 lines to encode them again), else decoded."""
    inv.stdout.write("".join(block))
    binary = getattr(inv.stdout, "buffer", None)
    if binary is None:
        inv.stdout.write(str(data, "utf-8"))
        return
    inv.stdout.flush()
    binary.write(data)


def line(record: Record) -> str:
    """One record as the line a person reads."""
    from mj_core.findings import render_text
    from mj_policy.knowledge import listing

    if record.get("kind") in ("source", "node", "edge"):
        return listing.line(record)
    if record.get("kind") == "pointer":
        title = f" — {record['title']}" if record["title"] else ""
        where = f"{record['node_kind']}  {record['id']}  {record['path']}"
        return f"{record['relation']}  {where}{title}"
    return render_text(record)
