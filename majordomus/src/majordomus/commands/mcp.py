"""`majordomus mcp [serve]`: the read-only MCP server on stdio (`majordomus.mcpserver`)."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse

    from majordomus.invocation import Invocation


def run(options: argparse.Namespace, inv: Invocation) -> int:
    from mj_policy.layer import load

    from majordomus.commands.version import installed

    root = inv.root()
    load(root)  # no layer: 12 now, not a server that fails every call
    from majordomus import mcpserver  # the SDK: imported by this command alone

    return mcpserver.serve(root, installed())
