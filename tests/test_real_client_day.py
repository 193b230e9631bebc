"""One ordinary day with the real clients (REAL-CLIENTS.md), Claude Code and Gemini CLI with the
hooks `capture install` writes, against the recording model server.

The adoption as `init` prints it (the hook lines installed, the verification command pinned,
both providers' hooks), then: start a task, one sitting, commit through the pre-commit hook, a
second sitting, commit, finish, push through the pre-push hook to a bare repository. Every step
exits 0; each sitting leaves a `closed` episode record linked to the task and a handover; the
prompt archive holds the person's prompts and nothing else; no hook failure is logged. The day
runs twice: with `majordomus` on PATH (Claude Code first), and with a PATH that lacks it for
the clients and for git (Gemini CLI first), as when the tool lives in a virtual environment
that is not activated. Four client runs in all.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
import realclients
from conftest import HOOK_LINE
from conftest import Repo
from conftest import bin_dir
from conftest import exe
from conftest import make_repo

PROMPTS = ("please add lib/a.txt", "now add lib/b.txt")
VERIFY = "test -s lib/a.txt"


def without_majordomus(path: str) -> str:
    """`path` without any directory that holds a `majordomus` (node and git stay)."""
    kept = [d for d in path.split(os.pathsep) if d and not (Path(d) / "majordomus").exists()]
    return os.pathsep.join(kept)


class Day:
    def __init__(self, repo: Repo, home: Path, path: str, prefix: Path) -> None:
        self.repo = repo
        self.home = home
        self.prefix = prefix
        self.env = {**repo.env, "PATH": path}  # the person's shell: git, and the tool by its path

    def mj(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run(exe("majordomus"), *args)

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            argv, cwd=self.repo.root, env=self.env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, (argv, done.stdout[-3000:], done.stderr[-3000:])
        return done

    def commit(self, message: str) -> None:
        self.run("git", "add", "-A")
        self.run("git", "commit", "-q", "--no-gpg-sign", "-m", message)

    def sitting(self, client: str, prompt: str) -> None:
        records = self.records()
        more = {"PATH": self.env["PATH"]}
        with realclients.Recorder() as server:
            runner = realclients.run_claude if client == "claude" else realclients.run_gemini
            done = runner(self.prefix, self.repo.root, self.home, server, prompt, more=more)
            assert done.returncode == 0, (client, done.stdout[-2000:], done.stderr[-2000:])
            assert server.requests, f"{client} sent nothing to the recording server"
        for _ in range(100):  # Gemini CLI does not wait for its SessionEnd hook: give it time
            if len(self.records()) > len(records):
                break
            time.sleep(0.1)
        assert len(self.records()) == len(records) + 1, (client, self.records())

    def records(self) -> list[Path]:
        return sorted((self.repo.root / ".ai/repo/sessions").glob("*.md"))


def adopt(day: Day) -> None:
    """`init`, then its printed steps: update, the hook lines, doctor, one commit; the
    verification command pinned; both providers' hooks."""
    init = day.mj("init")
    day.mj("update")
    for hook, line in HOOK_LINE.findall(init.stdout):
        path = day.repo.root / hook
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
        path.chmod(0o755)
    policy = day.repo.root / ".ai/repo/policy.yaml"
    text = policy.read_text()
    pinned = f"  commands:\n    - {VERIFY}\n"
    policy.write_text(text.replace("verification:\n", f"verification:\n{pinned}", 1))
    day.mj("capture", "install")
    day.mj("capture", "install", "--provider", "gemini")
    brief = day.mj("doctor", "--brief")
    assert len(brief.stdout.splitlines()) == 1, brief.stdout  # the layer is sound: one line
    day.commit("Adopt majordomus")


@pytest.mark.parametrize(
    ("clients", "on_path"),
    [(("claude", "gemini"), True), (("gemini", "claude"), False)],
    ids=["majordomus-on-path", "path-without-majordomus"],
)
def test_one_ordinary_day(tmp_path: Path, clients: tuple[str, str], on_path: bool) -> None:
    prefix = realclients.clients()
    repo = make_repo(tmp_path / "repo", tmp_path / "home")
    repo.write("README.md", "# A project\n\nAI workers: read AGENTS.md.\n")
    repo.commit("a project")
    path = repo.env["PATH"]
    path = path if on_path else without_majordomus(path)
    assert on_path == (str(bin_dir()) in path.split(os.pathsep))
    day = Day(repo, tmp_path / "client-home", path, prefix)
    adopt(day)
    started = day.mj("start", "add the two files", "--scope", "lib")
    task = started.stdout.split()[1]
    day.sitting(clients[0], PROMPTS[0])
    repo.write("lib/a.txt", "a\n")
    day.commit("lib/a.txt")  # through the pre-commit hook
    day.sitting(clients[1], PROMPTS[1])
    repo.write("lib/b.txt", "b\n")
    day.commit("lib/b.txt")
    assert day.mj("check").returncode == 0  # the task went on through both sittings
    finished = day.mj("finish", "--outcome", "completed")
    assert VERIFY in finished.stdout, finished.stdout
    bare = tmp_path / "origin.git"
    day.run("git", "init", "-q", "--bare", str(bare))
    day.run("git", "remote", "add", "origin", str(bare))
    day.run("git", "push", "-q", "origin", "main")  # through the pre-push hook
    assert (
        day.run("git", "-C", str(bare), "rev-parse", "main").stdout
        == day.run("git", "rev-parse", "HEAD").stdout
    )
    for record in day.records():
        text = record.read_text()
        assert "outcome: closed" in text and f"task_id: {task}" in text, text
        assert ".ai/local" not in text
    providers = [r.read_text().split("provider: ", 1)[1].split("\n", 1)[0] for r in day.records()]
    assert providers == ["claude-code" if c == "claude" else c for c in clients]
    handovers = list((repo.root / ".ai/local/state/handovers").glob("*.md"))
    assert len(handovers) == 2 and all(f"task_id: {task}" in h.read_text() for h in handovers)
    archived = sorted((repo.root / ".ai/local/prompts").glob("*.json"))
    said = [json.loads(p.read_text()) for p in archived]
    assert sorted(s["prompt"] for s in said) == sorted(PROMPTS), said
    assert not (repo.root / ".ai/local/prompts/failures.log").exists()
