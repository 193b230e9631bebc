"""The server's handshake and listings as JSON, without the MCP SDK (`majordomus.mcp.early`).

What the SDK would answer to `initialize`, `tools/list` and `resources/list` (first page),
built from the same sources the SDK server is given (`majordomus.mcp.tools`, the server's name,
version and instructions). A request whose shape the SDK might judge otherwise gets None
here, and the SDK answers it: only the plain shapes real clients send are answered early.
`majordomus/tests/test_mcpearly.py` holds every answer byte-equal to the SDK's own and the
protocol versions below equal to the SDK's.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

NAME = "majordomus"
INSTRUCTIONS = (
    "Read-only: the repository's durable records and its AI layer. "
    "Start with the context tool; search, list and get find the rest."
)
# the SDK's HANDSHAKE_PROTOCOL_VERSIONS (mcp_types.version), oldest first
HANDSHAKE = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
# what the SDK derives from the handlers the server registers (tools and resources)
CAPABILITIES = {
    "resources": {"listChanged": False, "subscribe": False},
    "tools": {"listChanged": False},
}
PARAMS = {"protocolVersion", "capabilities", "clientInfo"}
CLIENT_INFO = {"name", "version", "title", "description", "websiteUrl"}
CAPABILITY_KEYS = {"roots": {"listChanged"}, "elicitation": {"form", "url"}, "sampling": set()}


def initialized(params: Any, version: str) -> dict[str, Any] | None:
    """The `initialize` result for `params`, or None when their shape is not the plainest."""
    if not isinstance(params, dict) or set(params) != PARAMS:
        return None
    requested = params["protocolVersion"]
    if not isinstance(requested, str) or not _client(params["clientInfo"]):
        return None
    if not _capabilities(params["capabilities"]):
        return None
    return {
        "capabilities": CAPABILITIES,
        "instructions": INSTRUCTIONS,
        "protocolVersion": requested if requested in HANDSHAKE else HANDSHAKE[-1],
        "serverInfo": {"name": NAME, "version": version},
    }


def _client(info: Any) -> bool:
    if not isinstance(info, dict) or not {"name", "version"} <= set(info) <= CLIENT_INFO:
        return False
    return all(isinstance(value, str) for value in info.values())


def _capabilities(found: Any) -> bool:
    """Only the capabilities the SDK takes as given: each a table of known keys, a flag a
    boolean, a sub-capability an empty table; `experimental`, tables of anything."""
    if not isinstance(found, dict) or not set(found) <= {*CAPABILITY_KEYS, "experimental"}:
        return False
    extra = found.get("experimental", {})
    if not isinstance(extra, dict) or not all(isinstance(v, dict) for v in extra.values()):
        return False
    for name, table in found.items():
        if name == "experimental":
            continue
        if not isinstance(table, dict) or not set(table) <= CAPABILITY_KEYS[name]:
            return False
        for key, value in table.items():
            plain = type(value) is bool if key == "listChanged" else value == {}
            if not plain:
                return False
    return True


def listing(method: str, root: Path) -> dict[str, Any] | None:
    """The first page of `tools/list` or `resources/list`, or None (another method, or a
    listing the SDK must refuse)."""
    if method == "tools/list":
        return {"tools": [_tool(tool) for tool in _tools()]}
    if method == "resources/list":
        return _resources(root)
    return None


def _tools() -> list[dict[str, Any]]:
    from majordomus.mcp import tools as mcptools

    return mcptools.tools()


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool as the SDK's Tool model writes it: its fields in name order."""
    schema = tool["input_schema"]
    written = {key: schema[key] for key in sorted(schema)}
    return {"description": tool["description"], "inputSchema": written, "name": tool["name"]}


def _resources(root: Path) -> dict[str, Any] | None:
    from mj_core.errors import MjError

    from majordomus.mcp import tools as mcptools

    try:
        page, cursor = mcptools.resources(root, None)
    except MjError:
        return None  # the SDK answers the error
    listed = [
        {"mimeType": mcptools.mime(e), "name": f"{e.kind}/{e.id}", "title": e.title, "uri": e.uri}
        for e in page
    ]
    return {"resources": listed} if cursor is None else {"nextCursor": cursor, "resources": listed}
