"""`python -m mj_watch.bench.mcp_first`: how long a client waits for `majordomus mcp` to answer
`initialize`, side by side with `majordomus version`, and (`--before`) with another
installation's `majordomus mcp` (the code before a change).

Each sample, interleaved so that the machine's load falls on every target alike: spawn the
process and time until the first line of its answer — `version`'s one line, or the server's
reply to an `initialize` written on its standard input — then end it. Runs in a generated
fixture (large by default) or in `--repo`. Prints one JSON document: per target the median,
p90, min and max in milliseconds, the load average, and whether this installation's median
is within `--budget-ms` (300); `--check` makes that 10 when it is not (else 0; 13 when a
process gives no answer).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

INITIALIZE = (
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    b'"capabilities":{},"clientInfo":{"name":"mcpfirst","version":"1"}}}\n'
)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m mj_watch.bench.mcp_first", description=__doc__)
    parser.add_argument("--repo", help="measure here instead of on a generated fixture")
    parser.add_argument("--fixture", choices=["small", "large"], default="large")
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--before", help="another installation's majordomus executable")
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--check", action="store_true", help="10 when over the budget")
    return parser.parse_args(argv)


def first_line(argv: list[str], root: Path, stdin: bytes | None) -> float:
    """Milliseconds from spawning `argv` in `root` to the first line it writes."""
    env = {k: v for k, v in os.environ.items() if k != "MJTEST_SAMPLES"}
    began = time.perf_counter()
    proc = subprocess.Popen(
        argv, cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        if stdin is not None and proc.stdin is not None:
            proc.stdin.write(stdin)
            proc.stdin.flush()
        line = proc.stdout.readline() if proc.stdout is not None else b""
        took = (time.perf_counter() - began) * 1000
    finally:
        proc.kill()
        proc.wait()
    if not line.strip():
        raise SystemExit(f"mcpfirst: {' '.join(argv)} gave no answer in {root}")
    return took


def _figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * len(ordered) + 0.5) - 1)]
    return {
        "median_ms": round(statistics.median(ordered), 1),
        "p90_ms": round(p90, 1),
        "min_ms": round(ordered[0], 1),
        "max_ms": round(ordered[-1], 1),
    }


def measure(root: Path, samples: int, before: str | None) -> dict[str, list[float]]:
    from mj_watch.bench.targets import executable

    here = executable()
    targets: dict[str, tuple[list[str], bytes | None]] = {
        "majordomus version": ([*here, "version"], None),
        "majordomus mcp: initialize answered": ([*here, "mcp"], INITIALIZE),
    }
    if before:
        targets["the same, before"] = ([before, "mcp"], INITIALIZE)
    times: dict[str, list[float]] = {name: [] for name in targets}
    for argv, stdin in targets.values():  # one unmeasured run each: files cached
        first_line(argv, root, stdin)
    for _ in range(samples):
        for name, (argv, stdin) in targets.items():
            times[name].append(first_line(argv, root, stdin))
    return times


def main(argv: list[str] | None = None) -> int:
    options = _parse(argv)
    scenario = None
    if options.repo:
        root = Path(options.repo).resolve()
    else:
        from mj_watch.bench import fixture

        scenario = fixture.scenario(options.fixture, 1)
        root = scenario.root
    try:
        times = measure(root, options.samples, options.before)
    finally:
        if scenario is not None:
            scenario.close()
    shown = {name: _figures(found) for name, found in times.items()}
    median = shown["majordomus mcp: initialize answered"]["median_ms"]
    within = median <= options.budget_ms
    with open("/proc/loadavg", encoding="ascii") as load:
        loadavg = load.read().split()[:3]
    doc = {
        "where": str(root) if options.repo else f"fixture {options.fixture}",
        "samples": options.samples,
        "load": loadavg,
        "targets": shown,
        "budget_ms": options.budget_ms,
        "within_budget": within,
    }
    sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    return 10 if options.check and not within else 0


if __name__ == "__main__":
    raise SystemExit(main())
