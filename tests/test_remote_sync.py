"""`majordomus sync` and `majordomus claims`, and the claims `plan start` and `start` take, against
three real remotes started here: a bare repository by path, `git daemon` on 127.0.0.1 (the git
protocol) and a bare repository refusing non-fast-forward updates and deletions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Repo
from remoteworld import KINDS
from remoteworld import Remote
from remoteworld import clone
from remoteworld import clone_id
from remoteworld import ledger
from remoteworld import seed


@pytest.fixture(params=KINDS)
def remote(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Remote]:
    made = Remote(request.param, tmp_path / "remote")
    yield made
    made.close()


@pytest.fixture
def pair(remote: Remote, tmp_path: Path) -> tuple[Repo, Repo]:
    seed(tmp_path, remote.url())
    return (clone(remote.url(), tmp_path / "a", tmp_path / "home-a"),
            clone(remote.url(), tmp_path / "b", tmp_path / "home-b"))  # fmt: skip


def test_sync_publishes_the_ledger_and_moves_only_forward(remote: Remote, pair: tuple[Repo, Repo]) -> None:
    a, _ = pair
    assert a.mj("start", "parse", "--scope", "lib").code == 0
    first = a.mj("sync")
    assert first.code == 0, first
    ident = clone_id(a)
    ref = f"refs/majordomus/ledger/{ident}"
    assert remote.published(ident) == ledger(a)
    assert a.mj("checkpoint", stdin="halfway\n").code == 0
    before = remote.refs()[ref]
    second = a.mj("sync")
    assert second.code == 0, second
    after = remote.refs()[ref]
    assert remote.git_bare("merge-base", "--is-ancestor", before, after) == ""
    assert remote.published(ident) == ledger(a)
    tip = json.loads(remote.git_bare("show", f"{ref}:tip.json"))
    assert tip["count"] == len(ledger(a)) and tip["first"] == len(ledger(a))
    records = remote.git_bare("ls-tree", "-r", "--name-only", ref).split()
    assert any(r.startswith("records/.ai/local/state/checkpoints/") for r in records), records
    again = a.mj("sync")
    assert again.code == 0 and remote.refs()[ref] == after, again  # nothing new: unmoved


def test_plan_start_claims_the_issue_and_the_other_clone_is_refused(remote: Remote, pair: tuple[Repo, Repo]) -> None:
    a, b = pair
    won = a.mj("plan", "start", "I0001")
    assert won.code == 0, won
    lost = b.mj("plan", "start", "I0001")
    assert lost.code == 15 and lost.err.count("\n") == 1, lost
    assert f"held by clone {clone_id(a)} (branch main, since " in lost.err
    assert b"started_at" not in (b.root / ".ai/repo/project/issues/I0001.yaml").read_bytes()
    claim = remote.claim("refs/majordomus/claims/issue/I0001")
    assert claim["who"]["clone"] == clone_id(a) and claim["state"] == "held"  # type: ignore[index]
    started = [json.loads(x) for x in ledger(a) if '"plan.started"' in x]
    assert started[0]["claim"] == {"refs": ["refs/majordomus/claims/issue/I0001"], "shared": True}
    assert b.mj("sync").code == 0
    listed = b.mj("claims")
    assert listed.code == 0 and "I0001" in listed.out and clone_id(a) in listed.out, listed
    rows = [json.loads(x) for x in b.mj("claims", "--json").out.splitlines()]
    row = next(r for r in rows if r.get("view") == "claim")
    assert row["id"] == "I0001" and row["state"] == "held" and row["mine"] is False


def test_a_task_claim_meets_the_other_clones_scope_in_check_without_a_connection(
    remote: Remote, pair: tuple[Repo, Repo]
) -> None:
    a, b = pair
    assert a.mj("start", "parse", "--scope", "lib/parser").code == 0
    assert b.mj("start", "lex", "--scope", "lib").code == 0
    assert b.mj("sync").code == 0
    remote.close()  # the hook path never asks the remote: it reads the last sync
    for args in (("check",), ("watch",), ("check", "--overlap")):
        seen = b.mj(*args)
        line = next((x for x in seen.out.splitlines() if "another machine" in x), "")
        assert clone_id(a) in line and "as of the sync" in line and " ago" in line, (args, seen)


def test_finish_releases_the_task_claim_and_publishes(remote: Remote, pair: tuple[Repo, Repo]) -> None:
    a, _ = pair
    assert a.mj("start", "parse", "--scope", "lib").code == 0
    task = json.loads(next(x for x in ledger(a) if '"task.started"' in x))["task_id"]
    ref = f"refs/majordomus/claims/task/{task}"
    assert remote.claim(ref)["state"] == "held"
    done = a.mj("finish", "--outcome", "partial", "--note", "-", stdin="# Next Action\nmore\n")
    assert done.code == 0, done
    assert remote.claim(ref)["state"] == "released"
    assert remote.published(clone_id(a)) == ledger(a)
    assert '"task.finished"' in ledger(a)[-1]

