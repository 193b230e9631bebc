"""Real remotes for the behavioural tests of `sync`, `claims` and the claims the writers take:
a bare repository reached by path, the same served by `git daemon` on 127.0.0.1 (the git
protocol, pushes enabled), and a bare repository that refuses non-fast-forward updates and
deletions. Each test gets its own; the daemon is started and stopped here.

`world(...)` seeds one project (the layer, a plan of READY issues, `remote:` in the policy),
pushes it, and makes clones of it, each a checkout with its own `.ai/local/`.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from conftest import Repo
from conftest import make_env
from conftest import make_repo
from test_plan import BASE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

KINDS = ("path", "daemon", "strict")
SHIPPED_HOOK = Path(__file__).resolve().parents[1] / "share" / "remote" / "update"
NAME = "remote.git"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Daemon:
    """`git daemon --enable=receive-pack` serving every repository under `base`."""

    def __init__(self, base: Path, env: dict[str, str]) -> None:
        self.base = base
        self.env = env
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Daemon:
        for _ in range(20):
            self.port = self.port or free_port()
            argv = ["git", "daemon", "--reuseaddr", "--export-all", "--enable=receive-pack",
                    "--informative-errors", f"--base-path={self.base}", "--listen=127.0.0.1",
                    f"--port={self.port}", f"--pid-file={self.base / 'daemon.pid'}"]  # fmt: skip
            quiet = subprocess.DEVNULL
            self.proc = subprocess.Popen(argv, env=self.env, start_new_session=True,
                                         stdout=quiet, stderr=quiet)  # fmt: skip
            if self._listening():
                return self
            self.stop()
            self.port = 0
        raise RuntimeError("git daemon did not start")

    def _listening(self) -> bool:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                return False
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return True
            except OSError:
                time.sleep(0.02)  # the daemon binds its port: poll until it answers
        return False

    def stop(self) -> None:
        """Stop the daemon and every connection it serves (its whole process group)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def url(self) -> str:
        return f"git://127.0.0.1:{self.port}/{NAME}"


class Remote:
    """One remote of a test: its kind, the bare repository behind it, its URL."""

    def __init__(self, kind: str, tmp: Path) -> None:
        self.kind = kind
        self.env = make_env(tmp / "home")
        served = tmp / "served"
        served.mkdir(parents=True, exist_ok=True)
        self.bare = served / NAME
        self.git_bare("init", "-q", "--bare", "-b", "main", str(self.bare), cwd=tmp)
        if kind == "strict":
            self.git_bare("config", "receive.denyNonFastForwards", "true")
            self.git_bare("config", "receive.denyDeletes", "true")
            hook = self.bare / "hooks" / "update"  # git's settings hold only refs/heads/ (FORMATS)
            hook.parent.mkdir(exist_ok=True)
            hook.write_bytes(SHIPPED_HOOK.read_bytes())
            hook.chmod(0o755)
        self.daemon = Daemon(served, self.env).start() if kind == "daemon" else None

    def url(self) -> str:
        return self.daemon.url() if self.daemon is not None else str(self.bare)

    def git_bare(self, *args: str, cwd: Path | None = None) -> str:
        argv = ["git", *args] if cwd is not None else ["git", "--git-dir", str(self.bare), *args]
        done = subprocess.run(argv, cwd=cwd, env=self.env, capture_output=True, text=True,
                              check=False)  # fmt: skip
        assert done.returncode == 0, (argv, done.stderr)
        return done.stdout

    def refs(self, prefix: str = "refs/majordomus/") -> dict[str, str]:
        out = self.git_bare("for-each-ref", "--format=%(refname) %(objectname)", prefix)
        return dict(tuple(line.split(" ", 1)) for line in out.splitlines())  # type: ignore[misc]

    def claim(self, ref: str) -> dict[str, object]:
        value: dict[str, object] = json.loads(self.git_bare("show", f"{ref}:claim.json"))
        return value

    def published(self, clone_id: str) -> list[str]:
        """Every ledger line the remote holds for a clone, oldest first."""
        ref = f"refs/majordomus/ledger/{clone_id}"
        if ref not in self.refs(ref):
            return []
        commits = self.git_bare("rev-list", "--reverse", ref).split()
        lines: list[str] = []
        for commit in commits:
            lines += self.git_bare("show", f"{commit}:lines.jsonl").splitlines()
        return lines

    def close(self) -> None:
        if self.daemon is not None:
            self.daemon.stop()


def policy_block(timeout: str = "10s", extra: str = "") -> str:
    return f"\nremote:\n  name: origin\n  timeout: {timeout}\n{extra}"


def seed(tmp: Path, url: str, issues: int = 3, block: str | None = None) -> Repo:
    """The project every clone starts from: the layer, a plan of `issues` READY issues and
    `remote:` in the policy, pushed to `url` as `main`."""
    repo = make_repo(tmp / "seed", tmp / "home")
    assert repo.mj("init").code == 0
    repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(repo, "M000")
    for number in range(1, issues + 1):
        issue(repo, f"I{number:04d}")
    policy = repo.root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text() + (policy_block() if block is None else block))
    repo.commit("adopt majordomus with a plan")
    repo.git("remote", "add", "origin", url)
    repo.git("push", "-q", "origin", "HEAD:refs/heads/main")
    return repo


def clone(url: str, where: Path, home: Path) -> Repo:
    env = make_env(home)
    done = subprocess.run(["git", "clone", "-q", "-b", "main", url, str(where)], env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return Repo(where, env)


def clone_id(repo: Repo) -> str:
    return (repo.root / ".ai/local/remote/clone-id").read_text().strip()


def ledger(repo: Repo) -> list[str]:
    path = repo.root / ".ai/local/state/ledger.jsonl"
    return path.read_text().splitlines() if path.exists() else []
