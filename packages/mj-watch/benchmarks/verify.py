"""What `majordomus verify` costs in CI, and how it grows with the range: one project whose
policy pins one verification command (`true`, so the commands themselves cost next to nothing,
and what they did cost is taken off: each re-proof reports its commands' seconds), `--tasks`
tasks of `--per-task` commits each, every task started, finished and published by the tool
itself (`start`, `finish`, which publishes to a bare remote by path), then a CI clone that
fetched `refs/majordomus/*` verifies the ranges that end after a quarter, a half and all of the
tasks, taking turns each round. Reported: the median wall time and CPU time (user + system of
verify and everything it starts), and the wall time less the verification commands' own.

    python packages/mj-watch/benchmarks/verify.py [--tasks 50] [--per-task 4] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIT = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid",
       "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid",
       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip
NOTE = "# Objective\nwork\n# Current State\ndone\n# Next Action\nnone\n"
MJ = str(Path(sys.executable).with_name("majordomus"))


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MJ_"))}
    return {**env, **GIT, "GIT_TEMPLATE_DIR": ""}


def _run(cwd: Path, *argv: str, stdin: str | None = None) -> str:
    done = subprocess.run(argv, cwd=cwd, env=_env(), input=stdin, capture_output=True,
                          text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} in {cwd}: exit {done.returncode}: {done.stderr}")
    return done.stdout


def _world(scratch: Path, tasks: int, per_task: int) -> tuple[Path, str, list[str]]:
    """The CI clone, the base commit, and the last commit of each task, in order."""
    bare = scratch / "remote.git"
    _run(scratch, "git", "init", "-q", "--bare", "-b", "main", str(bare))
    work = scratch / "worker"
    work.mkdir()
    _run(work, "git", "init", "-q", "-b", "main")
    (work / "README.md").write_text("# bench\n")
    _run(work, MJ, "init")
    policy = work / ".ai/repo/policy.yaml"
    text = policy.read_text().replace("  # commands:", '  commands:\n    - "true"\n  #', 1)
    policy.write_text(text + "\nremote:\n  name: origin\n")
    _run(work, MJ, "update")
    _run(work, "git", "add", "-A")
    _run(work, "git", "commit", "-q", "--no-verify", "-m", "adopt")
    _run(work, "git", "remote", "add", "origin", str(bare))
    _run(work, "git", "push", "-q", "origin", "HEAD:refs/heads/main")
    base = _run(work, "git", "rev-parse", "HEAD").strip()
    ends = []
    for task in range(tasks):
        _run(work, MJ, "start", f"task {task}", "--scope", f"lib/t{task}")
        for step in range(per_task):
            path = work / f"lib/t{task}/f{step}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{task} {step}\n")
            if step == per_task - 1:
                _run(
                    work,
                    MJ,
                    "finish",
                    "--outcome",
                    "completed",
                    "--note",
                    "-",
                    stdin=NOTE,
                )
            _run(work, "git", "add", "-A")
            _run(work, "git", "commit", "-q", "--no-verify", "-m", f"t{task} s{step}")
        ends.append(_run(work, "git", "rev-parse", "HEAD").strip())
    _run(work, "git", "push", "-q", "origin", "HEAD:refs/heads/work")
    ci = scratch / "ci"
    _run(scratch, "git", "clone", "-q", str(bare), str(ci))
    _run(ci, "git", "fetch", "-q", "origin", "+refs/majordomus/*:refs/majordomus/*",
         "+refs/heads/*:refs/remotes/origin/*")  # fmt: skip
    return ci, base, ends


def _timed(ci: Path, base: str, head: str) -> tuple[float, float, float, int]:
    """(wall s, cpu s, the verification commands' own s, exit) of one verify of base..head."""
    _run(ci, "git", "checkout", "-q", "--detach", head)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([MJ, "verify", "--base", base, "--json"], cwd=ci, env=_env(),
                          capture_output=True, text=True, check=False)  # fmt: skip
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    own = 0.0
    for line in done.stdout.splitlines():
        record = json.loads(line)
        said = re.search(r"\((\d+\.\d+) s\)$", str(record.get("message", "")))
        if record.get("category") == "reproof" and said:
            own += float(said.group(1))  # the commands' own time, as verify measured it
    return wall, cpu, own, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--per-task", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="mj-bench-verify-"))
    try:
        began = time.perf_counter()
        ci, base, ends = _world(scratch, args.tasks, args.per_task)
        built = time.perf_counter() - began
        cuts = sorted({max(1, args.tasks // 4), max(1, args.tasks // 2), args.tasks})
        samples: dict[int, list[tuple[float, float, float, int]]] = {c: [] for c in cuts}
        for _ in range(args.rounds):
            for cut in cuts:
                samples[cut].append(_timed(ci, base, ends[cut - 1]))
        rows = []
        for cut in cuts:
            walls = [s[0] for s in samples[cut]]
            rows.append({"tasks": cut, "commits": cut * args.per_task,
                         "wall_s": statistics.median(walls),
                         "less_commands_s": statistics.median(s[0] - s[2] for s in samples[cut]),
                         "cpu_s": statistics.median(s[1] for s in samples[cut]),
                         "exits": sorted({s[3] for s in samples[cut]})})  # fmt: skip
        print(json.dumps({"fixture_s": round(built, 1), "rounds": args.rounds, "rows": rows}))
        print("\n| tasks | commits | wall s | wall less the commands s | CPU s | ms per commit |")
        print("|---:|---:|---:|---:|---:|---:|")
        for row in rows:
            per = 1000 * row["less_commands_s"] / row["commits"]
            print(f"| {row['tasks']} | {row['commits']} | {row['wall_s']:.2f} | "
                  f"{row['less_commands_s']:.2f} | {row['cpu_s']:.2f} | {per:.1f} |")  # fmt: skip
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
