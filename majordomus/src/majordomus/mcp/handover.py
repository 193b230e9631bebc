"""The SDK takes over the conversation `majordomus.mcp.early` began.

Between the SDK's stdio transport and its server sit two relays: one hands the server the
lines read before (the handshake, then any line not answered) and then everything the
transport reads; the other passes every message the server writes to the transport except its
answer to the handshake, which the client already has. Should that answer differ from the one
sent, one line on standard error says so (the protocol's log channel; a test keeps it from
happening).
"""

from __future__ import annotations

import sys
from typing import Any

import anyio
from mcp import types
from mcp.shared.message import SessionMessage

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

    from majordomus.mcp.early import Early


async def run(server: Server[Any], options: Any, early: Early, reads: Any, writes: Any) -> None:
    """Serve `early`'s lines, then the transport's, until the transport's input ends."""
    to_server, server_reads = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    server_writes, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    feeding = anyio.CancelScope()

    async def feed() -> None:
        with feeding:
            async with to_server:
                for line in [*early.replay, *early.pending]:
                    await to_server.send(_parsed(line))
                async for item in reads:
                    await to_server.send(item)

    async def drain() -> None:
        dropping = early.drop is not None
        async with from_server, writes:
            async for message in from_server:
                if dropping and _answers(message, early.drop):
                    dropping = False
                    _compare(message, early.answer)
                    continue
                await writes.send(message)

    async with anyio.create_task_group() as group:
        group.start_soon(drain)
        group.start_soon(feed)
        await server.run(server_reads, server_writes, options)
        feeding.cancel()


def _parsed(line: bytes) -> SessionMessage | Exception:
    """A line as the SDK's stdio transport reads it (a line it cannot read is an exception)."""
    try:
        text = line.decode("utf-8", errors="replace")
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(text, by_name=False))
    except Exception as exc:  # the transport hands the server what it could not read
        return exc


def _answers(message: SessionMessage, ident: int | str | None) -> bool:
    inner = message.message
    return isinstance(inner, types.JSONRPCResponse | types.JSONRPCError) and inner.id == ident


def _compare(message: SessionMessage, sent: bytes) -> None:
    own = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
    if own.encode() != sent:
        sys.stderr.write(f"majordomus mcp: the early handshake answer was not the SDK's: {own}")
