"""Side by side, in one run: `majordomus plan ready` on a 4,000-issue plan against the bare
interpreter's start-up, and `majordomus context` with a 400-issue plan on the large fixture.

    python packages/mj-watch/benchmarks/plan.py [--samples 21] [--before <majordomus executable>]

Both plans come from the benchmark's generator (`mj_watch.bench.fixture_plan`: milestones of 40
issues, one to three dependencies each, a tenth done, some under way, one in ten serial),
committed, the index refreshed a second later as `git status` leaves it. The commands take
turns, one sample each per round, so a change in the machine's load falls on all alike; each
sample is one whole process, after `sync` (so that no run pays for writing back the cache the run
before wrote), under the benchmark's launcher (`mj_watch.bench.measure`: wall time,
and the CPU time of the process and the git processes it reaped). The rows:

- `python -c pass`: the interpreter's own start-up, the floor every ratio is read against;
- `plan ready`: the listing kept from the run before (`.ai/local/cache/plan-views.json`), as
  every run after the first answers while the plan is unchanged;
- `plan ready, model cache`: that file removed before each sample: the parsed model is read
  from `.ai/local/cache/plan-model.json` and the statuses derived;
- `plan ready, no cache`: both removed: every issue file parsed;
- `context`: a task started with `--issue`, the plan's model cache left by a listing and the
  knowledge graph's by `knowledge nodes` (the briefing reads caches, it writes none), in a copy
  of the large fixture (whose records then name another worktree: the worst case, as the
  benchmark's `context` meets it);
- `context, no plan cache`: the plan's 400 files parsed by the briefing;
- `context, no cache`: the knowledge graph compiled by the briefing's pointers as well.

`--before` adds `plan ready` and `context` run by another `majordomus` (another commit's,
installed in its own environment), each in its own copy of the repository, so that the two
never read or replace each other's caches.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from mj_watch.bench import fixture
from mj_watch.bench import fixture_plan
from mj_watch.bench import measure
from mj_watch.bench import scenario as scenarios
from mj_watch.bench.scenario import Scenario
from mj_watch.bench.targets import executable

Row = tuple[str, list[str], Path, "Callable[[], None] | None"]
KEPT = ".ai/local/cache/plan-views.json"
MODEL = ".ai/local/cache/plan-model.json"
KNOWLEDGE = "knowledge-*"  # the knowledge graph's cache files, whatever their parts


def knowledge(root: Path) -> list[str]:
    return [f".ai/local/cache/{p.name}" for p in (root / ".ai/local/cache").glob(KNOWLEDGE)]


def planned(root: Path, env: dict[str, str], issues: int) -> None:
    fixture_plan.write(root, issues)
    scenarios.commit(root, f"a plan of {issues} issues")
    scenarios.settle(root)


def ready_repo(scratch: Path, env: dict[str, str]) -> Path:
    root = scratch / "plan-4000"
    fixture.small(root, env)
    planned(root, env, 4000)
    return root


def context_repo(env: dict[str, str]) -> tuple[Path, Scenario]:
    large = fixture.scenario("large", 1)
    planned(large.root, env, 400)
    mj = executable()
    start = (*mj, "start", "work on I0047", "--issue", "I0047")
    subprocess.run(start, cwd=large.root, env=env, check=True, capture_output=True)
    return large.root, large


def removing(root: Path, *names: str) -> Callable[[], None]:
    def before() -> None:
        for name in names:
            (root / name).unlink(missing_ok=True)

    return before


def restoring(root: Path, kept: dict[str, bytes]) -> Callable[[], None]:
    def before() -> None:  # the briefing writes no cache: what the cold rows removed comes back
        for name, data in kept.items():
            (root / name).write_bytes(data)

    return before


def rows(ready: Path, brief: Path) -> list[Row]:
    mj = executable()
    kept = {name: (brief / name).read_bytes() for name in (MODEL, *knowledge(brief))}
    out = [
        ("python -c pass", [sys.executable, "-c", "pass"], ready, None),
        ("plan ready (4,000 issues)", [*mj, "plan", "ready"], ready, None),
        ("plan ready, model cache", [*mj, "plan", "ready"], ready, removing(ready, KEPT)),
        ("plan ready, no cache", [*mj, "plan", "ready"], ready, removing(ready, KEPT, MODEL)),
        (
            "context (400-issue plan, large fixture)",
            [*mj, "context"],
            brief,
            restoring(brief, kept),
        ),
        ("context, no plan cache", [*mj, "context"], brief, removing(brief, MODEL)),
        ("context, no cache", [*mj, "context"], brief, removing(brief, MODEL, *knowledge(brief))),
    ]
    return out


def before_rows(other: str, ready: Path, large: Scenario, env: dict[str, str]) -> list[Row]:
    """The same two commands by another majordomus, in copies of their own."""
    import shutil

    copy = ready.parent / "plan-4000-before"
    shutil.copytree(ready, copy, symlinks=True)
    brief = large.copy()
    scenarios.settle(copy)
    for where, warm in ((copy, ("plan", "ready")), (brief, ("knowledge", "nodes"))):
        subprocess.run([other, *warm], cwd=where, env=env, capture_output=True, check=False)
    kept = {name: (brief / name).read_bytes() for name in knowledge(brief)}
    return [
        ("plan ready, before", [other, "plan", "ready"], copy, None),
        ("context, before", [other, "context"], brief, restoring(brief, kept)),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=21)
    parser.add_argument("--before", help="another majordomus executable, measured beside")
    options = parser.parse_args()
    env = scenarios.environment()
    scratch = Path(tempfile.mkdtemp(prefix="mj-plan-bench-"))
    ready = ready_repo(scratch, env)
    _, large = context_repo(env)
    brief = large.copy()  # as `--before`'s is: a copy each
    for where, warm in ((ready, ("plan", "ready")), (brief, ("plan", "status")),
                        (brief, ("knowledge", "nodes")), (brief, ("context",))):  # fmt: skip
        subprocess.run(
            [*executable(), *warm], cwd=where, env=env, capture_output=True, check=False
        )  # the listing kept, the caches written, bytecode compiled
    table = rows(ready, brief)
    if options.before:  # each beside its own: the warm rows of both first, then the cold ones
        ready_before, context_before = before_rows(options.before, ready, large, env)
        table = [*table[:2], ready_before, *table[2:4], table[4], context_before, *table[5:]]
    load = [os.getloadavg()]
    wall: dict[str, list[float]] = {name: [] for name, *_ in table}
    cpu: dict[str, list[float]] = {name: [] for name, *_ in table}
    for _ in range(options.samples):
        for name, argv, where, before in table:
            if before is not None:
                before()
            os.sync()  # no sample pays for writing back what the one before wrote
            sample = measure.run(argv, where, env)
            wall[name].append(sample.ms)
            cpu[name].append(sample.cpu_ms)
    load.append(os.getloadavg())
    floor = statistics.median(wall["python -c pass"])
    print(f"load average {load[0][0]:.2f} at the start, {load[1][0]:.2f} at the end; "
          f"{options.samples} samples each, interleaved\n")  # fmt: skip
    print("| run | median ms | × python | p95 ms | CPU median ms |")
    print("|---|---:|---:|---:|---:|")
    for name, *_ in table:
        times = sorted(wall[name])
        p95 = times[min(len(times) - 1, round(0.95 * len(times) + 0.5) - 1)]
        median = statistics.median(times)
        print(f"| `{name}` | {median:.1f} | {median / floor:.1f} | {p95:.1f} | "
              f"{statistics.median(cpu[name]):.1f} |")  # fmt: skip
    large.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
