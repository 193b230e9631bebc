"""One link, one file: a state file hard-linked to a file outside the repository is refused
(15) by every append and every rewrite, as a symbolic link is, and the outside file keeps its
bytes. A worker's script makes the second name; the tool's own writes never do.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Repo

STATE = ".ai/local/state"


@pytest.fixture
def repo(layer_repo: Repo) -> Repo:
    assert layer_repo.mj("start", "keep state one file", "--scope", "lib").code == 0
    assert layer_repo.mj("question", "add", "which port?").code == 0
    assert layer_repo.mj("decision", "add", "use the cache", "--why", "it is faster").code == 0
    return layer_repo


def hard_link_out(repo: Repo, name: str) -> Path:
    """As a worker would: move the state file out of the repository, link it back in."""
    inside = repo.root / STATE / name
    victim = repo.root.parent / f"victim-{name}"
    os.replace(inside, victim)
    os.link(victim, inside)
    assert inside.stat().st_nlink == 2
    return victim


def refused(result: object, victim: Path, before: bytes) -> None:
    assert getattr(result, "code", None) == 15, result
    assert "hard link" in getattr(result, "err", ""), result
    assert "Traceback" not in getattr(result, "err", ""), result
    assert victim.read_bytes() == before


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("ledger.jsonl", ("checkpoint",)),
        ("ledger.jsonl", ("check", "--checkpoint")),
        ("decisions.md", ("decision", "add", "drop the cache", "--why", "it is stale")),
        ("open-questions.md", ("question", "add", "which host?")),
        ("open-questions.md", ("question", "resolve", "1", "--answer", "port 80")),
        ("current.yaml", ("check", "--checkpoint")),
    ],
)
def test_a_write_through_a_hard_link_is_refused(repo: Repo, name: str, argv: tuple) -> None:
    victim = hard_link_out(repo, name)
    before = victim.read_bytes()
    refused(repo.mj(*argv), victim, before)
    doctor = repo.mj("doctor")
    assert doctor.code == 10 and f"FAIL layer       {STATE}/{name} — is a hard link" in doctor.out


def test_the_ledger_linked_out_refuses_every_writer_and_nothing_lands_outside(repo: Repo) -> None:
    victim = hard_link_out(repo, "ledger.jsonl")
    before = victim.read_bytes()
    body = "# Objective\nKeep one file.\n# Current State\nLinked.\n# Next Action\nRefuse it.\n"
    for argv, stdin in (
        (("question", "add", "is it linked?"), None),
        (("decision", "add", "refuse links", "--why", "one file each"), None),
        (("handover",), body),
        (("checkpoint",), "The ledger is linked out.\n"),
    ):
        result = repo.mj(*argv, stdin=stdin)
        refused(result, victim, before)


def test_a_single_link_still_writes(repo: Repo) -> None:
    """The tool's own files, each one name: the writes go on as before."""
    for name in ("ledger.jsonl", "decisions.md", "open-questions.md", "current.yaml"):
        assert (repo.root / STATE / name).stat().st_nlink == 1
    assert repo.mj("question", "add", "and the host?").code == 0
    assert repo.mj("question", "resolve", "1", "--answer", "port 80").code == 0
    assert repo.mj("checkpoint").code == 0
    assert repo.mj("decision", "add", "keep the cache", "--why", "it is warm").code == 0
