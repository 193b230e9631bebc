"""The prompt hook (`majordomus capture prompt`, what the UserPromptSubmit shim runs) on a 2 KB
and a 200 KB prompt, this install beside another (the commit before the credential detector),
taking turns in one run.

    python packages/mj-watch/benchmarks/prompthook.py --before <bin dir> [--after <bin dir>]
    [--rounds 21]

Each install gets its own scratch repository (`git init`, `majordomus init`). The prompts:
`2k` is a request of ordinary prose and a short code excerpt; `2k+key` is the same with one
AWS access key id in it (the detector library is then imported); `200k` is the project's own
tracked source and docs pasted until 200 KB (identifiers, `password`/`token`/`secret` in code,
digests); `200k+key` is that with the key at its end. Every run archives a new record; after
each, the archive is emptied again so every run writes into the same state. The printed
figures are medians of the rounds after two unmeasured ones.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
KEY = "AKIA" + "IOSFODNN7" + "EXAMPLQ"  # a key id's shape, built so none sits in the tree
REQUEST = (
    "The capture hook archives the prompt before the model sees it. Please look at the way the "
    "archive names its files: two prompts in the same second get a random suffix, and the "
    "rendering repeats the front matter as a table. I would like the table to keep its column "
    "order when a field is missing, and the slug to keep at most forty characters without "
    "cutting a word in half. Keep the records' schema as it is, and add a test that writes two "
    "prompts in one second and reads both back.\n\n"
)


def prompts() -> dict[str, str]:
    code = (ROOT / "packages/mj-state/src/mj_state/capture/archive.py").read_text()
    small = (REQUEST + code)[:2048]
    ask = ("git", "ls-files")
    listed = subprocess.run(ask, cwd=ROOT, capture_output=True, text=True, check=True)
    pasted = []
    size = 0
    for name in sorted(listed.stdout.split()):
        if name.endswith((".py", ".md", ".yaml")) and size < 200_000:
            pasted.append((ROOT / name).read_text(errors="replace"))
            size += len(pasted[-1])
    large = "".join(pasted)[:200_000]
    return {"2k": small, "2k+key": small[:-40] + f" key {KEY}\n",
            "200k": large, "200k+key": large[:-40] + f" key {KEY}\n"}  # fmt: skip


def scratch(tool: Path, base: Path, env: dict[str, str]) -> Path:
    root = base / tool.parent.parent.name
    root.mkdir()
    subprocess.run(("git", "init", "-q", "-b", "main"), cwd=root, env=env, check=True)
    (root / "README.md").write_text("# scratch\n\nWorkers: see AGENTS.md.\n")
    subprocess.run((str(tool), "init"), cwd=root, env=env, check=True, capture_output=True)
    return root


def once(tool: Path, root: Path, env: dict[str, str], text: str) -> float:
    payload = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": text}).encode()
    start = time.perf_counter()
    subprocess.run((str(tool), "capture", "prompt"), cwd=root, env=env, input=payload,
                   check=True, capture_output=True)  # fmt: skip
    took = (time.perf_counter() - start) * 1000
    archive = root / ".ai/local/prompts"
    archived = [p for p in archive.glob("*.json")]
    if len(archived) != 1 or (archive / "failures.log").exists():
        raise SystemExit(f"{tool}: the hook archived {len(archived)} records")
    shutil.rmtree(archive)
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="bin directory of the other install")
    parser.add_argument("--after", default=str(Path(sys.executable).parent))
    parser.add_argument("--rounds", type=int, default=21)
    options = parser.parse_args()
    tools = {
        "before": Path(options.before) / "majordomus",
        "after": Path(options.after) / "majordomus",
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="mj",
               GIT_AUTHOR_EMAIL="mj@example.invalid", GIT_COMMITTER_NAME="mj",
               GIT_COMMITTER_EMAIL="mj@example.invalid")  # fmt: skip
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    texts = prompts()
    with tempfile.TemporaryDirectory() as base:
        roots = {name: scratch(tool, Path(base), env) for name, tool in tools.items()}
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(options.rounds + 2):
            for label, text in texts.items():
                for name, tool in tools.items():
                    took = once(tool, roots[name], env, text)
                    times.setdefault((label, name), []).append(took)
    load = os.getloadavg()[0]
    print(f"{options.rounds} rounds, load average {load:.2f}")
    print(f"{'prompt':<10} {'before ms':>10} {'after ms':>10} {'after/before':>13}")
    for label in texts:
        before = statistics.median(times[(label, "before")][2:])
        after = statistics.median(times[(label, "after")][2:])
        print(f"{label:<10} {before:10.1f} {after:10.1f} {after / before:12.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
