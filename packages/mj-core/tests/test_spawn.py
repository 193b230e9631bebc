from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from mj_core import spawn
from mj_core.git import questions as git

PY = sys.executable
ENV = dict(os.environ)


def test_exit_code_and_both_streams_are_captured() -> None:
    code, out, err = spawn.run_all(
        [(PY, "-c", "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)")], ENV
    )[0]
    assert (code, out, err) == (3, b"out\n", b"err\n")


def test_large_output_on_both_streams_does_not_deadlock() -> None:
    script = (
        "import sys\n"
        "for i in range(2000):\n"
        "    sys.stderr.write('e' * 500 + '\\n'); sys.stdout.write('o' * 500 + '\\n')\n"
    )
    code, out, err = spawn.run_all([(PY, "-c", script)], ENV)[0]
    assert code == 0 and len(out) == len(err) == 2000 * 501


def test_several_commands_run_together_and_keep_their_order() -> None:
    results = spawn.run_all([(PY, "-c", f"print({n})") for n in range(5)], ENV)
    assert [out for _, out, _ in results] == [f"{n}\n".encode() for n in range(5)]


def test_stdin_is_closed_and_the_environment_is_the_one_given() -> None:
    script = "import os, sys; print(repr(sys.stdin.read())); print(os.environ.get('MJ_PROBE'))"
    code, out, _ = spawn.run_all([(PY, "-c", script)], {**ENV, "MJ_PROBE": "seen"})[0]
    assert code == 0 and out == b"''\nseen\n"


def test_a_signal_is_a_negative_code() -> None:
    code, _, _ = spawn.run_all([(PY, "-c", "import os, signal; os.kill(os.getpid(), 9)")], ENV)[0]
    assert code == -9


def test_no_descriptor_leaks(tmp_path: Path) -> None:
    before = set(os.listdir("/proc/self/fd")) if Path("/proc/self/fd").is_dir() else set()
    spawn.run_all([(PY, "-c", "pass")] * 3, ENV)
    if before:
        assert set(os.listdir("/proc/self/fd")) == before


def test_git_runs_in_the_given_directory_and_a_missing_one_is_a_git_failure(
    tmp_path: Path,
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path / "r")], check=True)
    code, out, _ = git.run("rev-parse", "--show-toplevel", cwd=tmp_path / "r")
    assert code == 0 and Path(out.strip()) == (tmp_path / "r").resolve()
    code, _, err = git.run("status", cwd=tmp_path / "missing")
    assert code == 128 and "cannot change to" in err


def test_git_path_does_not_import_subprocess() -> None:
    script = (
        "import sys; from mj_core.git import questions as git; git.run('--version', cwd='.');"
        "assert 'subprocess' not in sys.modules, 'subprocess imported'"
    )
    done = subprocess.run([PY, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_started_children_run_while_the_caller_works() -> None:
    began = time.perf_counter()
    running = spawn.start_all([(PY, "-c", "import time; time.sleep(0.5); print('late')")], ENV)
    time.sleep(0.5)  # the caller's own work, meanwhile
    [(code, out, _)] = running.wait()
    assert (code, out) == (0, b"late\n")
    assert time.perf_counter() - began < 0.95  # overlapped: not 0.5 + 0.5 one after the other
    assert running.wait() == [(0, b"late\n", b"")]  # asked again: the same answer


def test_leaving_the_block_reaps_children_nobody_asked_about() -> None:
    with spawn.start_all([(PY, "-c", "print('unread')")], ENV) as running:
        pid = running._children[0][0]
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass  # already reaped by the block's exit: no zombie left behind
    else:
        raise AssertionError(f"child {pid} was not reaped")


def test_a_child_past_its_deadline_is_stopped_and_named_in_one_line() -> None:
    import pytest
    from mj_core.errors import ContractUnmet

    began = time.monotonic()
    running = spawn.start_all(
        [(PY, "-c", "print('quick')"), (PY, "-c", "import time; time.sleep(30)")], ENV, 0.5
    )
    with pytest.raises(ContractUnmet) as caught:
        running.wait()
    assert time.monotonic() - began < 10
    message = caught.value.message
    assert "time.sleep(30)" in message and "did not finish within 0.5 s" in message
    assert "\n" not in message and caught.value.code == 10
    running.wait()  # a second wait has nothing left to reap


def test_git_is_asked_without_fsmonitor_signatures_or_a_pager(tmp_path: Path) -> None:
    root = tmp_path / "r"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    hook = tmp_path / "monitor.sh"
    touched = tmp_path / "touched"
    hook.write_text(f"#!/bin/sh\ntouch {touched}\nexit 1\n")
    hook.chmod(0o755)
    subprocess.run(["git", "-C", str(root), "config", "core.fsmonitor", str(hook)], check=True)
    subprocess.run(["git", "-C", str(root), "status"], check=True, capture_output=True)
    assert touched.exists()  # git itself runs the configured monitor
    touched.unlink()
    assert (
        git.status_paths(root) == []
        and git.run("config", "--get", "core.fsmonitor", cwd=root)[0] == 0
    )
    assert not touched.exists()
    code, out, _ = git.run("config", "--get", "log.showSignature", cwd=root)
    assert (code, out) == (0, "false\n")
    (root / "a.txt").write_text("a\n")
    index = tmp_path / "private-index"  # what `finish` verifies a tree with (`verifying.tree`)
    assert git.run_with_index(index, "add", "--", "a.txt", cwd=root)[0] == 0
    assert git.run_with_index(index, "write-tree", cwd=root)[0] == 0
    assert not touched.exists()  # nor with a private index


def test_input_larger_than_a_pipe_is_fed_while_the_output_is_read() -> None:
    data = b"".join(b"%07d line of input\n" % i for i in range(200_000))  # ~4 MB each way
    code, out, err = spawn.run_input(["cat"], dict(os.environ), data)
    assert (code, out, err) == (0, data, b"")


def test_a_child_that_stops_reading_ends_with_its_own_verdict() -> None:
    code, out, _ = spawn.run_input(["head", "-c", "5"], dict(os.environ), b"x" * 1_000_000)
    assert (code, out) == (0, b"xxxxx")
