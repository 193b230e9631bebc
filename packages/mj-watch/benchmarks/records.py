"""`skills check` and `adr check` on 200 skills and 500 decision records, cold and warm, in one
run: each round removes the parse cache (`.ai/local/cache/`) and runs a command twice — the
first run reads and parses every file (cold), the second reads the cache the first one left
(warm). The result is the median wall time and the median CPU time (user + system of the
process and of the git it starts) of each, over the rounds.

    python packages/mj-watch/benchmarks/records.py [--rounds 15] [--refs 0] [--against <checkout>]

The repository is the one `python -m mj_watch.bench.fixture_records` writes (the real
`majordomus init`, the skills and records, one commit), in a scratch directory; `--refs N` adds
N branches, each one commit ahead, so `adr check` has N more ref tips to look through.
`--against` runs the same rounds, interleaved, with the packages of another checkout first on
`PYTHONPATH` (a before-and-after on the same repository and load). Bytecode is written and used,
as an installed tool does.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = (("skills", "check"), ("adr", "check"))
PACKAGES = ("mj-core", "mj-policy", "mj-state", "mj-context", "mj-knowledge", "mj-watch")
GIT = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid",
       "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid",
       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip


def _env(checkout: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(GIT)
    if checkout is not None:
        paths = [checkout / "packages" / p / "src" for p in PACKAGES] + [
            checkout / "majordomus/src"
        ]
        env["PYTHONPATH"] = os.pathsep.join(str(p) for p in paths)
    return env


def _fixture(scratch: Path, refs: int) -> Path:
    root = scratch / "repo"
    made = [sys.executable, "-m", "mj_watch.bench.fixture_records", str(root)]
    subprocess.run(made, check=True, capture_output=True, env=_env(None))
    for index in range(refs):
        for argv in (("checkout", "-q", "-b", f"b{index}", "main"), ("commit", "-q",
                     "--allow-empty", "--no-verify", "-m", f"b{index}")):  # fmt: skip
            subprocess.run(("git", *argv), cwd=root, check=True, env=_env(None))
    if refs:
        subprocess.run(("git", "checkout", "-q", "main"), cwd=root, check=True, env=_env(None))
    time.sleep(2.1)  # files written in the last two seconds are never kept in the parse cache
    return root


def _once(root: Path, argv: tuple[str, ...], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(
        ("majordomus", *argv), cwd=root, env=env, capture_output=True, check=False
    )
    wall = (time.perf_counter() - began) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"majordomus {' '.join(argv)} exited {done.returncode}: {done.stderr!r}")
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--refs", type=int, default=0)
    parser.add_argument("--against", type=Path)
    options = parser.parse_args()
    trees = {"this": _env(None)}
    if options.against is not None:
        trees["against"] = _env(options.against.resolve())
    scratch = Path(tempfile.mkdtemp(prefix="mj-records-"))
    try:
        root = _fixture(scratch, options.refs)
        for env in trees.values():  # compile each tree's modules once, outside the rounds
            for argv in COMMANDS:
                _once(root, argv, env)
        found: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
        for _ in range(options.rounds):
            for tree, env in trees.items():
                for argv in COMMANDS:
                    shutil.rmtree(root / ".ai/local/cache", ignore_errors=True)
                    for mode in ("cold", "warm"):
                        found.setdefault((" ".join(argv), mode, tree), []).append(
                            _once(root, argv, env)
                        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{options.rounds} rounds, {options.refs + 1} ref(s); load {os.getloadavg()[0]:.2f}")
    for (command, mode, tree), runs in found.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"{command:<13} {mode:<5} {tree:<8} median {wall:6.1f} ms  CPU {cpu:6.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
