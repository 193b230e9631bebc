"""Benchmark `majordomus context` on a busy generated repository.

    .venv/bin/python tests/perf/bench_context.py [--runs 10] [--out result.json]

The fixture: a real `majordomus init`, an active task started by `mj-state start`, then 500
checkpoints and 200 handovers (a quarter of each on another branch), 5,000 ledger lines and
100 decisions written in their stored formats. It prints the median wall time of `--runs`
runs of `majordomus context` (the budget is 150 ms) and the MJ_TIMING counters of one run:
`files read` stays the same with 700 records as with none, because only the newest
compatible checkpoint and handover are opened.
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

from mj_core import clock
from mj_core import ids
from mj_state import records

BIN = Path(sys.executable).parent
# bytecode is written (an installed wheel ships it compiled); git and MJ_* are isolated
SKIP = ("GIT_", "MJ_", "PYTHONDONTWRITEBYTECODE")
ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith(SKIP)},
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}
HANDOVER = "# Objective\nShip it.\n\n# Current State\nHalf done.\n\n# Next Action\nTest it.\n"


def run(
    root: Path, *argv: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    tool = argv[0] if argv[0] in ("git",) else str(BIN / argv[0])
    return subprocess.run(
        (tool, *argv[1:]), cwd=root, env=env or ENV, capture_output=True, text=True, check=False
    )


def fixture(root: Path, checkpoints: int, handovers: int, ledger: int, decisions: int) -> None:
    root.mkdir(parents=True)
    run(root, "git", "init", "-q", "-b", "main")
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("a = 1\n")
    run(root, "git", "add", "-A")
    run(root, "git", "commit", "-q", "-m", "initial")
    assert run(root, "majordomus", "init").returncode == 0
    run(root, "git", "add", "-A")
    run(root, "git", "commit", "-q", "--no-verify", "-m", "adopt majordomus")
    started = run(root, "mj-state", "start", "bench task", "--scope", "src", "--owner", "b")
    assert started.returncode == 0, started.stderr
    task = json.loads(started.stdout)["task"]
    state = root / ".ai" / "local" / "state"
    base = clock.parse_iso("2026-09-01T00:00:00Z")
    for kind, count in (("checkpoint", checkpoints), ("handover", handovers)):
        _records(root, state, kind, count, task=task, base=base)
    _ledger(state, ledger, task)
    with open(state / "decisions.md", "a", encoding="utf-8") as handle:
        for n in range(decisions):
            owner = task["id"] if n % 2 else "t-20260101000000-0000"
            handle.write(
                f"\n## 2026-09-01 — decision {n}\nTask: {owner}\nHead: {task['head']}\n"
                f"Why: reason {n}\nRejected: -\nEvidence: -\nSupersedes: -\n"
            )


def _records(root: Path, state: Path, kind: str, count: int, *, task: dict, base: int) -> None:
    folder = records.directory(state, kind)
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        moment = base + 60 * n
        branch = "other" if n % 4 == 3 else "main"
        front = {
            "schema_version": 1,
            "created_at": clock.iso(moment),
            "task_id": task["id"],
            "profile": task["profile"],
            "owner": "b",
            "repository_id": task["repository_id"],
            "worktree": str(root),
            "branch": branch,
            "head": task["head"],
            "working_tree": "dirty",
            "changed_files": ["src/a.py"],
        }
        body = HANDOVER if kind == "handover" else f"checkpoint {n}: progress noted\n"
        path = folder / ids.record_name(moment, branch, task["head"])
        path.write_bytes(records.render(front, body))
        path.chmod(0o600)


def _ledger(state: Path, count: int, task: dict) -> None:
    with open(state / "ledger.jsonl", "a", encoding="utf-8") as handle:
        for n in range(count):
            line = {
                "ts": f"2026-09-01T00:{n // 60 % 60:02d}:{n % 60:02d}Z",
                "event": "task.checkpoint",
                "head": task["head"],
                "branch": "main",
                "by": "majordomus/0.1.0",
                "task_id": task["id"],
            }
            handle.write(json.dumps(line) + "\n")


def measure(root: Path, runs: int) -> tuple[list[float], list[float]]:
    """(wall ms, CPU ms of the child: user + system) of each run."""
    run(root, "majordomus", "context")  # warm-up: bytecode and the OS file cache
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        result = run(root, "majordomus", "context")
        walls.append((time.perf_counter() - began) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
        assert result.returncode == 0, result.stderr
    return walls, cpus


def reference_cpu_ms() -> float:
    """CPU ms of a fixed loop (`sum(range(10**7))`, ~100 ms on a current desktop): the scale."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run((sys.executable, "-c", "sum(range(10**7))"), check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return round(1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime), 1)


def counters(root: Path) -> dict[str, int]:
    result = run(root, "majordomus", "context", env={**ENV, "MJ_TIMING": "1"})
    found = {}
    for line in result.stderr.splitlines():
        if line.startswith("count"):
            parts = line.split(None, 2)
            found[parts[2].strip()] = int(parts[1])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--out")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mj-bench-context-") as scratch:
        busy, empty = Path(scratch) / "busy", Path(scratch) / "empty"
        fixture(busy, 500, 200, 5000, 100)
        fixture(empty, 0, 0, 0, 0)
        times, cpu = measure(busy, options.runs)
        result = {
            "command": "majordomus context",
            "fixture": {
                "checkpoints": 500,
                "handovers": 200,
                "ledger_lines": 5000,
                "decisions": 100,
            },
            "runs": options.runs,
            "median_ms": round(statistics.median(times), 1),
            "min_ms": round(min(times), 1),
            "max_ms": round(max(times), 1),
            "median_cpu_ms": round(statistics.median(cpu), 1),
            "load_average": os.getloadavg()[0],
            "reference_loop_cpu_ms": reference_cpu_ms(),
            "budget_ms": 150,
            "counters_busy": counters(busy),
            "counters_without_records": counters(empty),
        }
        extra = (
            result["counters_busy"]["files read"] - result["counters_without_records"]["files read"]
        )
        result["record_files_read"] = extra  # 2: the newest checkpoint and the newest handover
    text = json.dumps(result, indent=2)
    print(text)
    if options.out:
        Path(options.out).write_text(text + "\n")
    return 0 if result["median_ms"] <= result["budget_ms"] else 1


if __name__ == "__main__":
    sys.exit(main())
