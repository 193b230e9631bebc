"""The remote at fault: unreachable (a port nobody listens on, an address with no route), a
remote that accepts and never answers (bounded by `remote.timeout`), a daemon killed in the
middle of a sync (before the refs move, and after they moved but before it said so). Each is
one line naming the remote and 12 with nothing written; a retry publishes everything once.
Without `remote.required`, `start` takes its claims unshared and the next sync publishes them,
or names both holders (10) when another clone took the same claim meanwhile."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Repo
from remoteworld import Remote
from remoteworld import clone
from remoteworld import clone_id
from remoteworld import free_port
from remoteworld import ledger
from remoteworld import policy_block
from remoteworld import seed


@pytest.fixture
def silent() -> Iterator[str]:
    """A TCP listener on 127.0.0.1 that accepts every connection and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"git://127.0.0.1:{server.getsockname()[1]}/remote.git"
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    server.close()


def _state(repo: Repo) -> dict[str, bytes]:
    """Every file of the checkout but the git directory and the layer's temporaries."""
    return {str(p.relative_to(repo.root)): p.read_bytes() for p in sorted(repo.root.rglob("*"))
            if p.is_file() and ".git/" not in f"{p.relative_to(repo.root)}/"[:5]
            and "/tmp/" not in str(p)}  # fmt: skip


def _offline(tmp_path: Path, url: str, timeout: str = "2s", required: bool = True) -> Repo:
    remote = Remote("path", tmp_path / "remote")
    extra = "  required: true\n" if required else ""
    seed(tmp_path, remote.url(), block=policy_block(timeout, extra))
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    a.git("remote", "set-url", "origin", url)
    return a


COMMANDS = [("sync",), ("plan", "start", "I0001"), ("adr", "propose", "Use tabs"),
            ("start", "parse", "--scope", "lib")]  # fmt: skip


@pytest.mark.parametrize("where", ["refused", "no-route", "silent"])
def test_a_remote_that_cannot_be_reached_is_12_in_one_line_with_nothing_written(
    where: str, tmp_path: Path, silent: str
) -> None:
    url = {"refused": f"git://127.0.0.1:{free_port()}/remote.git",
           "no-route": "git://192.0.2.1/remote.git", "silent": silent}[where]  # fmt: skip
    a = _offline(tmp_path, url, timeout="1s")
    assert a.mj("claims").code == 0  # no connection: it reads what is here
    for args in COMMANDS:
        before = _state(a)
        began = time.monotonic()
        done = a.mj(*args)
        took = time.monotonic() - began
        assert done.code == 12 and done.err.count("\n") == 1, (args, done)
        assert "remote origin (git://" in done.err and "nothing was written" in done.err, done
        assert took < 1 + 8, (args, took)  # remote.timeout bounds it (1 s), with start-up
        after = _state(a)
        assert {k: v for k, v in after.items() if "/remote/" not in k} == {
            k: v for k, v in before.items() if "/remote/" not in k}, args  # fmt: skip
    if where == "silent":
        assert "no answer within 1 s" in a.mj("sync").err


def test_an_unshared_claim_is_published_at_the_next_sync_or_names_both_holders(
    tmp_path: Path,
) -> None:
    remote = Remote("path", tmp_path / "remote")
    seed(tmp_path, remote.url(), block=policy_block("2s"))
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    b = clone(remote.url(), tmp_path / "b", tmp_path / "home-b")
    a.git("remote", "set-url", "origin", f"git://127.0.0.1:{free_port()}/remote.git")
    started = a.mj("start", "parse", "--scope", "lib", "--issue", "I0001")
    assert started.code == 0, started
    assert "WARN claim" in started.out and "unshared" in started.out, started
    line = json.loads(next(x for x in ledger(a) if '"task.started"' in x))
    assert line["claim"]["shared"] is False
    assert "unshared" in a.mj("claims").out
    assert b.mj("plan", "start", "I0002").code == 0
    a.git("remote", "set-url", "origin", remote.url())
    synced = a.mj("sync")
    assert synced.code == 0, synced
    task = f"refs/majordomus/claims/task/{line['task_id']}"
    assert remote.claim(task)["who"]["clone"] == clone_id(a)  # type: ignore[index]
    assert remote.claim("refs/majordomus/claims/issue/I0001")["task"] == line["task_id"]
    # the other way: an unshared claim another clone took meanwhile
    done = a.mj(
        "finish", "--outcome", "partial", "--note", "-", stdin="# Next Action\nPick the rest up.\n"
    )
    assert done.code == 0, done
    a.git("remote", "set-url", "origin", f"git://127.0.0.1:{free_port()}/remote.git")
    assert a.mj("start", "lex", "--scope", "lib", "--issue", "I0003").code == 0
    assert b.mj("plan", "start", "I0003").code == 0
    a.git("remote", "set-url", "origin", remote.url())
    before = remote.refs()
    conflict = a.mj("sync")
    assert conflict.code == 10, conflict
    said = next(x for x in conflict.out.splitlines() if x.startswith("FAIL claim"))
    assert "refs/majordomus/claims/issue/I0003" in said
    assert clone_id(a) in said and clone_id(b) in said, said
    assert remote.refs() == before  # nothing published


