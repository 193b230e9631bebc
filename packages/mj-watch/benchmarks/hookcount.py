"""The hook-path commands side by side in instructions: two installations of majordomus, each
command counted under valgrind on its own tree's copy of the large fixture.

    python packages/mj-watch/benchmarks/hookcount.py --before <bin dir> --after <bin dir> [targets…]

Wall and CPU time on a shared machine move by a fifth between runs; the number of instructions
a process executes does not. Each side runs this file with its own interpreter (so its own
`mj_watch.bench` builds its own fixture and sets up each target as `majordomus bench` would),
with one change: the one sampled run of each target (after one unmeasured warm-up) runs under
`valgrind --tool=cachegrind --cache-sim=no --trace-children=yes` with `PYTHONHASHSEED=0`, and its
count is the sum over the process and every process it started (its git calls). The table gives
both counts (millions) and the ratio after/before; the budget is 1.10. A side without a target
(a hook the older code did not have) shows –. Without valgrind on PATH it says so and exits 0.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TARGETS = [
    "floor:python",
    "version",
    "check",
    "finish --check",
    "context",
    "update --check",
    "doctor",
    "history",
    "history --validate",
    "capture session (SessionStart)",
    "capture prompt (UserPromptSubmit)",
    "capture session (SessionEnd)",
    "capture session (PreCompact)",
    "capture tool (PreToolUse)",
    "capture stop (Stop)",
]
VALGRIND = ("--tool=cachegrind", "--cache-sim=no", "--trace-children=yes")
PROMPT = "Please measure the prompt hook on a request of ordinary length, and keep it short. " * 8
START = {"hook_event_name": "SessionStart", "session_id": "bench-1", "source": "startup"}
TASK = ["start", "bench task", "--scope", "src"]
NOTE = "Measured by the hook count.\nNext: measure the session end again.\n"
# label: (argv after majordomus, class, setup steps (argv, stdin), stdin); the catalogue has
# the rest. The session's end derives its handover from a checkpoint whose Next: line both
# installations read (the older one finds no next action in a derived checkpoint and writes
# nothing, which would compare a failure with a handover).
EXTRA: dict[str, tuple[list[str], str, list[tuple[list[str], object]], object]] = {
    "capture prompt (UserPromptSubmit)": (
        ["capture", "prompt", "--provider", "claude-code"],
        "mutating",
        [(TASK, None)],
        {"hook_event_name": "UserPromptSubmit", "session_id": "bench-1", "prompt": PROMPT},
    ),
    "capture session (SessionEnd)": (
        ["capture", "session", "--event", "end", "--provider", "claude-code"],
        "mutating",
        [
            (TASK, None),
            (["checkpoint"], NOTE),
            (["capture", "session", "--event", "start", "--provider", "claude-code"], START),
        ],
        {"hook_event_name": "SessionEnd", "session_id": "bench-1", "reason": "exit"},
    ),
    "capture session (PreCompact)": (
        ["capture", "session", "--event", "compact", "--provider", "claude-code"],
        "mutating",
        [(TASK, None), (["checkpoint"], NOTE)],
        {"hook_event_name": "PreCompact", "session_id": "bench-1", "trigger": "auto"},
    ),
    "capture stop (Stop)": (
        ["capture", "stop", "--provider", "claude-code"],
        "read-only",
        [(TASK, None)],
        {"hook_event_name": "Stop", "session_id": "bench-1", "stop_hook_active": False},
    ),
}


class _Counting:
    """bench's own sampling with the sampled run counted: patched into this interpreter only."""

    def __init__(self) -> None:
        from mj_watch.bench import measure
        from mj_watch.bench import sampling
        from mj_watch.bench import targets

        self.measure, self.sampling, self.targets = measure, sampling, targets
        self.run, self.one, self.select = measure.run, sampling._Runs.one, targets.select
        self.counts: dict[str, int] = {}
        self.stdins: dict[tuple[str, ...], bytes] = {}  # a setup step's input, by its argv
        self.counting = False
        self.target = ""

    def install(self) -> None:
        counter = self

        def sampled(runs):
            return counter.sampled(runs)

        def setup(runs, where):
            return counter.setup(runs, where)

        self.measure.run = self.counted
        self.sampling._Runs.one = sampled
        self.sampling._Runs._setup = setup
        self.targets.select = self.known

    def counted(self, argv, cwd, env, stdin=None):
        if not self.counting:
            return self.run(argv, cwd, env, stdin)
        with tempfile.TemporaryDirectory() as where:
            wrapped = ["valgrind", *VALGRIND, f"--cachegrind-out-file={where}/cg.%p", *argv]
            sample = self.run(wrapped, cwd, {**env, "PYTHONHASHSEED": "0"}, stdin)
            self.counts[self.target] = sum(_total(Path(f)) for f in glob.glob(f"{where}/cg.*"))
        return sample

    def sampled(self, runs):
        self.counting = runs.done >= 1  # the first run warms up; the second is counted
        self.target = runs.target.command
        try:
            return self.one(runs)
        finally:
            self.counting = False

    def setup(self, runs, where):
        counting, self.counting = self.counting, False
        try:
            for argv in runs.target.setup:
                sample = self.run(argv, where, runs.scenario.env, self.stdins.get(argv))
                if sample.code != 0:
                    raise self.sampling.TargetFailed("setup-failed", f"{argv}: {sample.said}")
        finally:
            self.counting = counting

    def known(self, names, public):
        """The catalogue's targets and ours; a name this installation lacks is left out."""
        every = {t.command for t in self.targets.catalogue()}
        found = {t.command: t for t in self.select([n for n in names if n in every], public)}
        prefix = self.targets.executable()
        for name in names:
            if name in EXTRA:
                argv, klass, steps, data = EXTRA[name]
                setup = tuple((*prefix, *step) for step, _ in steps)
                given = zip(setup, (d for _, d in steps), strict=True)
                self.stdins.update((step, _bytes(d)) for step, d in given if d)
                found[name] = self.targets.Target(
                    name, (*prefix, *argv), klass, frozenset({0}), setup=setup, stdin=_bytes(data)
                )
        return [found[n] for n in names if n in found]


