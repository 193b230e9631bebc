"""A crash injected before each step of `session close` and of `recover`'s close of a stranded
episode leaves a state that the next `recover all` repairs, and a second run finds nothing."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from mj_state.cli import main
from mj_state.recover import write as recover
from mj_state.session import close as sessionclose

ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MJ_"))},
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}
STEPS = ("record", "context", "open", "pointer")
STATE = Path(".ai/local/state")


class Crash(BaseException):
    """The process dying between two steps."""


def run(root: Path, *argv: str) -> None:
    tool = Path(sys.executable).parent / argv[0]
    proc = subprocess.run(
        [str(tool), *argv[1:]], cwd=root, env=ENV, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, env=ENV, check=True)
    (root / "a.txt").write_text("a\n")
    run(root, "majordomus", "init")
    subprocess.run(["git", "add", "-A"], cwd=root, env=ENV, check=True)
    subprocess.run(
        ["git", "commit", "-q", "--no-gpg-sign", "-m", "one"], cwd=root, env=ENV, check=True
    )
    run(root, "majordomus", "session", "start")
    monkeypatch.chdir(root)
    for name in ("MAJORDOMUS_PROVIDER_SESSION", "CLAUDE_CODE_SESSION_ID"):
        monkeypatch.delenv(name, raising=False)
    return root


def crash_at(wanted: str) -> Callable[[str], None]:
    def before(name: str) -> None:
        if name == wanted:
            raise Crash(name)

    return before


def call(*argv: str) -> int:
    out = io.BytesIO()
    if argv[0] == "recover":  # its three stages, in this process, as the command pipes them
        return recovered(list(argv[1:]), out)
    if argv[0] == "session-close":
        return staged("session-close", list(argv[1:]), out)
    return main(list(argv), stdin=io.BytesIO(b""), stdout=out, stderr=io.StringIO())


def recovered(argv: list[str], out: io.BytesIO) -> int:
    return staged("recover", argv, out)


def staged(name: str, argv: list[str], out: io.BytesIO) -> int:
    """`<name> <argv>`'s facts | judge | writer in this process; the last stage's exit code
    (the first stage that fails ends the pipe), its stream on `out`."""
    stream = b""
    for stage in (f"{name}-facts", f"{name}-judge", f"{name}-write"):
        here = io.BytesIO()
        given = argv if stage == f"{name}-facts" else []
        code = main([stage, *given], stdin=io.BytesIO(stream), stdout=here, stderr=io.StringIO())
        stream = here.getvalue()
        if code:
            return code
    out.write(stream)
    return 0


def consistent(root: Path) -> bool:
    """Either the episode is still open and unrecorded (pointer on it), or it is recorded,
    its open file is gone and no pointer dangles."""
    open_file = root / STATE / "sessions-open/hand.yaml"
    pointer = root / STATE / "session-current.yaml"
    records = list((root / ".ai/repo/sessions").glob("*.md"))
    if open_file.exists():
        return not records and os.path.exists(pointer)
    return len(records) == 1 and not os.path.lexists(pointer)


def recover_until_quiet(root: Path) -> None:
    assert call("recover", "all") == 0
    assert consistent(root)
    out = io.BytesIO()
    assert recovered(["all"], out) == 0
    assert b'"done":true' not in out.getvalue()  # the second run has nothing left to do


@pytest.mark.parametrize("step", STEPS)
def test_a_crash_in_session_close_is_repaired_by_recover(
    repo: Path, step: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sessionclose, "_before_step", crash_at(step))
    with pytest.raises(Crash):
        call("session-close")
    monkeypatch.setattr(sessionclose, "_before_step", None)
    recorded = list((repo / ".ai/repo/sessions").glob("*.md"))
    assert len(recorded) == (0 if step == "record" else 1)
    recover_until_quiet(repo)


@pytest.mark.parametrize("step", STEPS)
def test_a_crash_in_recover_is_repaired_by_the_next_recover(
    repo: Path, step: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a later episode the pointer names: this process's, so recover closes the other one only
    run(repo, "majordomus", "session", "start", "--provider", "claude-code",
        "--provider-session", "later")  # fmt: skip
    time.sleep(1.1)  # so that `--older-than 0m` finds the episode stranded
    monkeypatch.setattr(recover, "_before_step", crash_at(step))
    with pytest.raises(Crash):
        call("recover", "episodes", "--older-than", "0m")
    monkeypatch.setattr(recover, "_before_step", None)
    assert call("recover", "all", "--older-than", "0m") == 0
    open_file = repo / STATE / "sessions-open/hand.yaml"
    records = list((repo / ".ai/repo/sessions").glob("*.md"))
    assert not open_file.exists() and len(records) == 1
    assert "outcome: interrupted" in records[0].read_text()
    pointer = repo / STATE / "session-current.yaml"
    assert os.readlink(pointer) == "sessions-open/later.yaml"  # left, as this process's
    assert (repo / STATE / "sessions-open/later.yaml").exists()
    out = io.BytesIO()
    assert recovered(["all", "--older-than", "0m"], out) == 0
    assert b'"done":true' not in out.getvalue()
