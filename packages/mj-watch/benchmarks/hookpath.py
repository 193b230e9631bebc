"""The hook-path commands side by side: two installations of majordomus, taking turns.

    python packages/mj-watch/benchmarks/hookpath.py --before <bin dir> --after <bin dir> [--rounds
    5]

Each round runs `majordomus bench --fixture large` from each installation (their order swapped
every round, so neither always runs on a warmer machine), each on its own tree's fixture, and
keeps every target's median wall and CPU time. The table gives the median over the rounds and
the ratio after/before; the budget is 1.10 (within 10 % of the code before).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

TARGETS = [
    "check",
    "finish --check",
    "context",
    "update --check",
    "doctor",
    "history",
    "history --validate",
    "capture session (SessionStart)",
    "version",
]


def _run(
    bin_dir: Path, targets: list[str], samples: int, where: Path
) -> dict[str, tuple[float, float]]:
    argv = [str(bin_dir / "majordomus"), "bench", "--fixture", "large", "--samples", str(samples)]
    argv += ["--warmup", "1", "--format", "json", "--no-save", *targets]
    done = subprocess.run(argv, cwd=where, capture_output=True, text=True, check=False)
    if not done.stdout.strip():
        raise SystemExit(f"{bin_dir}: bench printed nothing ({done.returncode}): {done.stderr}")
    found = json.loads(done.stdout)
    return {r["command"]: (r["p50_ms"], r.get("cpu_p50_ms", 0.0)) for r in found["results"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="bin dir of the code before")
    parser.add_argument("--after", type=Path, required=True, help="bin dir of the code now")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=9)
    parser.add_argument("targets", nargs="*", default=TARGETS)
    args = parser.parse_args()
    seen: dict[str, dict[str, list[tuple[float, float]]]] = {"before": {}, "after": {}}
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(scratch)
        subprocess.run(["git", "init", "-q", str(where)], check=True)
        for round_ in range(args.rounds):
            sides = [("before", args.before), ("after", args.after)]
            for side, bin_dir in sides if round_ % 2 == 0 else sides[::-1]:
                for name, value in _run(bin_dir, args.targets, args.samples, where).items():
                    seen[side].setdefault(name, []).append(value)
    head = ["command", "before p50 ms", "after p50 ms", "wall ratio", "before CPU ms"]
    print("| " + " | ".join([*head, "after CPU ms", "CPU ratio"]) + " |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.targets:
        old, new = seen["before"].get(name), seen["after"].get(name)
        if not old or not new:
            print(f"| {name} | – | – | – | – | – | – |")
            continue
        wall = [statistics.median(v[0] for v in s) for s in (old, new)]
        cpu = [statistics.median(v[1] for v in s) for s in (old, new)]
        cells = [f"{wall[0]:.1f}", f"{wall[1]:.1f}", f"{wall[1] / wall[0]:.2f}"]
        cells += [f"{cpu[0]:.1f}", f"{cpu[1]:.1f}", f"{cpu[1] / cpu[0]:.2f}" if cpu[0] else "–"]
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
