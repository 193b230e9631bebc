"""Behavioural tests: the installed executables, run as subprocesses in scratch git repositories.

Nothing here imports the packages: only executables, files, modes and exit codes, which is what
lets the `wheels` tox environment run this suite against a clean, non-editable install. Every
record a tool process of the suite emits is sampled and, at the end of the session, validated
against its kind's schema (the hooks at the end of this file).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

SAMPLING = Path(__file__).resolve().parent / "sampling"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "mj-test",
    "GIT_AUTHOR_EMAIL": "mj-test@example.invalid",
    "GIT_COMMITTER_NAME": "mj-test",
    "GIT_COMMITTER_EMAIL": "mj-test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}


def bin_dir() -> Path:
    """`$MJ_BIN` when set (the wheels environment), else beside the running interpreter."""
    return Path(os.environ.get("MJ_BIN") or Path(sys.executable).parent)


def exe(name: str) -> str:
    path = bin_dir() / name
    if not path.exists():
        raise RuntimeError(f"{name} is not installed in {bin_dir()}")
    return str(path)


@dataclass
class Result:
    code: int
    out: str
    err: str

    def __repr__(self) -> str:  # shown by pytest when an assertion fails
        return f"Result(code={self.code}, out={self.out!r}, err={self.err!r})"


@dataclass
class Repo:
    root: Path
    env: dict[str, str]

    def run(self, *args: str, stdin: str | None = None, cwd: Path | None = None) -> Result:
        """Run an installed executable (`majordomus` unless args[0] starts with `mj-`)."""
        argv = list(args)
        if not argv or not argv[0].startswith("mj-"):
            argv = ["majordomus", *argv]
        argv[0] = exe(argv[0])
        proc = subprocess.run(
            argv,
            cwd=cwd or self.root,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def mj(self, *args: str, stdin: str | None = None) -> Result:
        return self.run(*args, stdin=stdin)

    def git(self, *args: str, check: bool = True) -> str:
        proc = subprocess.run(
            ["git", *args],
            cwd=self.root,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
        return proc.stdout

    def shell(self, script: str) -> Result:
        """Run a reproduce command the way a person would paste it."""
        env = dict(self.env)
        env["PATH"] = f"{bin_dir()}{os.pathsep}{env['PATH']}"
        proc = subprocess.run(
            ["bash", "-c", script],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def commit(self, message: str = "change", *paths: str) -> str:
        self.git("add", "-A", *paths)
        self.git("commit", "-q", "--no-gpg-sign", "--no-verify", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD").strip()

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path


# a hook line `init` prints: the hook's file, then the majordomus it ran as (a path, quoted when
# it holds a space) with the command
HOOK_LINE = re.compile(r"^  (\S+): ((?:'[^'\n]+'|\S+) .+ \|\| exit \$\?)$", re.M)
FINDING = re.compile(
    r"^(FAIL|OK|INFO|WARN|DRIFT)\s+(\S+)\s+(.*?) — (.*?)(?:  \[reproduce: (.*)\])?$"
)


def wire(repo: Repo) -> None:
    """Install the hook lines `init` prints, as a person would: one line a hook, executable."""
    for hook, line in HOOK_LINE.findall(repo.mj("init", "--extend").out):
        path = repo.root / hook
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
        path.chmod(0o755)


def failures(output: str) -> list[tuple[str, str, str, str]]:
    """(category, subject, message, reproduce) of every FAIL line in a command's output."""
    found = []
    for line in output.splitlines():
        match = FINDING.match(line)
        if match and match.group(1) == "FAIL":
            found.append((match.group(2), match.group(3), match.group(4), match.group(5)))
    return found


def judged(
    repo: Repo, tool: str, facts: str, judge: str, *args: str, stdin: str | None = None
) -> list[dict[str, Any]]:
    """The judge's stream for `<tool> <facts> <args> | <tool> <judge>`, as a worker who means to
    feed a writer something else would capture it (each stage must succeed)."""
    import json

    gathered = repo.run(tool, *facts.split(), *args, stdin=stdin)
    assert gathered.code == 0, gathered
    given = repo.run(tool, judge, stdin=gathered.out)
    assert given.code == 0, given
    return [json.loads(line) for line in given.out.splitlines()]


def forged(records: list[dict[str, Any]], **changed: object) -> str:
    """A judge's stream with its verdict's fields changed and the rest as it was: what a worker
    who edits a verdict on its way to the writer feeds it."""
    import json

    out = [{**r, **changed} if r.get("kind") == "verdict" else r for r in records]
    return "\n".join(json.dumps(r) for r in out) + "\n"


