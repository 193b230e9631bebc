"""A long ledger costs the judges that read it time, not memory: `finish --check` reads the
newest task's lines from the file's end and counts the rest, `history --validate` judges the
lines a block at a time. Their peak memory on a ledger of 40,000 lines is within a few
megabytes of their peak on one of 500 lines (the ledger itself is about 10 MB); the verdicts
are the same as ever (a sound chain is OK, an edited line is named)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import Repo
from conftest import exe

# a minimal launcher: a child forked from pytest would report pytest's own size as its peak
LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def digest(line: bytes) -> str:
    return hashlib.blake2b(line, digest_size=32).hexdigest()


def grow(repo: Repo, lines: int) -> None:
    """The ledger made `lines` longer with chained checkpoint lines of an old task, the tip
    moved on with it, as the tool's own appends leave them."""
    ledger = repo.root / ".ai/local/state/ledger.jsonl"
    ledger.parent.mkdir(parents=True, exist_ok=True)
    data = ledger.read_bytes() if ledger.exists() else b""
    last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1] if data else None
    prev = digest(last) if last else "0" * 64
    out = [data]
    for index in range(lines):
        value = {"ts": "2026-11-01T10:00:00Z", "event": "task.checkpoint", "head": "0" * 40,
                 "branch": "main", "by": "majordomus/test", "task_id": "t-20261101100000-0001",
                 "path": f".ai/local/state/checkpoints/c-{index:06d}.md", "prev": prev}  # fmt: skip
        line = json.dumps(value, separators=(",", ":")).encode()
        prev = digest(line)
        out.append(line + b"\n")
    body = b"".join(out)
    ledger.write_bytes(body)
    tip = {"size": len(body), "last": prev}
    (ledger.parent / "ledger.tip").write_bytes(json.dumps(tip, separators=(",", ":")).encode())


def peak(repo: Repo, *args: str) -> tuple[int, int]:
    """(peak resident kilobytes, exit code) of one run of `majordomus args`."""
    launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER, exe("majordomus"), *args]
    done = subprocess.run(
        launcher, cwd=repo.root, env=repo.env, capture_output=True, text=True, check=True
    )
    rss, code = done.stdout.split()
    return int(rss), int(code)


def test_finish_check_and_history_validate_do_not_hold_a_long_ledger(
    tmp_path: Path, layer_repo: Repo
) -> None:
    if not hasattr(os, "wait4"):  # pragma: no cover - POSIX only
        return
    short = layer_repo
    grow(short, 500)
    assert short.mj("start", "a task", "--scope", "src").code == 0
    long = Repo(tmp_path / "long", short.env)
    subprocess.run(["cp", "-a", str(short.root), str(long.root)], check=True)
    grow_before_task(long, 39_500)
    for args in (("finish", "--check"), ("history", "--validate")):
        few, code_few = peak(short, *args)
        many, code_many = peak(long, *args)
        assert (code_few, code_many) == (0, 0), args
        assert many - few < 4096, (args, few, many)  # kilobytes: the ledger is ~10 MB longer
    said = long.mj("history", "--validate")
    assert said.code == 0 and "40002 line(s)" in said.out and "hash-chained" in said.out, said


def grow_before_task(repo: Repo, lines: int) -> None:
    """`lines` more old lines before the task's own, the chain and the tip made again."""
    ledger = repo.root / ".ai/local/state/ledger.jsonl"
    kept = ledger.read_bytes().splitlines(keepends=True)
    ledger.write_bytes(b"".join(kept[:-1]))  # the task's start comes back after the growth
    grow(repo, lines)
    start = json.loads(kept[-1])
    data = ledger.read_bytes()
    start["prev"] = digest(data.rstrip(b"\n").rsplit(b"\n", 1)[-1])
    line = json.dumps(start, separators=(",", ":"), ensure_ascii=False).encode()
    body = data + line + b"\n"
    ledger.write_bytes(body)
    tip = {"size": len(body), "last": digest(line)}
    (ledger.parent / "ledger.tip").write_bytes(json.dumps(tip, separators=(",", ":")).encode())
