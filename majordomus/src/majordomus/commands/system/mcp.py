"""`majordomus mcp [serve]`: the read-only MCP server on stdio (`majordomus.mcp.server`);
`majordomus mcp install`: a client's configuration for it (`mj_policy.hooks.mcp_wiring`)."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_policy.layer.loader import load

    from majordomus.commands.system.version import installed
    from majordomus.mcp import early as mcpearly

    root = inv.root()
    load(root)  # no layer: 12 now, not a server that fails every call
    inv.stdout.flush()
    early = mcpearly.serve(root, installed())  # the handshake, answered before the SDK loads
    if early.ended:
        return 0  # the client went away before it needed more
    from majordomus.mcp import server as mcpserver  # the SDK: imported by this command alone

    return mcpserver.serve(root, installed(), early)


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    """`mcp install`: the entry to add, or what `--write` did."""
    from majordomus import render as show

    def text(record: Record) -> str:
        return _said(record) + "".join(_notes(record))

    code, _ = show.stream(records, inv, text)
    return code


def _said(record: Record) -> str:
    if record["action"] == "wrote":
        return f"wrote: {record['config']} (majordomus mcp for {record['provider']})"
    if record["action"] == "present":
        return f"{record['config']}: already starts majordomus mcp; nothing to do"
    return f"# add to {record['config']} ({record['provider']}):\n{record['text'].rstrip()}"


def _notes(record: Record) -> list[str]:
    """What else the client needs, and what the entry found there lacks (kept as it is)."""
    lacks = record.get("lacks") or []
    out = [f"\nnote: the entry there has no {', '.join(lacks)} (kept as it is)"] if lacks else []
    return out + ([f"\nthen: {record['needs']}"] if record.get("needs") else [])
