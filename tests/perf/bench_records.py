"""Benchmark the record commands on a busy generated repository.

    .venv/bin/python tests/perf/bench_records.py [--runs 10] [--out result.json]

The fixture is `bench_context.fixture` (a real `majordomus init`, an active task, 500
checkpoints and 200 handovers with a quarter on another branch, 5,000 ledger lines, 100
decisions) plus 50 questions in `open-questions.md`, half of them resolved. It prints the median
wall time of `--runs` runs of `majordomus finish --check`, `majordomus checkpoint` (a one-line
body on stdin; each run writes a record) and `majordomus handover --resolve`, against the
150 ms budget, with the MJ_TIMING counters of one run of each.

`--fixture large` measures on the benchmark's `large` fixture instead
(`majordomus.benchmark.fixture`: 2,000 tracked files, 5,000 ledger lines, 200 handovers, 500
checkpoints, 100 decisions, 50 questions, 3 linked worktrees with active tasks), with a task
started on `src` in the main worktree.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_context
from mj_state import questions

BUDGET_MS = 150
COMMANDS = (
    ("finish", "--check"),
    ("checkpoint",),
    ("handover", "--resolve"),
)


def add_questions(root: Path, count: int) -> None:
    state = root / ".ai" / "local" / "state"
    task = json.loads((state / "ledger.jsonl").read_text().splitlines()[0])["task_id"]
    lines = []
    for n in range(count):
        if n % 2:
            lines.append(f"- [resolved 2026-09-02] {task} — question {n} — answer {n}")
        else:
            lines.append(f"- [resolved 2026-09-02] t-20260101000000-0000 — old {n} — yes")
    with open(questions.path(state), "a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def one(root: Path, argv: tuple[str, ...], env: dict[str, str]) -> subprocess.CompletedProcess:
    stdin = "bench progress\n" if argv[0] == "checkpoint" else None
    return subprocess.run(
        (str(bench_context.BIN / "majordomus"), *argv),
        cwd=root, env=env, input=stdin, capture_output=True, text=True, check=False,
    )  # fmt: skip


def measure(root: Path, argv: tuple[str, ...], runs: int) -> tuple[list[float], list[float]]:
    """(wall ms, CPU ms of the child and its git processes: user + system) of each run."""
    one(root, argv, bench_context.ENV)  # warm-up: bytecode and the OS file cache
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        result = one(root, argv, bench_context.ENV)
        walls.append((time.perf_counter() - began) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
        assert result.returncode == 0, (argv, result.stdout, result.stderr)
    return walls, cpus


def counters(root: Path, argv: tuple[str, ...]) -> dict[str, int]:
    result = one(root, argv, {**bench_context.ENV, "MJ_TIMING": "1"})
    found = {}
    for line in result.stderr.splitlines():
        if line.startswith("count"):
            parts = line.split(None, 2)
            found[parts[2].strip()] = int(parts[1])
    return found


def large_fixture() -> tuple[Path, object]:
    """The benchmark's generated `large` repository, with an active task on `src`."""
    from majordomus.benchmark import fixture

    scenario = fixture.scenario("large", 1)
    started = subprocess.run(
        (str(bench_context.BIN / "mj-state"), "start", "bench task", "--scope", "src"),
        cwd=scenario.root, env=bench_context.ENV, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert started.returncode == 0, started.stderr
    return scenario.root, scenario


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--out")
    parser.add_argument("--fixture", choices=("records", "large"), default="records")
    options = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="mj-bench-records-") as scratch:
        if options.fixture == "large":
            busy, closing = large_fixture()
        else:
            busy, closing = Path(scratch) / "busy", None
            bench_context.fixture(busy, 500, 200, 5000, 100)
            add_questions(busy, 50)
        for argv in COMMANDS:
            walls, cpus = measure(busy, argv, options.runs)
            rows.append({
                "command": "majordomus " + " ".join(argv),
                "runs": options.runs,
                "median_ms": round(statistics.median(walls), 1),
                "min_ms": round(min(walls), 1),
                "max_ms": round(max(walls), 1),
                "median_cpu_ms": round(statistics.median(cpus), 1),
                "counters": counters(busy, argv),
            })  # fmt: skip
        if closing is not None:
            closing.close()
    result = {
        "fixture": {"checkpoints": 500, "handovers": 200, "ledger_lines": 5000,
                    "decisions": 100, "questions": 50},
        "fixture_name": options.fixture,
        "budget_ms": BUDGET_MS,
        "load_average": os.getloadavg()[0],
        "reference_loop_cpu_ms": bench_context.reference_cpu_ms(),
        "results": rows,
    }  # fmt: skip
    text = json.dumps(result, indent=2)
    print(text)
    if options.out:
        Path(options.out).write_text(text + "\n")
    return 0 if all(row["median_ms"] <= BUDGET_MS for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
