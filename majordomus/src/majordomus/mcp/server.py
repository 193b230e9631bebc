"""`majordomus mcp`: the read-only MCP server on stdio, on the official MCP Python SDK.

The only module that imports the SDK (`mcp`), and only `majordomus mcp` imports this one: no
other command pays for it. The answers come from `majordomus.mcp.tools`; this module maps
them onto the protocol: tools/list and tools/call, resources/list (paginated) and
resources/read. A resource that does not exist, or an id shaped like a path, is a protocol
error (invalid params), never a crash. The server opens no port and ends when its client
closes standard input.
"""

from __future__ import annotations

from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mj_core.errors import MjError

from majordomus.mcp import handover as mcphandover
from majordomus.mcp import shapes as mcpshapes
from majordomus.mcp import tools as mcptools

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from majordomus.mcp.early import Early


def build(root: Path, version: str) -> Server[Any]:
    """The server for the repository at `root`."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(**tool) for tool in mcptools.tools()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        text, failed = mcptools.call(root, params.name, dict(params.arguments or {}))
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], is_error=failed
        )

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        try:
            page, cursor = mcptools.resources(root, params.cursor if params else None)
        except MjError as exc:
            raise MCPError(types.INVALID_PARAMS, exc.message) from None
        listed = [
            types.Resource(
                uri=e.uri, name=f"{e.kind}/{e.id}", title=e.title, mime_type=mcptools.mime(e)
            )
            for e in page
        ]
        return types.ListResourcesResult(resources=listed, next_cursor=cursor)

    async def read_resource(
        ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        try:
            entry, text = mcptools.read(root, str(params.uri))
        except MjError as exc:
            raise MCPError(types.INVALID_PARAMS, exc.message) from None
        contents = types.TextResourceContents(
            uri=entry.uri, mime_type=mcptools.mime(entry), text=text
        )
        return types.ReadResourceResult(contents=[contents])

    return Server(
        mcpshapes.NAME,
        version=version,
        instructions=mcpshapes.INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


def serve(root: Path, version: str, early: Early | None = None) -> int:
    """Serve on stdin/stdout until the client goes away; what `majordomus.mcp.early` read and
    answered before (`early`) is handed to the SDK first."""
    import anyio

    server = build(root, version)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            options = server.create_initialization_options()
            if early is None or not (early.replay or early.pending):
                await server.run(read_stream, write_stream, options)
                return
            await mcphandover.run(server, options, early, read_stream, write_stream)

    try:
        anyio.run(main)
    except* (BrokenPipeError, ConnectionResetError, anyio.BrokenResourceError):
        _quiet_stdout()  # the client went away while we answered: it has ended, so do we
    return 0


def _quiet_stdout() -> None:
    """Standard output to the null device, so nothing flushed at exit meets the closed pipe."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
