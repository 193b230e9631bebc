"""`context` and `check` at scale, side by side with `git status --porcelain` and another
installation, in one run.

    python packages/mj-watch/benchmarks/contextscale.py --before <bin dir> [--files 100000]
    [--rounds 9]

One repository of `--files` tracked files (`src/pkg_NNN/sub_N/mod_NNNNNN.py`, packed) is
generated once and copied for each installation: this interpreter's (`after`) and `--before`.
Each copy is adopted by its own installation (`init`, `update`, committed) and gets an active
task (`start "scale task" --scope src/pkg_001`), then its index is refreshed a second later (as
any `git status` leaves it). Every run is measured by `mj_watch.bench.measure` (wall and CPU
time of the process and the processes it reaped); one unmeasured run of each first (the
briefing then keeps what it computed, as any earlier briefing would have). Each round runs, in
turn: the bare interpreter, `git status --porcelain` (in the after copy), `context` and `check`
of both installations; the table gives medians and each as a multiple of `git status`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mj_watch.bench import measure
from mj_watch.bench import scenario

AFTER = Path(sys.executable).parent


def generate(root: Path, count: int, env: dict[str, str]) -> None:
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True, env=env)
    for index in range(count):
        where = root / "src" / f"pkg_{index // 1000:03d}" / f"sub_{index // 100 % 10}"
        where.mkdir(parents=True, exist_ok=True)
        (where / f"mod_{index:06d}.py").write_text(f"VALUE_{index} = {index}\n")
    (root / "README.md").write_text("# fixture\n")
    for argv in (["config", "gc.auto", "0"], ["add", "-A"], ["commit", "-qm", "files"],
                 ["repack", "-adq"]):  # fmt: skip
        subprocess.run(["git", *argv], cwd=root, check=True, env=env)


def adopt(tree: Path, where: Path, bin_dir: Path, env: dict[str, str]) -> None:
    shutil.copytree(tree, where, symlinks=True)
    tool = str(bin_dir / "majordomus")
    steps = [[tool, "init"], [tool, "update"], ["git", "add", "-A"], ["git", "commit", "-qm", "a"],
             [tool, "start", "scale task", "--scope", "src/pkg_001"]]  # fmt: skip
    for argv in steps:
        subprocess.run(argv, cwd=where, check=True, env=env, capture_output=True)
    time.sleep(1.1)
    subprocess.run(["git", "update-index", "-q", "--refresh"], cwd=where, env=env, check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="bin dir of the code before")
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    env = scenario.environment()
    with tempfile.TemporaryDirectory(prefix="mj-contextscale-") as scratch:
        base = Path(scratch)
        generate(base / "tree", args.files, env)
        sides = {"after": AFTER, "before": args.before}
        for name, bin_dir in sides.items():
            adopt(base / "tree", base / name, bin_dir, env)
        here = base / "after"
        runs = {"python -c pass": ([sys.executable, "-c", "pass"], here),
                "git status --porcelain": (["git", "status", "--porcelain"], here)}  # fmt: skip
        for command in ("context", "check"):
            for name, bin_dir in sides.items():
                runs[f"{command} ({name})"] = ([str(bin_dir / "majordomus"), command], base / name)
        seen: dict[str, list[tuple[float, float]]] = {label: [] for label in runs}
        for round_ in range(args.rounds + 1):
            for label, (argv, where) in runs.items():
                sample = measure.run(argv, where, env)
                if sample.code not in (0, 10):
                    raise SystemExit(f"{label}: exit {sample.code}: {sample.said}")
                if round_:  # the first round warms up
                    seen[label].append((sample.ms, sample.cpu_ms))
    status = [statistics.median(v[i] for v in seen["git status --porcelain"]) for i in (0, 1)]
    print(f"{args.files} tracked files, {args.rounds} rounds, load {os.getloadavg()[0]:.1f}")
    print("| run | wall ms | CPU ms | × git status (wall) | × git status (CPU) |")
    print("|---|---:|---:|---:|---:|")
    for label, values in seen.items():
        wall, cpu = (statistics.median(v[i] for v in values) for i in (0, 1))
        print(
            f"| {label} | {wall:.1f} | {cpu:.1f} | {wall / status[0]:.2f} | {cpu / status[1]:.2f} |"
        )
    for command in ("context", "check"):
        after, before = (statistics.median(v[1] for v in seen[f"{command} ({s})"]) for s in sides)
        print(f"{command}: after/before CPU {after / before:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
