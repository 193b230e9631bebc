"""The cold and long paths side by side, in one run: `finish --check` and `history --validate` on
a ledger of 50,000 lines against an older majordomus, a cold `plan ready` on 4,000 issues, and
`mcp serve` answering `initialize`.

    python packages/mj-watch/benchmarks/scale.py --old <majordomus> [--before <majordomus>]
    [--rounds 15]

Each majordomus gets repositories of its own, adopted by its own `init` (an older layer is not
the newer one's): a ledger of `--lines` lines (50,000) written by `mj_watch.bench.fixture_history`
with an active task started by that majordomus, and (for this one and `--before`) a plan of
`--issues` issues (4,000) from `mj_watch.bench.fixture_plan`, committed and settled. The rows
take turns, one sample each per round, their order reversed every other round, so a change in
the machine's load falls on all alike; each sample is one whole process under the benchmark's
launcher (`mj_watch.bench.measure`: wall time, CPU time of the process and its git calls, and
its own peak resident memory). `plan ready` runs cold: its caches (`plan-views.json`,
`plan-model.json`) are removed before every sample. `mcp serve` is timed from spawn to the
first line of its answer to `initialize` (`mj_watch.bench.mcp_first`). The table gives medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from mj_watch.bench import fixture_history
from mj_watch.bench import fixture_plan
from mj_watch.bench import mcp_first as mcpfirst
from mj_watch.bench import measure
from mj_watch.bench import scenario as scenarios
from mj_watch.bench.targets import executable

CACHES = (".ai/local/cache/plan-views.json", ".ai/local/cache/plan-model.json")


def adopted(root: Path, mj: list[str], env: dict[str, str]) -> None:
    scenarios.blank(root)
    for argv in (("init",), ("update",)):
        subprocess.run([*mj, *argv], cwd=root, env=env, capture_output=True, check=False)
    scenarios.commit(root, "adopt majordomus")


def ledger_repo(root: Path, mj: list[str], env: dict[str, str], lines: int) -> Path:
    adopted(root, mj, env)
    for index in range(50):
        (root / "src").mkdir(exist_ok=True)
        (root / "src" / f"m{index}.py").write_text(f"X = {index}\n", encoding="utf-8")
    scenarios.commit(root, "source")
    sizes = fixture_history.Sizes(lines, 200, 500, 100, 50)
    fixture_history.write(root, root / ".ai" / "local" / "state", sizes)
    scenarios.settle(root)
    start = [*mj, "start", "the task", "--scope", "src"]
    subprocess.run(start, cwd=root, env=env, capture_output=True, check=True)
    return root


def plan_repo(root: Path, mj: list[str], env: dict[str, str], issues: int) -> Path:
    adopted(root, mj, env)
    fixture_plan.write(root, issues)
    scenarios.commit(root, f"a plan of {issues} issues")
    scenarios.settle(root)
    return root


def cold(root: Path) -> None:
    for name in CACHES:
        (root / name).unlink(missing_ok=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="the older majordomus (finish, history)")
    parser.add_argument("--before", help="another majordomus for plan ready and mcp serve")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--issues", type=int, default=4000)
    options = parser.parse_args()
    env = scenarios.environment()
    scratch = Path(tempfile.mkdtemp(prefix="mj-scale-bench-"))
    here = executable()
    rows: list[tuple[str, list[str], Path, bool]] = [
        ("python -c pass", [sys.executable, "-c", "pass"], scratch, False)
    ]
    sides = [("now", here), ("old", [options.old])]
    for side, mj in sides:
        root = ledger_repo(scratch / f"ledger-{side}", mj, env, options.lines)
        rows.append((f"finish --check, {side}", [*mj, "finish", "--check"], root, False))
        rows.append((f"history --validate, {side}", [*mj, "history", "--validate"], root, False))
    plans = [("now", here)] + ([("before", [options.before])] if options.before else [])
    for side, mj in plans:
        root = plan_repo(scratch / f"plan-{side}", mj, env, options.issues)
        rows.append((f"plan ready, cold, {side}", [*mj, "plan", "ready"], root, True))
    for _, argv, where, _ in rows:  # one unmeasured run each: bytecode and the disk warm
        subprocess.run(argv, cwd=where, env=env, capture_output=True, check=False)
    wall: dict[str, list[float]] = {row[0]: [] for row in rows}
    cpu: dict[str, list[float]] = {row[0]: [] for row in rows}
    peak: dict[str, list[int]] = {row[0]: [] for row in rows}
    first: dict[str, list[float]] = {side: [] for side, _ in plans}
    load = [os.getloadavg()[0]]
    for number in range(options.rounds):
        for name, argv, where, is_cold in rows if number % 2 == 0 else rows[::-1]:
            if is_cold:
                cold(where)
            sample = measure.run(argv, where, env)
            if sample.code != 0:
                raise SystemExit(f"{name}: exit {sample.code}: {sample.said}")
            wall[name].append(sample.ms)
            cpu[name].append(sample.cpu_ms)
            peak[name].append(sample.peak_kb)
        for side, mj in plans:
            mcp = [*mj, "mcp"]
            first[side].append(mcpfirst.first_line(mcp, scratch / "plan-now", mcpfirst.INITIALIZE))
    load.append(os.getloadavg()[0])
    print(f"load average {load[0]:.2f} at the start, {load[1]:.2f} at the end; {options.rounds} "
          f"rounds, interleaved; {os.cpu_count()} CPU(s)\n")  # fmt: skip
    print("| run | median ms | CPU median ms | peak MiB |")
    print("|---|---:|---:|---:|")
    for name, *_ in rows:
        print(f"| {name} | {statistics.median(wall[name]):.1f} | "
              f"{statistics.median(cpu[name]):.1f} | {max(peak[name]) / 1024:.1f} |")  # fmt: skip
    for side, times in first.items():
        print(
            f"| mcp serve: initialize answered, {side} | {statistics.median(times):.1f} | – | – |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
