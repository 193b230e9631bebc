"""The steps `init` prints after the first commit: for each client the policy declares, the
command that wires its session hooks (`capture install`) and its MCP server (`mcp install`),
with the files each writes, for the person to commit."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path


def text(root: Path) -> str:
    """The block of per-client steps ("" when the policy declares no such client)."""
    declared = _providers(root)
    steps = [*_capture(declared), *_mcp(declared)]
    if not steps:
        return ""
    width = max(len(command) for command, _, _ in steps)
    out = ["then, for each client the people here use (commit the files each writes):"]
    out += [f"  {cmd:<{width}}   # {why}; writes {' '.join(files)}" for cmd, why, files in steps]
    return "\n".join(out) + "\n"


def _providers(root: Path) -> list[str]:
    from mj_core.errors import MjError
    from mj_policy.layer import loader as layer
    from mj_policy.projection import render as projections

    try:
        found = projections.declared(layer.load(root).policy.data)
    except MjError:
        return []
    return list(dict.fromkeys(p.provider for p in found))


def _capture(declared: list[str]) -> list[tuple[str, str, list[str]]]:
    from mj_policy.hooks import adapters as hookadapters

    why = "session hooks: the briefing at session start, the prompt archive"
    return [
        (f"majordomus capture install --provider {p}", why, [a["settings"], a["hooks"]])
        for p in declared
        if (a := hookadapters.ADAPTERS.get(p))
    ]


def _mcp(declared: list[str]) -> list[tuple[str, str, list[str]]]:
    from mj_policy.hooks import mcp_wiring as mcpwiring

    why = "the read-only MCP server in that client"
    return [
        (f"majordomus mcp install --provider {c.key} --write", why, [c.data["mcp"]["config"]])
        for c in mcpwiring.clients()
        if c.key in declared
    ]
