"""`python -m mj_watch.bench.mcp_session`: `majordomus mcp` timed in one SDK client session.

`majordomus bench "mcp serve"` times the whole process (start, one `initialize`, end); this
times what a session adds: from spawning the server to its first `initialize` reply, the
`tools/list` after it, then each `tools/call search` in the same session (the first one apart:
it loads the SDK the handshake did without), on a generated fixture (`mj_watch.bench.fixture`,
large by default) or on the repository named by `--repo`. Prints one JSON document; measures
only, judges nothing (exit 0; 13 when the server fails). The MCP SDK it drives the server
with is a dependency of `majordomus`, imported here only when a session is measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m mj_watch.bench.mcp_session", description=__doc__
    )
    parser.add_argument("--repo", help="measure here instead of on a generated fixture")
    parser.add_argument("--fixture", choices=["small", "large"], default="large")
    parser.add_argument("--calls", type=int, default=50, help="tools/call search (default 50)")
    parser.add_argument("--text", default="objective", help="what search looks for")
    return parser.parse_args(argv)


async def _session(root: Path, calls: int, text: str) -> dict[str, Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters
    from mcp.client.stdio import stdio_client

    from mj_watch.bench.targets import executable

    command, *args = executable()
    params = StdioServerParameters(command=command, args=[*args, "mcp"], cwd=str(root))
    spawned = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        ready = time.perf_counter()
        await session.list_tools()
        listed = time.perf_counter()
        times = []
        for _ in range(calls):
            began = time.perf_counter()
            result = await session.call_tool("search", {"text": text})
            times.append(time.perf_counter() - began)
    last = "".join(getattr(block, "text", "") for block in result.content).splitlines()[-1]
    return {
        "initialize_ms": round((ready - spawned) * 1000, 1),
        "tools_list_ms": round((listed - ready) * 1000, 1),
        "first_search_ms": round(times[0] * 1000, 1),
        "search_calls": calls,
        "search_median_ms": round(statistics.median(times) * 1000, 2),
        "search_min_ms": round(min(times) * 1000, 2),
        "search_max_ms": round(max(times) * 1000, 2),
        "search_said": last,
    }


def main(argv: list[str] | None = None) -> int:
    import anyio

    options = _parse(argv)
    scenario = None
    if options.repo:
        root = Path(options.repo).resolve()
    else:
        from mj_watch.bench import fixture

        scenario = fixture.scenario(options.fixture, 1)
        root = scenario.root
    try:
        found = anyio.run(_session, root, options.calls, options.text)
    finally:
        if scenario is not None:
            scenario.close()
    found["where"] = f"fixture {options.fixture}" if scenario is not None else str(root)
    with open("/proc/loadavg", encoding="ascii") as load:
        found["load"] = load.read().split()[:3]
    sys.stdout.write(json.dumps(found, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
