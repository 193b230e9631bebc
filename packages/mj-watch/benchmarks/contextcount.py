"""`context` and `finish --check` in instructions on a small repository, two installations side
by side.

    python packages/mj-watch/benchmarks/contextcount.py --before <bin dir> [--files 2000] [--lines
    N]

One repository of `--files` tracked files is generated (`contextscale.generate`) and copied for
each installation: this interpreter's (`after`) and `--before`. Each copy is adopted by its own
installation with an active task (`contextscale.adopt`). With `--lines`, each installation gets
instead the repository `scale.py` measures a long ledger in (`scale.ledger_repo`: N lines of
history before the task's start, written by `mj_watch.bench.fixture_history`). Each
command runs once unmeasured (the briefing then keeps its pointers, as any earlier briefing
would have), then once under `valgrind --tool=cachegrind --cache-sim=no --trace-children=yes`
with `PYTHONHASHSEED=0`; the count is the process's and its git calls'. Prints millions of
instructions and the ratio after/before.
"""

from __future__ import annotations

import argparse
import glob
import subprocess
import sys
import tempfile
from pathlib import Path

from contextscale import adopt
from contextscale import generate
from mj_watch.bench import scenario
from scale import ledger_repo

AFTER = Path(sys.executable).parent
COMMANDS = (("context",), ("finish", "--check"))
VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes")


def counted(argv: list[str], where: Path, env: dict[str, str]) -> int:
    subprocess.run(argv, cwd=where, env=env, capture_output=True, check=False)  # warm-up
    with tempfile.TemporaryDirectory() as out:
        wrapped = [*VALGRIND, f"--cachegrind-out-file={out}/cg.%p", *argv]
        seeded = {**env, "PYTHONHASHSEED": "0"}
        subprocess.run(wrapped, cwd=where, env=seeded, capture_output=True, check=False)
        return sum(_total(Path(f)) for f in glob.glob(f"{out}/cg.*"))


def _total(path: Path) -> int:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="bin dir of the code before")
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=0)
    args = parser.parse_args()
    env = scenario.environment()
    sides = {"after": AFTER, "before": args.before}
    with tempfile.TemporaryDirectory(prefix="mj-contextcount-") as scratch:
        base = Path(scratch)
        if not args.lines:
            generate(base / "tree", args.files, env)
        for name, bin_dir in sides.items():
            if args.lines:
                ledger_repo(base / name, [str(bin_dir / "majordomus")], env, args.lines)
            else:
                adopt(base / "tree", base / name, bin_dir, env)
        shape = f"{args.lines} ledger lines" if args.lines else f"{args.files} tracked files"
        print(f"{shape}, an active task")
        print("| command | after M instr | before M instr | after/before |")
        print("|---|---:|---:|---:|")
        for command in COMMANDS:
            got = {
                name: counted([str(bin_dir / "majordomus"), *command], base / name, env)
                for name, bin_dir in sides.items()
            }
            ratio = got["after"] / got["before"]
            print(f"| {' '.join(command)} | {got['after'] / 1e6:.1f} | {got['before'] / 1e6:.1f} "
                  f"| {ratio:.3f} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
