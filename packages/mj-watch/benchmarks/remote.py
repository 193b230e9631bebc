"""What the remote costs, side by side in one interleaved run: `plan start` with a remote against
a bare `git push` of one new ref to the same remote (and against `plan start` without a remote),
and `check` in a clone whose policy names the remote (synced, so the mirror is there) against
`check` in a clone whose policy does not. Each round takes one sample of each, so a change of
load falls on all alike; the result is the median wall time and the median CPU time (user +
system of the process and of what it starts, the git server side included for a path remote).

    python packages/mj-watch/benchmarks/remote.py [--rounds 15] [--remote path|daemon]

The remote is a bare repository reached by path, or served by `git daemon` on 127.0.0.1. The
project is `majordomus init` with a plan of READY issues; the clones are `git clone`s of it.
Each `plan start` starts a new issue (with the remote: takes its claim, one compare-and-swapped
push); each bare push sends one new commit (`git commit-tree` of the same tree) to a new ref.
`git fast-import` of one claim (a blob, its tree and a commit on a new ref, the stream on its
standard input) is what writing a claim's objects through it would cost before the push, set
beside `mj_state.remote.objects`, which writes them itself as loose objects.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIT = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid",
       "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid",
       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}  # fmt: skip
ISSUE = """id: {id}
milestone: M000
title: Issue {id}
slug: issue-{slug}
priority: p1
profile: implementation
parallel_safe: true
objective: "Do {id}."
why: "Because."
current_state: "Not done."
desired_state: "Done."
scope: [lib/{slug}]
non_scope: []
depends_on: []
acceptance_criteria: ["it works"]
validation: ["make test"]
evidence_required: []
risk: "low"
"""
MILESTONE = """id: M000
title: Outcome
slug: outcome
order: 0
priority: p0
problem: "Nothing works."
outcome: "It works."
current_state: "Broken."
desired_state: "Working."
scope: [lib]
non_scope: []
acceptance_criteria: ["the parser parses"]
validation: ["make test"]
evidence_required: []
risks: []
created_at: 2026-12-01
updated_at: 2026-12-01
"""
PROJECT = "schema_version: 1\nname: Bench\nrepository: bench/bench\ndefault_branch: main\n"
BLOCK = "\nremote:\n  name: origin\n"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **GIT}


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(("git", *args), cwd=cwd, env=_env(), capture_output=True, text=True,
                          check=True)  # fmt: skip
    return done.stdout.strip()


def _timed(argv: tuple[str, ...], cwd: Path, data: bytes = b"") -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=_env(), input=data, capture_output=True,
                          check=False)  # fmt: skip
    wall = (time.perf_counter() - began) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr!r}")
    return wall, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000


FAST = "git fast-import, one claim"


def _stream(number: int) -> bytes:
    """A fast-import stream of one claim: its document, on a new ref."""
    doc = b'{"format":1,"state":"held"}\n'
    head = (
        f"commit refs/bench-fast/{number}\n"
        "committer b <b@example.invalid> 0 +0000\ndata 5\nclaim\n"
        f"M 100644 inline claim.json\ndata {len(doc)}\n"
    )
    return head.encode() + doc + b"\n"


def _daemon(base: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = ("git", "daemon", "--reuseaddr", "--export-all", "--enable=receive-pack",
            f"--base-path={base}", "--listen=127.0.0.1", f"--port={port}")  # fmt: skip
    proc = subprocess.Popen(argv, env=_env(), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return proc, f"git://127.0.0.1:{port}/remote.git"
        except OSError:
            time.sleep(0.01)
    raise SystemExit("git daemon did not start")


def _world(scratch: Path, url: str, issues: int) -> tuple[Path, Path]:
    """(a clone whose policy names the remote, a clone whose policy does not)."""
    seed = scratch / "seed"
    seed.mkdir()
    _git(seed, "init", "-q", "-b", "main")
    (seed / "README.md").write_text("# bench\n")
    subprocess.run(("majordomus", "init"), cwd=seed, env=_env(), capture_output=True, check=True)
    plan = seed / ".ai/repo/project"
    (plan / "milestones").mkdir(parents=True)
    (plan / "issues").mkdir()
    (plan / "project.yaml").write_text(PROJECT)
    (plan / "milestones/M000.yaml").write_text(MILESTONE)
    for number in range(1, issues + 1):
        ident = f"I{number:04d}"
        (plan / f"issues/{ident}.yaml").write_text(ISSUE.format(id=ident, slug=ident.lower()))
    policy = seed / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text() + BLOCK)
    _git(seed, "add", "-A")
    _git(seed, "commit", "-q", "--no-verify", "-m", "bench")
    _git(seed, "push", "-q", url, "HEAD:refs/heads/main")
    clones = []
    for name in ("with", "without"):
        _git(scratch, "clone", "-q", "-b", "main", url, name)
        clones.append(scratch / name)
    bare = clones[1] / ".ai/repo/policy.yaml"
    bare.write_text(bare.read_text().replace(BLOCK, "\n"))
    for clone in clones:
        subprocess.run(("majordomus", "start", "bench", "--scope", "lib"), cwd=clone, env=_env(),
                       capture_output=True, check=True)  # fmt: skip
    subprocess.run(("majordomus", "sync"), cwd=clones[0], env=_env(), capture_output=True,
                   check=True)  # fmt: skip
    return clones[0], clones[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--remote", choices=("path", "daemon"), default="path")
    options = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="mj-remote-"))
    daemon = None
    found: dict[str, list[tuple[float, float]]] = {}
    try:
        served = scratch / "served"
        served.mkdir()
        _git(served, "init", "-q", "--bare", "-b", "main", "remote.git")
        url = str(served / "remote.git")
        if options.remote == "daemon":
            daemon, url = _daemon(served)
        with_, without = _world(scratch, url, 2 * options.rounds + 2)
        tree = _git(with_, "rev-parse", "HEAD^{tree}")
        load = os.getloadavg()[0]
        for number in range(1, options.rounds + 1):
            commit = _git(with_, "commit-tree", "-m", f"bench {number}", tree)
            samples = {
                "git push (one new ref)": (("git", "push", "-q", url,
                                            f"{commit}:refs/bench/{number}"), with_),
                FAST: (("git", "fast-import", "--quiet"), with_),
                "plan start, remote": (("majordomus", "plan", "start", f"I{number:04d}"), with_),
                "plan start, no remote": (("majordomus", "plan", "start", f"I{number:04d}"),
                                          without),
                "check, remote": (("majordomus", "check"), with_),
                "check, no remote": (("majordomus", "check"), without),
            }  # fmt: skip
            for name, (argv, cwd) in samples.items():
                data = _stream(number) if name == FAST else b""
                found.setdefault(name, []).append(_timed(argv, cwd, data))
    finally:
        if daemon is not None:
            os.killpg(daemon.pid, signal.SIGKILL)
            daemon.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    medians = {n: (statistics.median(r[0] for r in s), statistics.median(r[1] for r in s))
               for n, s in found.items()}  # fmt: skip
    print(f"{options.rounds} rounds, remote by {options.remote}; load {load:.2f} at the start, "
          f"{os.getloadavg()[0]:.2f} at the end; {sys.version.split()[0]}")  # fmt: skip
    for name, (wall, cpu) in medians.items():
        print(f"{name:<24} median {wall:7.1f} ms  CPU {cpu:7.1f} ms")
    push = medians["git push (one new ref)"][0]
    start, plain = medians["plan start, remote"][0], medians["plan start, no remote"][0]
    check, bare = medians["check, remote"][0], medians["check, no remote"][0]
    fast = medians[FAST][0]
    print(
        f"plan start with a remote / git push: {start / push:.2f}x; "
        f"its remote part (with - without) / git push: {(start - plain) / push:.2f}x; "
        f"git fast-import of one claim / git push: {fast / push:.2f}x"
    )
    print(f"check with a remote / without: {check / bare:.3f}x, CPU "
          f"{medians['check, remote'][1] / medians['check, no remote'][1]:.3f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
