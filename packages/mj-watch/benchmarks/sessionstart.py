"""The SessionStart hook taken apart, in one run: the bare interpreter, the interpreter that only
imports the modules the hook imports, and the hook itself through its installed shim.

    python packages/mj-watch/benchmarks/sessionstart.py [--rounds 30]

Run it with the tool installed (non-editable, bytecode compiled, as `majordomus bench` runs).
It builds the large bench fixture (`mj_watch.bench.fixture`), starts a task, writes a
checkpoint and installs the Claude Code shims. The modules are those a first run of the hook
imports (`python -X importtime`). The three take turns, one run each per round, each hook run
with a new session id, and after each hook run the fixture is put back as it was (the open
episode, its working context and pointer removed, the ledger cut back to its length and tip),
so every round opens an episode in the same state. The printed figures are medians.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

from mj_watch.bench import fixture

PAYLOAD = {"hook_event_name": "SessionStart", "source": "startup"}
IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", re.M)


def majordomus(root: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run((shutil.which("majordomus") or "majordomus", *args), cwd=root, env=env,
                   check=True, capture_output=True)  # fmt: skip


class Fixture:
    """The state a hook run changes, and how to put it back."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.state = root / ".ai/local/state"
        self.ledger = self.state / "ledger.jsonl"
        self.tip = self.state / "ledger.tip"
        self.size = self.ledger.stat().st_size
        self.tip_bytes = self.tip.read_bytes() if self.tip.exists() else None
        self.dirs = [self.state / "sessions-open", root / ".ai/local/session-contexts", self.state]
        self.files = {p for d in self.dirs if d.is_dir() for p in d.iterdir()}

    def restore(self) -> None:
        with self.ledger.open("r+b") as ledger:
            ledger.truncate(self.size)
        if self.tip_bytes is not None:
            self.tip.write_bytes(self.tip_bytes)
        for directory in self.dirs:
            for path in directory.iterdir() if directory.is_dir() else ():
                if path not in self.files and path.is_file():
                    path.unlink()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    options = parser.parse_args()
    scenario = fixture.scenario("large", 1)
    try:
        root, env = scenario.root, {**scenario.env, "CLAUDE_PROJECT_DIR": str(scenario.root)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        majordomus(root, env, "start", "bench task", "--scope", "src")
        majordomus(root, env, "checkpoint", "--derive")
        majordomus(root, env, "capture", "install", "--provider", "claude-code")
        shim = root / ".claude/hooks/majordomus-session-start"
        state = Fixture(root)

        def hook(argv: list[str]) -> subprocess.CompletedProcess[bytes]:
            data = json.dumps({**PAYLOAD, "session_id": str(uuid.uuid4())}).encode()
            done = subprocess.run(argv, input=data, cwd=root, env=env, capture_output=True,
                                  check=False)  # fmt: skip
            opened = list((state.state / "sessions-open").glob("*.yaml"))
            state.restore()
            if done.returncode != 0 or not opened:
                raise SystemExit(f"the hook opened no episode: {done.stderr.decode()[-300:]}")
            return done

        script = shutil.which("majordomus") or "majordomus"
        traced = hook([sys.executable, "-X", "importtime", script, "capture", "session",
                       "--event", "start", "--provider", "claude-code"])  # fmt: skip
        modules = IMPORTED.findall(traced.stderr.decode())
        only = (  # as the hook did, including the imports it tried that failed (`nt`, …)
            f"import importlib, os\nfor m in {modules!r}:\n"
            "    try:\n        importlib.import_module(m)\n    except ImportError:\n        pass\n"
        )
        runs = {
            "bare interpreter": [sys.executable, "-c", "pass"],
            "imports only": [sys.executable, "-c", only + "os._exit(0)"],
            "SessionStart hook": [str(shim)],
        }
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(options.rounds + 2):  # the first two rounds are warm-up
            for name, argv in runs.items():
                start = time.perf_counter()
                if name == "SessionStart hook":
                    hook(argv)
                else:
                    subprocess.run(argv, cwd=root, env=env, check=True)
                times[name].append((time.perf_counter() - start) * 1000)
        medians = {name: statistics.median(t[2:]) for name, t in times.items()}
    finally:
        scenario.close()
    bare = medians["bare interpreter"]
    ours = len({m for m in modules if m == "majordomus" or m.startswith(("majordomus.", "mj_"))})
    print(f"{len(set(modules))} modules imported by the hook, {ours} of them the tool's; "
          f"{options.rounds} rounds, load {os.getloadavg()[0]:.2f}")  # fmt: skip
    for name, median in medians.items():
        print(f"{name:<20} {median:7.1f} ms  {median / bare:4.2f}× the bare interpreter")
    work = medians["SessionStart hook"] - medians["imports only"]
    print(f"{'the work':<20} {work:7.1f} ms  {work / bare:4.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
