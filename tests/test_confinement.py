"""No write through a symbolic link: each state path a clone (or a worker) could turn into a
link out of the repository is refused (15) at write time, nothing lands outside, and doctor
fails it (10) beforehand. A projection target inside the git directory is refused the same way.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import Repo
from conftest import failures
from conftest import make_env
from conftest import wire

STATE = ".ai/local/state"
BODY = (
    "# Objective\nKeep state private.\n\n# Current State\nModes are set.\n\n"
    "# Next Action\nCheck them again.\n"
)


@pytest.fixture
def adopted(layer_repo: Repo) -> Repo:
    """Layer, hooks, projections committed; doctor passes."""
    wire(layer_repo)
    layer_repo.write("README.md", "# scratch\n")
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("provider files")
    assert layer_repo.mj("doctor").code == 0, layer_repo.mj("doctor")
    return layer_repo


def outside(repo: Repo) -> Path:
    path = repo.root.parent / "outside"
    path.mkdir(exist_ok=True)
    return path


def listing(path: Path) -> list[str]:
    return sorted(p.relative_to(path).as_posix() for p in path.rglob("*"))


def link(repo: Repo, relative: str, *, as_directory: bool) -> Path:
    """Replace `relative` with a link to a path in the outside directory (which stays empty:
    a directory link points at the empty directory, a file link dangles)."""
    target = outside(repo) if as_directory else outside(repo) / Path(relative).name
    path = repo.root / relative
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    return path


def start(repo: Repo) -> None:
    result = repo.mj("start", "confined", "--scope", "lib")
    assert result.code == 0, result


# (linked path, is a directory, needs an active task, the command that writes through it)
ESCAPES = {
    "state/": (STATE, True, False, ("start", "t", "--scope", "lib"), None),
    "current.yaml": (f"{STATE}/current.yaml", False, False, ("start", "t", "--scope", "lib"), None),
    "ledger.jsonl": (f"{STATE}/ledger.jsonl", False, False, ("start", "t", "--scope", "lib"), None),
    "open-questions.md": (
        f"{STATE}/open-questions.md",
        False,
        True,
        ("question", "add", "q?"),
        None,
    ),
    "decisions.md": (
        f"{STATE}/decisions.md",
        False,
        False,
        ("decision", "add", "d", "--why", "w"),
        None,
    ),
    "checkpoints/": (f"{STATE}/checkpoints", True, True, ("checkpoint",), "progress\n"),
    "handovers/": (f"{STATE}/handovers", True, True, ("handover",), BODY),
}


@pytest.mark.parametrize("name", list(ESCAPES))
def test_a_linked_state_path_is_refused_nothing_lands_outside_and_doctor_fails(
    adopted: Repo, name: str
) -> None:
    relative, directory, needs_task, argv, stdin = ESCAPES[name]
    if needs_task:
        start(adopted)
    ledger = adopted.root / STATE / "ledger.jsonl"
    # The task is the ledger's: start writes its line first and the copy (current.yaml) after,
    # so only the other writers are held to "no ledger line for a refused write".
    unheld = (STATE, f"{STATE}/ledger.jsonl", f"{STATE}/current.yaml")
    before = ledger.read_bytes() if relative not in unheld else None
    link(adopted, relative, as_directory=directory)
    result = adopted.mj(*argv, stdin=stdin)
    assert result.code == 15, result
    assert result.err.count("\n") == 1 and "symbolic link" in result.err, result
    assert listing(outside(adopted)) == []
    if before is not None:  # all or nothing: no ledger line for the refused write
        assert ledger.read_bytes() == before
    doctor = adopted.mj("doctor")
    assert doctor.code == 10, doctor
    assert ("layer", relative) in {(c, s) for c, s, _, _ in failures(doctor.out)}, doctor.out


def test_a_refused_ledger_leaves_no_task_record_behind(adopted: Repo) -> None:
    link(adopted, f"{STATE}/ledger.jsonl", as_directory=False)
    assert adopted.mj("start", "t", "--scope", "lib").code == 15
    assert not (adopted.root / STATE / "current.yaml").exists()  # the record was taken back


def test_a_committed_local_link_in_a_fresh_clone(adopted: Repo, tmp_path: Path) -> None:
    local = adopted.root / ".ai/local"
    shutil.rmtree(local)
    local.symlink_to(outside(adopted))
    adopted.git("add", "-f", ".ai/local")
    adopted.commit("a hostile link")
    clone = Repo(tmp_path / "clone", make_env(tmp_path / "home"))
    adopted.git("clone", "-q", str(adopted.root), str(clone.root))
    assert (clone.root / ".ai/local").is_symlink()
    result = clone.mj("start", "from a clone", "--scope", "lib")
    assert result.code == 15, result
    assert result.err.count("\n") == 1 and ".ai/local is a symbolic link" in result.err
    assert listing(outside(adopted)) == []
    wire(clone)
    doctor = clone.mj("doctor")
    assert doctor.code == 10, doctor
    found = {(s, m.split(" — ")[0]) for _, s, m, _ in failures(doctor.out)}
    assert (".ai/local", "is a symbolic link") in found, doctor.out
    assert any(s == ".ai/local/" and "tracked" in m for s, m in found), doctor.out
    assert listing(outside(adopted)) == []


def test_a_projection_target_inside_the_git_directory_is_refused(adopted: Repo) -> None:
    policy = adopted.root / ".ai/repo/policy.yaml"
    text = policy.read_text()
    policy.write_text(
        text + "  - provider: generic\n    target: .git/hooks/post-checkout\n    mode: file\n"
        "    always_loaded: false\n"
    )
    hook = adopted.root / ".git/hooks/post-checkout"
    result = adopted.mj("update")
    assert result.code == 15, result
    assert result.err.count("\n") == 1 and "git directory" in result.err
    assert not hook.exists()
    doctor = adopted.mj("doctor")
    assert doctor.code == 10, doctor
    [(message, reproduce)] = [
        (m, r) for _, s, m, r in failures(doctor.out) if s == ".git/hooks/post-checkout"
    ]
    assert "git directory" in message
    assert f"{adopted.root}/.git/hooks/post-checkout" in adopted.shell(reproduce).out


def test_a_projection_parent_linked_out_of_the_repository_is_refused(adopted: Repo) -> None:
    docs = adopted.root / "docs"
    shutil.rmtree(docs)
    docs.symlink_to(outside(adopted))
    result = adopted.mj("update")
    assert result.code == 15 and "outside the repository" in result.err, result
    assert listing(outside(adopted)) == []
    doctor = adopted.mj("doctor")
    assert doctor.code == 10
    assert "docs/AI_INSTRUCTIONS.md" in {s for _, s, _, _ in failures(doctor.out)}


def test_a_crash_leftover_is_ignored_by_readers_and_swept_by_the_next_writer(
    adopted: Repo,
) -> None:
    start(adopted)
    tmp = adopted.root / ".ai/local/tmp"
    stale = tmp / ".mj-tmp-00112233445566ff"
    stale.write_bytes(b"half a record")
    legacy = adopted.root / STATE / "checkpoints" / ".mj-tmp-ffeeddccbbaa9988"
    legacy.write_bytes(b"an older version's leftover beside its target")
    os.utime(stale, (0, 0))
    for argv in (("check",), ("context",), ("history",), ("doctor",), ("checkpoint", "--list")):
        result = adopted.mj(*argv)
        assert result.code == 0, (argv, result)
        assert ".mj-tmp-" not in result.out, argv
    assert adopted.mj("checkpoint", stdin="after the crash\n").code == 0
    assert not stale.exists()
    assert [p.name for p in (adopted.root / STATE / "checkpoints").glob("*.md")]
