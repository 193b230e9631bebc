"""Leases: a claim whose lease has ended is refused to another clone until it asks to take it
over (`--take-over`, compare-and-swapped on the old claim); each side's ledger says so at its
next sync; a sync renews a lease half run."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Repo
from remoteworld import Remote
from remoteworld import clone
from remoteworld import clone_id
from remoteworld import free_port
from remoteworld import ledger
from remoteworld import seed

REF = "refs/majordomus/claims/issue/I0001"


def age(remote: Remote, ref: str, **changes: str) -> None:
    """Move the remote's claim on as time would have: the same document, its times changed (a
    commit on top of the claim's, made in the bare repository itself)."""
    doc = {**remote.claim(ref), **changes}
    env = remote.env
    import subprocess

    def git(*args: str, data: str | None = None) -> str:
        done = subprocess.run(["git", "--git-dir", str(remote.bare), *args], input=data, env=env,
                              capture_output=True, text=True, check=True)  # fmt: skip
        return done.stdout.strip()

    blob = git("hash-object", "-w", "--stdin", data=json.dumps(doc, separators=(",", ":")) + "\n")
    tree = git("mktree", data=f"100644 blob {blob}\tclaim.json\n")
    commit = git("commit-tree", "-p", ref, "-m", "time passed", tree)
    git("update-ref", ref, commit)


def test_a_lapsed_claim_is_taken_over_only_when_asked_and_both_ledgers_say_so(
    tmp_path: Path,
) -> None:
    remote = Remote("strict", tmp_path / "remote")
    seed(tmp_path, remote.url())
    a: Repo = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    b: Repo = clone(remote.url(), tmp_path / "b", tmp_path / "home-b")
    assert a.mj("plan", "start", "I0001").code == 0
    held = b.mj("plan", "start", "I0001")
    assert held.code == 15 and "lease until" in held.err and "--take-over" not in held.err, held
    early = b.mj("plan", "start", "I0001", "--take-over")
    assert early.code == 15, early  # a lease still running is not taken over, asked or not
    age(remote, REF, lease_until="2000-01-01T00:00:00Z")
    lapsed = b.mj("plan", "start", "I0001")
    assert lapsed.code == 15 and "lease ended at 2000-01-01T00:00:00Z" in lapsed.err, lapsed
    assert "--take-over" in lapsed.err
    before = remote.refs()[REF]
    taken = b.mj("plan", "start", "I0001", "--take-over")
    assert taken.code == 0, taken
    claim = remote.claim(REF)
    assert claim["who"]["clone"] == clone_id(b)  # type: ignore[index]
    assert claim["took_over"]["clone"] == clone_id(a)  # type: ignore[index]
    after = remote.refs()[REF]
    assert remote.git_bare("merge-base", "--is-ancestor", before, after) == ""  # forward
    line = json.loads(next(x for x in ledger(b) if '"plan.started"' in x))
    assert line["claim"]["took_over"][0]["clone"] == clone_id(a)
    assert b.mj("sync").code == 0
    synced = a.mj("sync")
    assert synced.code == 0, synced
    lost = [json.loads(x) for x in ledger(a) if '"claim.lost"' in x]
    assert len(lost) == 1 and lost[0]["ref"] == REF and clone_id(b) in lost[0]["holder"]
    assert remote.published(clone_id(a)) == ledger(a)
    mine = json.loads((a.root / ".ai/local/remote/claims.json").read_text())["claims"]
    assert all(c["ref"] != REF for c in mine)
    assert a.mj("sync").code == 0 and len([x for x in ledger(a) if '"claim.lost"' in x]) == 1


def test_a_sync_renews_a_lease_half_run_and_leaves_a_fresh_one(tmp_path: Path) -> None:
    remote = Remote("path", tmp_path / "remote")
    seed(tmp_path, remote.url())
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    assert a.mj("plan", "start", "I0001").code == 0
    fresh = remote.refs()[REF]
    assert a.mj("sync").code == 0 and remote.refs()[REF] == fresh  # not due: unmoved
    age(remote, REF, lease_until="2000-01-01T00:00:00Z")
    assert a.mj("sync").code == 0
    renewed = remote.claim(REF)
    assert renewed["who"]["clone"] == clone_id(a) and str(renewed["lease_until"]) > "2026"  # type: ignore[index]


def test_a_checkpoint_renews_a_lease_half_run_and_connects_for_nothing_else(
    tmp_path: Path,
) -> None:
    remote = Remote("path", tmp_path / "remote")
    seed(tmp_path, remote.url())
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    assert a.mj("start", "parse", "--scope", "lib", "--issue", "I0001").code == 0
    task = next(r for r in remote.refs() if "/claims/task/" in r)
    nowhere = f"git://127.0.0.1:{free_port()}/remote.git"
    a.git("remote", "set-url", "origin", nowhere)
    quiet = a.mj("checkpoint", stdin="one\n")  # no lease due: no connection, so no warning
    assert quiet.code == 0 and "WARN" not in quiet.out, quiet
    for ref in (REF, task):  # time passes: the leases here and there are past half
        age(remote, ref, lease_until="2000-01-01T00:00:00Z")
    mine = a.root / ".ai/local/remote/claims.json"
    kept = json.loads(mine.read_text())
    for entry in kept["claims"]:
        entry["claim"]["lease_until"] = "2000-01-01T00:00:00Z"
    mine.write_text(json.dumps(kept))
    offline = a.mj("checkpoint", stdin="two\n")
    assert offline.code == 0 and offline.out.startswith(".ai/"), offline  # the note is kept
    said = next(x for x in offline.out.splitlines() if x.startswith("WARN remote"))
    assert nowhere in said and "majordomus sync" in said, said
    assert sum('"task.checkpoint"' in x for x in ledger(a)) == 2
    a.git("remote", "set-url", "origin", remote.url())
    renewed = a.mj("checkpoint", stdin="three\n")
    assert renewed.code == 0 and "WARN" not in renewed.out, renewed
    for ref in (REF, task):
        assert str(remote.claim(ref)["lease_until"]) > "2026", ref
    assert remote.published(clone_id(a)) == ledger(a)
    again = remote.refs()
    assert a.mj("checkpoint", stdin="four\n").code == 0 and remote.refs() == again  # renewed
