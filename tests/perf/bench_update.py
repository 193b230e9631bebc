"""Benchmark `majordomus update` (a fresh layer, all five providers written) and
`majordomus update --check` (the same layer, unchanged).

    .venv/bin/python tests/perf/bench_update.py [--runs 10] [--out result.json]

Each run makes a fresh scratch repository with `majordomus init` (not timed), then times one
`update` and one `update --check` in it. It prints the median wall and CPU time of each against
its target (250 ms and 200 ms), beside `majordomus version` as the start-up floor and the CPU of
a fixed reference loop as the machine's scale, and the load average the numbers were taken at.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
TARGETS = {"version": None, "update": 250, "update --check": 200}
ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MJ_"))},
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
}


def run(root: Path, *argv: str) -> None:
    subprocess.run(argv, cwd=root, env=ENV, capture_output=True, check=True)


def fresh() -> Path:
    root = Path(tempfile.mkdtemp(prefix="mj-bench-update-"))
    run(root, "git", "init", "-q", "-b", "main")
    (root / "README.md").write_text("# bench\n\nAI workers: read AGENTS.md.\n")
    run(root, str(BIN / "majordomus"), "init")
    return root


def timed(root: Path, *argv: str) -> tuple[float, float]:
    """(wall ms, CPU ms of the child) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    run(root, str(BIN / "majordomus"), *argv)
    wall = (time.perf_counter() - began) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, 1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def reference_cpu_ms() -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run((sys.executable, "-c", "sum(range(10**7))"), check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return round(1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime), 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--out", type=Path)
    options = parser.parse_args()
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in TARGETS}
    for _ in range(options.runs):
        root = fresh()
        for name in TARGETS:
            samples[name].append(timed(root, *name.split()))
        shutil.rmtree(root)
    report = {"runs": options.runs, "load": os.getloadavg(), "reference_cpu_ms": reference_cpu_ms()}
    for name, target in TARGETS.items():
        wall = round(statistics.median(w for w, _ in samples[name]), 1)
        cpu = round(statistics.median(c for _, c in samples[name]), 1)
        report[name] = {"median_wall_ms": wall, "median_cpu_ms": cpu, "target_ms": target}
        goal = f"target {target} ms" if target else "start-up floor"
        print(f"{name:<16} median wall {wall:7.1f} ms  median cpu {cpu:7.1f} ms  ({goal})")
    print(f"reference loop cpu {report['reference_cpu_ms']} ms; load average {report['load']}")
    if options.out:
        options.out.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
