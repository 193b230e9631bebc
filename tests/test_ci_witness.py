"""The CI job `init --ci` writes carries what the remote held from one run to the next: the run
on the default branch records it (`verify --witness-out`) and keeps it (GitHub: the cache under
its commit; GitLab: the job's artifact), and the run that judges a range starting there hands
it back (`--witness`). Shown by running the written job's own shell steps, in order, in a CI
clone of a bare remote, with the cache (or the artifact API) played by the test: a ledger line
published before the base and rewritten since FAILs the pull request's run, and the same run
without the carried record passes it (judged only as the chain now is)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml
from conftest import GIT_ENV
from conftest import Repo
from conftest import bin_dir
from remoteworld import clone_id
from verifyworld import World
from verifyworld import honest
from verifyworld import rewrite_published

RESTORE_KEY = "majordomus-witness-${{ github.event.pull_request.base.sha || github.event.before }}"
SAVE_KEY = "majordomus-witness-${{ github.sha }}"
HELD = "${{ runner.temp }}/majordomus-witness/held.json"
ZERO = "0" * 40


def _job(root: Path, ci: str, name: str) -> Any:
    repo = Repo(root, {**os.environ, **GIT_ENV})
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert repo.mj("init", "--ci", ci).code == 0
    return yaml.safe_load((root / name).read_text())


def _bash(
    script: str, ci: Repo, env: dict[str, str], first: str = ""
) -> subprocess.CompletedProcess[str]:
    """`script` as a runner runs a step (bash -eo pipefail), `first` then majordomus on PATH."""
    path = os.pathsep.join(x for x in (first, str(bin_dir()), ci.env["PATH"]) if x)
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                          cwd=ci.root, env={**ci.env, **env, "PATH": path}, capture_output=True,
                          text=True, check=False)  # fmt: skip


def _checkout(world: World, branch: str) -> None:
    world.ci.git("fetch", "-q", "--prune", "origin", "+refs/heads/*:refs/remotes/origin/*")
    world.ci.git("checkout", "-q", "--detach", f"origin/{branch}")
    for name in ("majordomus.sarif", "majordomus-junit.xml", "majordomus-witness.json"):
        (world.ci.root / name).unlink(missing_ok=True)  # each CI run starts in a fresh checkout


class GitHub:
    """The workflow's steps run as the runner runs them; `cache` is the repository's cache."""

    def __init__(self, world: World, tmp: Path) -> None:
        self.world, self.tmp, self.runs = world, tmp, 0
        steps = _job(tmp / "gh-init", "github", ".github/workflows/majordomus.yml")
        self.steps = {s.get("name") or s["uses"]: s for s in steps["jobs"]["verify"]["steps"]}
        restore = self.steps["Restore what the remote held at the base"]
        save = self.steps["Save it under this commit"]
        assert restore["uses"].startswith("actions/cache/restore@")
        assert restore["with"] == {"path": HELD, "key": RESTORE_KEY}
        assert save["uses"].startswith("actions/cache/save@")
        assert save["with"] == {"path": HELD, "key": SAVE_KEY}
        assert save["if"] == self.steps["Keep what the remote holds now, for the next run"]["if"]

    def run(self, branch: str, event: str, base: str, cache: dict[str, bytes]) -> tuple[int, str]:
        self.runs += 1
        temp = self.tmp / f"runner-temp-{self.runs}"
        temp.mkdir()
        _checkout(self.world, branch)
        sha = self.world.ci.git("rev-parse", "HEAD").strip()
        held = Path(HELD.replace("${{ runner.temp }}", str(temp)))
        env = {"RUNNER_TEMP": str(temp), "GITHUB_EVENT_NAME": event, "GITHUB_SHA": sha,
               "PR_BASE": base if event == "pull_request" else "",
               "PUSH_BEFORE": base if event == "push" else ""}  # fmt: skip
        fetched = _bash(self.steps["Fetch what the remote witnessed"]["run"], self.world.ci, env)
        assert fetched.returncode == 0, fetched.stderr
        if f"majordomus-witness-{base}" in cache:  # the restore step, its key evaluated
            held.parent.mkdir(parents=True)
            held.write_bytes(cache[f"majordomus-witness-{base}"])
        done = _bash(self.steps["Verify the range"]["run"], self.world.ci, env)
        if event == "push":  # the keep and save steps (`if: always() && … == 'push'`)
            kept = _bash(self.steps["Keep what the remote holds now, for the next run"]["run"],
                         self.world.ci, env)  # fmt: skip
            assert kept.returncode == 0, kept.stderr
            if held.is_file():
                cache.setdefault(f"majordomus-witness-{sha}", held.read_bytes())
        return done.returncode, done.stdout + done.stderr


class GitLab:
    """The job's script lines run in one shell, as the runner does; `curl` stands in for the
    artifacts API, serving the default branch's last `majordomus-witness.json`."""

    def __init__(self, world: World, tmp: Path) -> None:
        self.world, self.tmp = world, tmp
        job = _job(tmp / "gl-init", "gitlab", ".gitlab-ci.yml")["majordomus-verify"]
        assert "majordomus-witness.json" in job["artifacts"]["paths"]
        assert job["artifacts"]["when"] == "always"
        lines = [x for x in job["script"] if not x.startswith("python -m pip install")]
        self.script = "\n".join(lines)
        self.fake = tmp / "fake-bin"
        self.fake.mkdir()
        curl = self.fake / "curl"  # `--output FILE … URL`: the artifact, or 22 as curl --fail
        curl.write_text('#!/bin/sh\nout=""\nwhile [ $# -gt 0 ]; do\n  [ "$1" = --output ] && '
                        'out="$2"\n  shift\ndone\n[ -f "$ARTIFACT" ] || exit 22\n'
                        'cp "$ARTIFACT" "$out"\n')  # fmt: skip
        curl.chmod(0o755)
        self.artifact = tmp / "artifact-store" / "majordomus-witness.json"

    def run(self, branch: str, event: str, base: str) -> tuple[int, str]:
        _checkout(self.world, branch)
        mr = event == "merge_request_event"
        env = {"CI_PIPELINE_SOURCE": event, "CI_DEFAULT_BRANCH": "main",
               "CI_COMMIT_BRANCH": "" if mr else branch, "CI_JOB_NAME": "majordomus-verify",
               "CI_MERGE_REQUEST_DIFF_BASE_SHA": base if mr else "",
               "CI_COMMIT_BEFORE_SHA": ZERO if mr else base, "CI_JOB_TOKEN": "token",
               "CI_API_V4_URL": "https://gitlab.invalid/api/v4", "CI_PROJECT_ID": "1",
               "ARTIFACT": str(self.artifact)}  # fmt: skip
        done = _bash(self.script, self.world.ci, env, first=str(self.fake))
        written = self.world.ci.root / "majordomus-witness.json"
        if not mr and branch == "main" and written.is_file():  # the artifact of main's job
            self.artifact.parent.mkdir(exist_ok=True)
            shutil.copyfile(written, self.artifact)
        return done.returncode, done.stdout + done.stderr


