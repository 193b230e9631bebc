"""A bare remote, a project whose policy pins one verification command, worker clones that do
what a worker does (honest or not), and one CI clone that fetches what the remote holds and runs
`majordomus verify`, for the behavioural tests of `verify`."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from conftest import Repo
from remoteworld import Remote
from remoteworld import clone
from remoteworld import policy_block
from remoteworld import seed

PINNED = "sh -c '! grep -rq bad lib'"
NOTE = "# Objective\nparse\n# Current State\ndone\n# Next Action\nnone\n"


class World:
    """The remote, the base commit every branch starts from, and the CI clone."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.remote = Remote("path", tmp / "remote")
        block = policy_block() + "verify:\n  require_task: true\n"
        repo = seed(tmp, self.remote.url(), issues=1, block=block)
        policy = repo.root / ".ai/repo/policy.yaml"
        text = policy.read_text().replace("  # commands:", f'  commands:\n    - "{PINNED}"\n  #', 1)
        policy.write_text(text)
        assert repo.mj("update").code == 0
        repo.commit("pin the verification")
        repo.git("push", "-q", "origin", "HEAD:refs/heads/main")
        self.base = repo.git("rev-parse", "HEAD").strip()
        self.ci = clone(self.remote.url(), tmp / "ci", tmp / "home-ci")
        self.count = 0
        self.bare_ci: Repo | None = None  # a CI clone whose workflow never fetched the refs

    def worker(self) -> Repo:
        self.count += 1
        return clone(self.remote.url(), self.tmp / f"w{self.count}", self.tmp / "home-w")

    def push(self, worker: Repo, branch: str) -> None:
        worker.git("push", "-q", "origin", f"HEAD:refs/heads/{branch}")

    def verify(
        self, branch: str, *extra: str, published: bool = True
    ) -> tuple[int, list[dict[str, object]], str]:
        """Fetch what the remote holds into the CI clone, check the branch out, verify it."""
        ci = self.ci
        if not published:
            self.bare_ci = self.bare_ci or clone(
                self.remote.url(), self.tmp / "ci-bare", self.tmp / "home-ci"
            )
            ci = self.bare_ci
        wanted = ["+refs/heads/*:refs/remotes/origin/*"]
        if published:
            wanted.append("+refs/majordomus/*:refs/majordomus/*")
        ci.git("fetch", "-q", "--prune", "origin", *wanted)
        ci.git("checkout", "-q", "--detach", f"origin/{branch}")
        done = ci.mj("verify", "--base", self.base, "--json", *extra)
        rows = [json.loads(x) for x in done.out.splitlines()]
        return done.code, [r for r in rows if r.get("kind") == "finding"], done.err


def honest(worker: Repo, task: str) -> None:
    """Start a task on lib/<task>, write there, finish (the pinned command runs), commit."""
    assert worker.mj("start", task, "--scope", f"lib/{task}").code == 0
    worker.write(f"lib/{task}/parse.txt", "good\n")
    done = worker.mj("finish", "--outcome", "completed", "--note", "-", stdin=NOTE)
    assert done.code == 0, done
    worker.commit(task)


def failing(findings: list[dict[str, object]], category: str) -> list[dict[str, object]]:
    return [f for f in findings if f["level"] == "FAIL" and f["category"] == category]


def forge_finish(worker: Repo, task_id: str, tree: str) -> None:
    """What a hostile worker's script does: append a `task.finished` that never ran, its `prev`
    and the tip recomputed, and the task's copy edited to say completed."""
    ledger = worker.root / ".ai/local/state/ledger.jsonl"
    lines = ledger.read_bytes().splitlines()
    last = json.loads(lines[-1])
    envelope = {k: last[k] for k in ("ts", "head", "branch", "by", "session") if k in last}
    line = {**envelope, "event": "task.finished", "task_id": task_id, "outcome": "completed",
            "contract": {}, "checkpoints": 0, "working_tree": "clean",
            "verify": {"command": PINNED, "exit": 0, "seconds": 0.1, "tree": tree, "runs": []},
            "prev": hashlib.blake2b(lines[-1], digest_size=32).hexdigest()}  # fmt: skip
    raw = json.dumps(line, separators=(",", ":")).encode()
    data = ledger.read_bytes() + raw + b"\n"
    ledger.write_bytes(data)
    tip = {"size": len(data), "last": hashlib.blake2b(raw, digest_size=32).hexdigest()}
    (ledger.parent / "ledger.tip").write_text(json.dumps(tip, separators=(",", ":")) + "\n")
    current = worker.root / ".ai/local/state/current.yaml"
    if current.exists():
        current.write_text(current.read_text().replace("status: active", "status: completed"))


def snapshot(root: Path) -> dict[str, str]:
    """Every file under `root` (`.git` included) and its content's hash."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def run(argv: list[str], cwd: Path) -> str:
    return subprocess.run(argv, cwd=cwd, check=True, capture_output=True, text=True).stdout