def _side(targets: list[str], out: Path) -> int:
    """In one installation's interpreter: bench's own fixture and setups, the sample counted."""
    from mj_watch.bench import entry

    counter = _Counting()
    counter.install()
    argv = ["--fixture", "large", "--samples", "1", "--warmup", "1", "--mode", "warm"]
    argv += ["--format", "json", "--no-save", *targets]
    saved = sys.stdout
    with open(os.devnull, "w") as sink:  # bench's own report is not ours
        sys.stdout = sink
        try:
            code = entry.main(argv)
        finally:
            sys.stdout = saved
    out.write_text(json.dumps(counter.counts), encoding="utf-8")
    return code


def _bytes(data: object) -> bytes:
    return data.encode() if isinstance(data, str) else json.dumps(data).encode()


def _total(path: Path) -> int:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    return 0


def _count(bin_dir: Path, targets: list[str], where: Path, side: str) -> dict[str, int]:
    out = where / f"{side}.json"
    argv = [str(bin_dir / "python"), __file__, "--side", str(out), *targets]
    # byte-code is written, so the warm-up compiles what a change left uncompiled and the
    # counted run counts the command, not the compiler (PYTHONDONTWRITEBYTECODE would make
    # every run compile each module changed since the last compilation)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(argv, cwd=where, env=env, capture_output=True, text=True, check=False)
    if not out.is_file():
        raise SystemExit(f"{bin_dir}: counted nothing ({done.returncode}): {done.stderr[-2000:]}")
    found: dict[str, int] = json.loads(out.read_text(encoding="utf-8"))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="bin dir of the code before")
    parser.add_argument("--after", type=Path, help="bin dir of the code now")
    parser.add_argument("--side", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("targets", nargs="*", default=TARGETS)
    args = parser.parse_args()
    if args.side:
        return _side(args.targets, args.side)
    if not args.before or not args.after:
        parser.error("--before and --after are required")
    if shutil.which("valgrind") is None:
        print("hookcount: valgrind is not on PATH; nothing counted")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(scratch)
        subprocess.run(["git", "init", "-q", str(where)], check=True)
        before = _count(args.before, args.targets, where, "before")
        after = _count(args.after, args.targets, where, "after")
    print("| command | before M instr | after M instr | after/before |")
    print("|---|---:|---:|---:|")
    for name in args.targets:
        old, new = before.get(name), after.get(name)
        cells = [f"{old / 1e6:.1f}" if old else "–", f"{new / 1e6:.1f}" if new else "–"]
        cells.append(f"{new / old:.3f}" if old and new else "–")
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
