"""The world's faults (full disk, size limit, no permission) are one line and 15, never 13,
and leave nothing half-written: a short append is truncated away, a record whose follow-up
write fails is taken back."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import pytest
from mj_core.cli import guard
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import world_fault
from mj_core.write import atomic

REAL_WRITE = os.write


@pytest.fixture
def state(tmp_path: Path) -> Path:
    directory = tmp_path / "repo" / ".ai" / "local" / "state"
    directory.mkdir(parents=True)
    return directory


def _no_space(_fd: int, _data: bytes) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _half(fd: int, data: bytes) -> int:
    return REAL_WRITE(fd, bytes(data[: max(1, len(data) // 2)]))


@pytest.mark.parametrize("fault", [_no_space, _half], ids=["ENOSPC", "short write"])
@pytest.mark.parametrize("how", ["line", "block"])
def test_a_failed_append_is_refused_and_truncated_away(
    state: Path, monkeypatch: pytest.MonkeyPatch, fault: object, how: str
) -> None:
    ledger = state / "ledger.jsonl"
    ledger.write_bytes(b'{"ts":"a","event":"x"}\n')
    monkeypatch.setattr(os, "write", fault)
    with pytest.raises(Refused, match=r"ledger\.jsonl: cannot write .*nothing was changed"):
        if how == "line":
            atomic.append_line(ledger, b'{"ts":"b","event":"y"}\n')
        else:
            atomic.append_block(ledger, b"one\ntwo\n")
    assert ledger.read_bytes() == b'{"ts":"a","event":"x"}\n'


def test_a_full_disk_while_writing_the_temporary_leaves_nothing(
    state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (state / "current.yaml").write_bytes(b"old\n")
    monkeypatch.setattr(os, "write", _no_space)
    with pytest.raises(Refused, match="No space left on device"):
        atomic.create(state / "current.yaml", b"new\n", mode=0o600, replace=True)
    assert (state / "current.yaml").read_bytes() == b"old\n"
    assert os.listdir(state.parent / "tmp") == []


def _fails() -> None:
    raise Refused("ledger: the follow-up write failed")


def test_a_failed_follow_up_takes_an_appended_line_back(state: Path) -> None:
    questions = state / "open-questions.md"
    questions.write_bytes(b"# Open questions\n")
    with pytest.raises(Refused, match="follow-up"):
        atomic.append_line(questions, b"- [ ] t-1 - why?\n", then=_fails)
    assert questions.read_bytes() == b"# Open questions\n"


def test_a_failed_follow_up_removes_a_new_file_and_restores_a_replaced_one(state: Path) -> None:
    with pytest.raises(Refused, match="follow-up"):
        atomic.create(state / "current.yaml", b"new\n", mode=0o600, then=_fails)
    assert not (state / "current.yaml").exists()
    (state / "current.yaml").write_bytes(b"old\n")
    inode = (state / "current.yaml").stat().st_ino
    with pytest.raises(Refused, match="follow-up"):
        atomic.create(state / "current.yaml", b"new\n", mode=0o600, replace=True, then=_fails)
    assert (state / "current.yaml").read_bytes() == b"old\n"
    assert (state / "current.yaml").stat().st_ino == inode
    assert os.listdir(state.parent / "tmp") == []


def test_a_failed_follow_up_removes_a_published_record(state: Path) -> None:
    seen: list[Path] = []

    def fails(path: Path) -> None:
        seen.append(path)
        _fails()

    with pytest.raises(Refused, match="follow-up"):
        atomic.publish_unique(state / "checkpoints", lambda: "r.md", b"x", 0o600, then=fails)
    assert seen == [state / "checkpoints" / "r.md"]
    assert os.listdir(state / "checkpoints") == []


def test_a_follow_up_that_succeeds_keeps_everything(state: Path) -> None:
    done: list[str] = []
    atomic.create(state / "current.yaml", b"a\n", mode=0o600, then=lambda: done.append("c"))
    atomic.create(
        state / "current.yaml", b"b\n", mode=0o600, replace=True, then=lambda: done.append("r")
    )
    atomic.append_line(state / "ledger.jsonl", b"l\n", then=lambda: done.append("a"))
    assert done == ["c", "r", "a"]
    assert (state / "current.yaml").read_bytes() == b"b\n"
    assert (state / "ledger.jsonl").read_bytes() == b"l\n"
    assert os.listdir(state.parent / "tmp") == []


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (PermissionError(errno.EACCES, "Permission denied", "/x/ledger.jsonl"), 15),
        (OSError(errno.EROFS, "Read-only file system", "/x/ledger.jsonl"), 15),
        (OSError(errno.ENOSPC, "No space left on device", "/x/ledger.jsonl"), 15),
        (OSError(errno.EFBIG, "File too large", "/x/ledger.jsonl"), 15),
        (IsADirectoryError(errno.EISDIR, "Is a directory", "/x/current.yaml"), 15),
        (FileNotFoundError(errno.ENOENT, "No such file or directory", "/x/current.yaml"), 12),
        (OSError(errno.EBADF, "Bad file descriptor", "/x/y"), 13),  # a bug, not the world
        (OSError(errno.ENOSPC, "No space left on device"), 13),  # no file named: not guessed
    ],
)
def test_guard_maps_the_worlds_faults_naming_a_file_and_nothing_else(
    exc: OSError, code: int
) -> None:
    def body() -> int:
        raise exc

    err = io.StringIO()
    assert guard("mj-test", body, err) == code
    assert err.getvalue().count("\n") == 1
    assert ("internal error" in err.getvalue()) == (code == 13)


def test_world_fault_names_the_file_and_says_nothing_changed_for_a_write() -> None:
    fault = world_fault(OSError(errno.EROFS, "Read-only file system"), "README.md", writing=True)
    assert isinstance(fault, Refused)
    assert fault.message == "README.md: cannot write (Read-only file system); nothing was changed"
    absent = world_fault(FileNotFoundError(errno.ENOENT, "No such file or directory", "a.yaml"))
    assert isinstance(absent, MissingArtifact) and absent.message.startswith("a.yaml: ")
    assert world_fault(OSError(errno.EBADF, "Bad file descriptor", "x")) is None
