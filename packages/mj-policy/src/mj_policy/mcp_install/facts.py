"""`mj-policy mcp-install-facts --provider <client> [--write]`: what `mj-policy mcp-install-judge`
judges, as one `mcp-install` fact: the client, `--write` as given, its configuration file's
path and text as they are (none when absent), or why it cannot be read (a symbolic link 15,
unreadable 10). Nothing is judged here; a client without an MCP configuration is a usage error
(2), as the parser's.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.stream.stage import Stage

from mj_policy import providers
from mj_policy.hooks import mcp_wiring as mcpwiring

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield gather(context.root(), str(options.provider), write=bool(options.write))


def gather(root: Path, key: str, *, write: bool) -> Record:
    """The `mcp-install` fact (the writer gathers it again, the same way)."""
    provider = providers.get(key)
    block = mcpwiring.config_block(provider)
    text, problem = None, None
    try:
        text = mcpwiring.read_text(root, provider)
    except MjError as exc:
        problem = {"code": int(exc.code), "message": exc.message}
    return {"kind": "fact", "fact": "mcp-install", "provider": provider.key, "write": write,
            "config": block["config"], "text": text, "problem": problem}  # fmt: skip


STAGES = {"mcp-install-facts": Stage(run)}