KILL = "#!/bin/sh\n{guard}kill -9 $PPID $(cat {pidfile})\n"  # receive-pack and the daemon


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_daemon_killed_during_sync_loses_nothing_and_the_retry_publishes_once(
    when: str, tmp_path: Path
) -> None:
    remote = Remote("daemon", tmp_path / "remote")
    assert remote.daemon is not None
    seed(tmp_path, remote.url())
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    assert a.mj("start", "parse", "--scope", "lib").code == 0
    assert a.mj("sync").code == 0
    for body in ("one\n", "two\n"):
        assert a.mj("checkpoint", stdin=body).code == 0
    name = "pre-receive" if when == "before" else "reference-transaction"
    guard = "" if when == "before" else '[ "$1" = committed ] || exit 0\n'
    hook = remote.bare / "hooks" / name
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(KILL.format(guard=guard, pidfile=remote.daemon.base / "daemon.pid"))
    hook.chmod(0o755)
    ref = f"refs/majordomus/ledger/{clone_id(a)}"
    before = remote.refs()[ref]
    killed = a.mj("sync")
    assert killed.code == 12 and killed.err.count("\n") == 1, killed
    assert (remote.refs()[ref] == before) is (when == "before")
    hook.unlink()
    remote.daemon.start()  # the same port: the clone's URL holds
    retried = a.mj("sync")
    assert retried.code == 0, retried
    assert remote.published(clone_id(a)) == ledger(a)  # every line once, none twice
    remote.close()


@pytest.mark.parametrize("required", [False, True])
def test_finish_with_the_remote_out_of_reach_is_recorded_and_the_next_sync_releases(
    required: bool, tmp_path: Path
) -> None:
    remote = Remote("path", tmp_path / "remote")
    extra = "  required: true\n" if required else ""
    seed(tmp_path, remote.url(), block=policy_block("2s", extra))
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    assert a.mj("start", "parse", "--scope", "lib").code == 0
    task = json.loads(next(x for x in ledger(a) if '"task.started"' in x))["task_id"]
    a.git("remote", "set-url", "origin", f"git://127.0.0.1:{free_port()}/remote.git")
    done = a.mj("finish", "--outcome", "partial", "--note", "-",
                stdin="# Next Action\nPick the rest up.\n")  # fmt: skip
    assert done.code == (12 if required else 0), done
    said = done.err if required else done.out
    assert f"finish {task} is recorded here" in said and "majordomus sync" in said, done
    assert '"task.finished"' in ledger(a)[-1]
    ref = f"refs/majordomus/claims/task/{task}"
    assert remote.claim(ref)["state"] == "held"
    a.git("remote", "set-url", "origin", remote.url())
    assert a.mj("sync").code == 0
    assert remote.claim(ref)["state"] == "released"
    assert remote.published(clone_id(a)) == ledger(a)


def _no_network() -> list[str] | None:
    """`unshare` into a network namespace of its own (no interface up, not even loopback), as
    this user; None where the kernel or the system does not allow it."""
    import shutil
    import subprocess

    found = shutil.which("unshare")
    for argv in ([found, "-n"], [found, "-rn"]) if found else ():
        if subprocess.run([*argv, "true"], capture_output=True, check=False).returncode == 0:
            return argv
    return None


def test_with_no_network_at_all_the_remote_commands_are_12_and_the_hook_path_runs(
    tmp_path: Path,
) -> None:
    wrap = _no_network()
    if wrap is None:
        pytest.skip("no network namespace can be made here (unshare -n, unshare -rn)")
    import subprocess

    from conftest import exe

    remote = Remote("daemon", tmp_path / "remote")
    seed(tmp_path, remote.url())
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    assert a.mj("start", "parse", "--scope", "lib").code == 0 and a.mj("sync").code == 0

    def cut_off(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*wrap, exe("majordomus"), *args], cwd=a.root, env=a.env,
                              input=stdin, capture_output=True, text=True, check=False,
                              timeout=60)  # fmt: skip

    before, refs = _state(a), remote.refs()
    for args in (("sync",), ("plan", "start", "I0001"), ("adr", "propose", "Use tabs")):
        done = cut_off(*args)
        assert done.returncode == 12 and done.stderr.count("\n") == 1, (args, done)
        assert f"remote origin ({remote.url()}" in done.stderr, done.stderr
        assert "nothing was written" in done.stderr, done.stderr
    assert {k: v for k, v in _state(a).items() if "/remote/" not in k} == {
        k: v for k, v in before.items() if "/remote/" not in k}  # fmt: skip
    for args in (("check",), ("claims",), ("history", "--validate")):
        assert cut_off(*args).returncode == 0, args  # the hook path needs no network
    assert remote.refs() == refs
    assert a.mj("sync").code == 0  # the network back: nothing was lost
    assert remote.published(clone_id(a)) == ledger(a)