def files_under(repo: Repo, *bases: str) -> list[tuple[str, bytes]]:
    """Every file under the named directories, by its repository-relative path, with its bytes:
    what a writer that must write nothing is compared by."""
    found = (p for base in bases if (repo.root / base).exists()
             for p in (repo.root / base).rglob("*") if p.is_file())  # fmt: skip
    return sorted((p.relative_to(repo.root).as_posix(), p.read_bytes()) for p in found)


def make_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MJ_"))}
    env.update(GIT_ENV)
    env["HOME"] = str(home)
    env["GIT_TEMPLATE_DIR"] = ""
    env["PATH"] = f"{bin_dir()}{os.pathsep}{env.get('PATH', '')}"
    env.pop("MAJORDOMUS_SHARE", None)
    return env


def make_repo(path: Path, home: Path) -> Repo:
    path.mkdir(parents=True, exist_ok=True)
    env = make_env(home)
    repo = Repo(path, env)
    repo.git("init", "-q", "-b", "main")
    repo.write("README.md", "# scratch\n")
    repo.commit("initial")
    return repo


@pytest.fixture
def git_repo(tmp_path: Path) -> Iterator[Repo]:
    """A scratch repository with one commit, git isolated from the machine's configuration."""
    yield make_repo(tmp_path / "repo", tmp_path / "home")


@pytest.fixture
def layer_repo(git_repo: Repo) -> Repo:
    """A scratch repository after `majordomus init`, with the layer committed."""
    result = git_repo.mj("init")
    assert result.code == 0, result
    git_repo.commit("adopt majordomus")
    return git_repo


# The stream contract (`streamcontract.py`): every tool process this suite runs records what its
# stages emit (`sampling/sitecustomize.py`, on PYTHONPATH); at the end of the session every
# sampled record is validated against its kind's schema, and a problem fails the run.


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # the controller set the environment up, and its workers inherited it
    import tempfile

    if not os.environ.get("MJTEST_SAMPLES"):
        os.environ["MJTEST_SAMPLES"] = tempfile.mkdtemp(prefix="mj-stream-samples-")
        config.stash[_OWNED] = True
    else:  # a directory named by the person running the suite is kept for them to read
        Path(os.environ["MJTEST_SAMPLES"]).mkdir(parents=True, exist_ok=True)
    paths = [str(SAMPLING), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))


_OWNED = pytest.StashKey[bool]()
_VERDICT = pytest.StashKey[Any]()  # a `streamcontract.Verdict`
_REPRODUCED = pytest.StashKey[Any]()  # a `reprocheck.Verdict`: every reproduce command ran


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER") or not os.environ.get("MJTEST_SAMPLES"):
        return
    import reprocheck
    import streamcontract

    directory = Path(os.environ["MJTEST_SAMPLES"])
    found = list(streamcontract.samples(directory))
    verdict = streamcontract.judge(found)
    session.config.stash[_VERDICT] = verdict
    import shutil
    import tempfile

    home = Path(tempfile.mkdtemp(prefix="mj-reproduce-home-"))
    reproduced = reprocheck.run(reprocheck.commands(found), bin_dir(), make_env(home))
    shutil.rmtree(home, ignore_errors=True)
    session.config.stash[_REPRODUCED] = reproduced
    if session.config.stash.get(_OWNED, False):
        shutil.rmtree(directory, ignore_errors=True)
    if (verdict.problems or reproduced.problems) and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    verdict = config.stash.get(_VERDICT, None)
    if verdict is None:
        return
    write = terminalreporter.write_line
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(verdict.kinds.items()))
    write(
        f"stream contract: {verdict.lines} records ({verdict.distinct} distinct) from "
        f"{verdict.processes} tool processes validated in {verdict.seconds:.2f}s; kinds: {kinds}"
    )
    for problem in verdict.problems[:40]:
        write(f"stream contract FAILED: {problem}", red=True)
    if len(verdict.problems) > 40:
        write(f"stream contract: {len(verdict.problems) - 40} more problems", red=True)
    reproduced = config.stash.get(_REPRODUCED, None)
    if reproduced is not None:
        gone = f" ({reproduced.skipped} whose directory is gone)" if reproduced.skipped else ""
        write(f"reproduce commands: {reproduced.ran} run as printed{gone}")
        for problem in reproduced.problems:
            write(f"reproduce command FAILED: {problem}", red=True)


# A project rule's file (`.ai/repo/rules/project/`): format with id, klass, depends, extra
# (front-matter lines of its own, ending in a newline, or "").
PROJECT_RULE = """---
id: {id}
version: 1
kind: rule
title: Tabs
description: Indent with tabs.
statement: Indent with tabs.
status: active
class: {klass}
depends_on: [{depends}]
tags: []
{extra}---

Indent with tabs.
"""