def _merged(world: World) -> tuple[str, Repo]:
    """Honest work merged to main: main's commit and the worker that did it."""
    early = world.worker()
    honest(early, "early")
    early.git("push", "-q", "origin", "HEAD:refs/heads/main")
    return early.git("rev-parse", "HEAD").strip(), early


def _rewrite_and_branch(world: World, early: Repo) -> str:
    """A line of the early worker's published ledger rewritten (the chain recomputed and
    force-pushed), then a later branch with honest work of its own; the ledger's ref."""
    ref = f"refs/majordomus/ledger/{clone_id(early)}"
    lines = world.remote.published(clone_id(early))
    number = next(n for n, x in enumerate(lines, 1) if '"task.started"' in x)
    rewrite_published(early, ref, number, lambda line: {**line, "scope": ["."]})
    late = world.worker()
    honest(late, "late")
    world.push(late, "late")
    return ref


def test_github_carries_the_witness_from_main_to_the_pull_request(tmp_path: Path) -> None:
    world = World(tmp_path)
    try:
        github = GitHub(world, tmp_path)
        cache: dict[str, bytes] = {}
        main, early = _merged(world)
        code, out = github.run("main", "push", world.base, cache)
        assert code == 0, out
        assert list(cache) == [f"majordomus-witness-{main}"], cache  # kept under main's commit
        ref = _rewrite_and_branch(world, early)
        code, out = github.run("late", "pull_request", main, cache)
        assert code == 10, out
        assert f"::error file=.ai/repo/policy.yaml,line=1,title=verify witness {ref}::" in out, out
        assert "is not the line the remote held" in out, out
        code, out = github.run("late", "pull_request", main, {})  # nothing carried
        assert code == 0, out
        assert "::error" not in out and "no record of what the remote held" in out, out
    finally:
        world.remote.close()


def test_gitlab_carries_the_witness_from_main_to_the_merge_request(tmp_path: Path) -> None:
    world = World(tmp_path)
    try:
        gitlab = GitLab(world, tmp_path)
        main, early = _merged(world)
        code, out = gitlab.run("main", "push", world.base)
        assert code == 0, out
        assert gitlab.artifact.is_file(), out
        ref = _rewrite_and_branch(world, early)
        code, out = gitlab.run("late", "merge_request_event", main)
        assert code == 10, out
        assert re.search(rf"^FAIL witness +{re.escape(ref)} — .* is not the line the remote held",
                         out, re.M), out  # fmt: skip
        gitlab.artifact.unlink()  # the artifact API has nothing: the job judges without it
        code, out = gitlab.run("late", "merge_request_event", main)
        assert code == 0, out
    finally:
        world.remote.close()
