"""A bare remote, a project whose policy pins one verification command, worker clones that do
what a worker does (honest or not), and one CI clone that fetches what the remote holds and runs
`majordomus verify`, for the behavioural tests of `verify`."""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import Repo
from remoteworld import Remote
from remoteworld import clone
from remoteworld import policy_block
from remoteworld import seed

PINNED = "sh -c '! grep -rq bad lib'"
NOTE = "# Objective\nparse\n# Current State\ndone\n# Next Action\nnone\n"


class World:
    """The remote, the base commit every branch starts from, and the CI clone."""

    def __init__(self, tmp: Path, recording: bool = False) -> None:
        self.tmp = tmp
        self.remote = Remote("path", tmp / "remote")
        block = policy_block() + "verify:\n  require_task: true\n"
        repo = seed(tmp, self.remote.url(), issues=1, block=block)
        policy = repo.root / ".ai/repo/policy.yaml"
        text = policy.read_text().replace("  # commands:", f'  commands:\n    - "{PINNED}"\n  #', 1)
        if recording:  # the pre-commit hook records each pass, for CI to see
            hook = "      - doctor\n    wired_by: git-hook:pre-commit"
            assert hook in text
            text = text.replace(hook, "      - doctor\n      - --commit\n" + hook[15:], 1)
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
        self, branch: str, *extra: str, published: bool = True, base: str | None = None
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
        done = ci.mj("verify", "--base", base or self.base, "--json", *extra)
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


def rewrite_published(worker: Repo, ref: str, number: int, edit: Callable[[Any], Any]) -> None:
    """What a hostile worker's script does to a ledger already published: line `number` edited,
    every line after it re-chained, each publish commit rebuilt on the one before with its tip
    recounted and rehashed, and the ref force-pushed — one chain that only grew, as it now is."""

    def git(*args: str, data: bytes | None = None, env: dict[str, str] | None = None) -> bytes:
        done = subprocess.run(["git", *args], cwd=worker.root, env=env or worker.env,
                              input=data, capture_output=True, check=True)  # fmt: skip
        return done.stdout

    git("fetch", "-q", "origin", f"+{ref}:refs/hostile/ledger")
    commits = git("rev-list", "--reverse", "refs/hostile/ledger").decode().split()
    index = worker.root / ".git" / "hostile-index"
    env = {**worker.env, "GIT_INDEX_FILE": str(index)}
    parent, seen, last = None, 0, b""
    for commit in commits:
        lines = git("show", f"{commit}:lines.jsonl").splitlines()
        tip = json.loads(git("show", f"{commit}:tip.json"))
        out = []
        for given in lines:
            seen += 1
            raw = given
            if seen >= number:
                value = json.loads(given)
                value = edit(value) if seen == number else value
                if "prev" in value and last:
                    value["prev"] = hashlib.blake2b(last, digest_size=32).hexdigest()
                raw = json.dumps(value, separators=(",", ":")).encode()
            out.append(raw)
            last = raw
        tip["last"] = hashlib.blake2b(out[-1], digest_size=32).hexdigest() if out else tip["last"]
        git("read-tree", commit, env=env)
        for name, data in (("lines.jsonl", b"".join(r + b"\n" for r in out)),
                           ("tip.json", json.dumps(tip).encode() + b"\n")):  # fmt: skip
            blob = git("hash-object", "-w", "--stdin", data=data).decode().strip()
            git("update-index", "--cacheinfo", f"100644,{blob},{name}", env=env)
        tree = git("write-tree", env=env).decode().strip()
        args = ["commit-tree", tree, "-m", "publish"] + (["-p", parent] if parent else [])
        parent = git(*args).decode().strip()
    index.unlink(missing_ok=True)
    git("push", "-q", "--force", "origin", f"{parent}:{ref}")
