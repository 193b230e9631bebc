from __future__ import annotations

import fcntl
import json
import multiprocessing
import os
import stat
from pathlib import Path

import pytest
from mj_core.errors import Refused
from mj_core.write import atomic


def test_create_sets_mode_and_refuses_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "record.md"
    atomic.create(target, b"one\n", mode=0o600, root=tmp_path)
    assert target.read_bytes() == b"one\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    with pytest.raises(Refused, match="already exists"):
        atomic.create(target, b"two\n", root=tmp_path)
    assert target.read_bytes() == b"one\n"
    atomic.create(target, b"two\n", replace=True, root=tmp_path)
    assert target.read_bytes() == b"two\n"
    assert [p.name for p in target.parent.iterdir()] == ["record.md"]  # no temporary left


def test_publish_unique_retries_a_taken_name(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("taken")
    names = iter(["a.md", "b.md"])
    path = atomic.publish_unique(tmp_path, lambda: next(names), b"new", 0o600, root=tmp_path)
    assert path.name == "b.md"
    assert (tmp_path / "a.md").read_text() == "taken"


def test_interrupted_publish_leaves_no_partial_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(temp: Path, _target: Path) -> None:
        assert temp.exists()  # the data is complete in the temporary file at this point
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "_before_publish", crash)
    with pytest.raises(KeyboardInterrupt):
        atomic.create(tmp_path / "r.md", b"body", mode=0o600, root=tmp_path)
    with pytest.raises(KeyboardInterrupt):
        atomic.publish_unique(tmp_path, lambda: "x.md", b"body", 0o600, root=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_taken_temporary_name_is_retried_and_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    squatter = tmp_path / f".mj-tmp-{bytes(8).hex()}"
    squatter.write_bytes(b"someone else's")
    draws = iter([bytes(8), bytes(8), b"\x01" * 8])
    monkeypatch.setattr(atomic.os, "urandom", lambda _n: next(draws))
    atomic.create(tmp_path / "r.md", b"body", mode=0o640, root=tmp_path)
    assert squatter.read_bytes() == b"someone else's"
    assert (tmp_path / "r.md").read_bytes() == b"body"
    assert stat.S_IMODE((tmp_path / "r.md").stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == [squatter.name, "r.md"]


def test_a_failed_write_removes_its_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_space(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", no_space)
    with pytest.raises(Refused, match=r"r\.md: cannot write \(No space left on device"):
        atomic.create(tmp_path / "r.md", b"body", root=tmp_path)
    assert list(tmp_path.iterdir()) == []


def _try_lock(path: Path) -> None:
    other = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(other)


def test_locked_holds_the_lock_for_the_block_and_releases_it_on_error(tmp_path: Path) -> None:
    target = tmp_path / "state" / "ledger.jsonl"
    with pytest.raises(RuntimeError, match="inside"), atomic.locked(target, root=tmp_path) as fd:
        assert os.fstat(fd).st_ino == target.stat().st_ino
        with pytest.raises(BlockingIOError):
            _try_lock(target)
        raise RuntimeError("inside")
    with pytest.raises(OSError):
        os.fstat(fd)  # the descriptor is closed
    _try_lock(target)  # and the lock free again


def _append_many(path: str, worker: int) -> None:
    for index in range(250):
        line = json.dumps({"worker": worker, "index": index, "pad": "x" * 300}).encode() + b"\n"
        atomic.append_line(Path(path), line, root=Path(path).parent)


def test_concurrent_appends_never_tear_or_lose_a_line(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    procs = [multiprocessing.Process(target=_append_many, args=(str(ledger), w)) for w in range(4)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
    lines = ledger.read_bytes().splitlines()
    assert len(lines) == 1000
    seen = {(r["worker"], r["index"]) for r in map(json.loads, lines)}
    assert len(seen) == 1000
    assert stat.S_IMODE(os.stat(ledger).st_mode) == 0o600


def test_append_line_takes_exactly_one_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        atomic.append_line(tmp_path / "l", b"no newline", root=tmp_path)
    with pytest.raises(ValueError):
        atomic.append_line(tmp_path / "l", b"two\nlines\n", root=tmp_path)
