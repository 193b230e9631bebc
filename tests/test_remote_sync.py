"""`majordomus sync` and `majordomus claims`, and the claims `plan start` and `start` take, against
three real remotes started here: a bare repository by path, `git daemon` on 127.0.0.1 (the git
protocol) and a bare repository refusing non-fast-forward updates and deletions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import HOOK_LINE
from conftest import Repo
from remoteworld import KINDS
from remoteworld import Remote
from remoteworld import clone
from remoteworld import clone_id
from remoteworld import ledger
from remoteworld import seed

OTHER_CLONE = "c-0123456789abcdef"


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


def test_sync_publishes_the_ledger_and_moves_only_forward(
    remote: Remote, pair: tuple[Repo, Repo]
) -> None:
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


def test_plan_start_claims_the_issue_and_the_other_clone_is_refused(
    remote: Remote, pair: tuple[Repo, Repo]
) -> None:
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
    assert listed.code == 0, listed
    line = next(x for x in listed.out.splitlines() if "I0001" in x)
    assert clone_id(a) in line and " ago, lease until " in line, line  # its age and its lease
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


def test_finish_releases_the_task_claim_and_publishes(
    remote: Remote, pair: tuple[Repo, Repo]
) -> None:
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


REWRITE = """
import hashlib, json, sys
from pathlib import Path
ledger, number = Path(sys.argv[1]), int(sys.argv[2])
out = []
for index, raw in enumerate(ledger.read_bytes().splitlines(), 1):
    value = json.loads(raw)
    if index == number:
        value["by"] = "majordomus/forged"
    if index > 1:
        value["prev"] = hashlib.blake2b(out[-1], digest_size=32).hexdigest()
    out.append(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())
data = b"".join(line + b"\\n" for line in out)
ledger.write_bytes(data)
last = hashlib.blake2b(out[-1], digest_size=32).hexdigest()
tip = {"size": len(data), "last": last}
(ledger.parent / "ledger.tip").write_text(json.dumps(tip, separators=(",", ":")) + "\\n")
"""


def rewrite(repo: Repo, number: int) -> None:
    """What a hostile worker's script does: edit a line, recompute every `prev` and the tip."""
    import sys

    script = repo.root.parent / "rewrite.py"
    script.write_text(REWRITE)
    repo.shell(f"{sys.executable} {script} .ai/local/state/ledger.jsonl {number}")
    assert repo.mj("history", "--validate", "--json").out.count('"FAIL"') <= 1


def test_a_rewritten_ledger_is_refused_by_the_next_sync_and_the_remote_does_not_move(
    remote: Remote, pair: tuple[Repo, Repo]
) -> None:
    a, _ = pair
    assert a.mj("start", "parse", "--scope", "lib").code == 0
    assert a.mj("checkpoint", stdin="one\n").code == 0
    assert a.mj("sync").code == 0
    ref = f"refs/majordomus/ledger/{clone_id(a)}"
    published = remote.refs()[ref]
    assert a.mj("checkpoint", stdin="two\n").code == 0  # a line not yet published
    rewrite(a, 2)
    assert "FAIL ledger" not in a.mj("history", "--validate").out  # the local chain holds
    for args in (("history", "--validate"), ("doctor",)):
        seen = a.mj(*args)
        witnessed = "FAIL witness     .ai/local/state/ledger.jsonl:2 "
        assert seen.code == 10 and witnessed in seen.out, seen
    assert "WARN remote      enforcement — the policy names remote origin but no hook" in seen.out
    refused = a.mj("sync")
    assert refused.code == 10, refused
    assert "FAIL witness     .ai/local/state/ledger.jsonl:2 — " in refused.out, refused
    assert "nothing was published" in refused.out
    assert remote.refs()[ref] == published
    if remote.kind == "strict":  # and the witness itself cannot be moved back or removed
        forced = a.shell(f"git push -f {remote.url()} HEAD:{ref}")
        deleted = a.shell(f"git push {remote.url()} :{ref}")
        assert forced.code != 0 and deleted.code != 0, (forced, deleted)
        assert remote.refs()[ref] == published


def test_a_rewritten_ledger_under_a_new_clone_id_is_refused_as_well(tmp_path: Path) -> None:
    """The hostile worker's next step: the chain rewritten, then `.ai/local/remote/` removed, so
    this checkout is a clone the remote has never seen. Its ledger still begins with the lines
    the old clone id published: the sync names the old ref and the first line that differs."""
    import shutil

    remote = Remote("path", tmp_path / "remote")
    seed(tmp_path, remote.url())
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    b = clone(remote.url(), tmp_path / "b", tmp_path / "home-b")
    assert a.mj("start", "parse", "--scope", "lib").code == 0 and b.mj("sync").code == 0
    assert a.mj("checkpoint", stdin="one\n").code == 0 and a.mj("sync").code == 0
    old = f"refs/majordomus/ledger/{clone_id(a)}"
    before = remote.refs()
    rewrite(a, 2)
    shutil.rmtree(a.root / ".ai/local/remote")
    refused = a.mj("sync")
    assert refused.code == 10, refused
    said = next(x for x in refused.out.splitlines() if x.startswith("FAIL witness"))
    assert ".ai/local/state/ledger.jsonl:2 " in said and old in said, said
    assert remote.refs() == before  # no new ledger ref, nothing moved
    seen = a.mj("history", "--validate")
    assert seen.code == 10 and "FAIL witness     .ai/local/state/ledger.jsonl:2 " in seen.out, seen


def test_a_ref_that_is_not_ours_or_not_well_formed_is_a_finding(tmp_path: Path) -> None:
    remote = Remote("path", tmp_path / "remote")
    seed(tmp_path, remote.url())
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    other = OTHER_CLONE

    def git_in(*args: str, data: str) -> str:
        import subprocess

        done = subprocess.run(["git", *args], cwd=a.root, env=a.env, input=data,
                              capture_output=True, text=True, check=True)  # fmt: skip
        return done.stdout.strip()

    def claim(ident: str, text: str) -> None:
        blob = git_in("hash-object", "-w", "--stdin", data=text)
        tree = git_in("mktree", data=f"100644 blob {blob}\tclaim.json\n")
        commit = a.git("commit-tree", "-m", "forged", tree).strip()
        a.git("push", "-q", remote.url(), f"{commit}:refs/majordomus/claims/issue/{ident}")

    good = {"format": 1, "what": {"type": "issue", "id": "I0003"},
            "who": {"clone": other, "worktree": "/w", "branch": "main", "head": ""},
            "task": None, "scope": ["../../etc"], "state": "held",
            "since": "2026-01-01T00:00:00Z", "lease_until": "2999-01-01T00:00:00Z"}  # fmt: skip
    claim("I0001", "not json")
    claim("I0002", "x" * 70000)
    claim("I0003", json.dumps(good))
    a.git("push", "-q", remote.url(), "HEAD:refs/majordomus/elsewhere/x")
    a.git("push", "-q", remote.url(), "HEAD^{tree}:refs/majordomus/claims/task/t-1")
    synced = a.mj("sync")
    assert synced.code == 0, synced
    warned = {line.split()[2] for line in synced.out.splitlines() if line.startswith("WARN remote")}
    assert warned == {f"refs/majordomus/claims/issue/I000{n}" for n in (1, 2, 3)} | {
        "refs/majordomus/elsewhere/x", "refs/majordomus/claims/task/t-1"}, synced.out  # fmt: skip
    assert "over 16384" in synced.out and "outside the repository" in synced.out
    own = f"refs/majordomus/ledger/{clone_id(a)}"
    a.git("push", "-q", remote.url(), f"HEAD:{own}")  # not a published ledger: never built on
    spoilt = a.mj("sync")
    assert spoilt.code == 10 and f"FAIL witness     {own}" in spoilt.out, spoilt
    assert remote.refs()[own] == a.git("rev-parse", "HEAD").strip()
    refused = a.mj("plan", "start", "I0001")
    assert refused.code == 15 and "--take-over" in refused.err, refused
    taken = a.mj("plan", "start", "I0001", "--take-over")
    assert taken.code == 0, taken
    assert remote.claim("refs/majordomus/claims/issue/I0001")["who"]["clone"] == clone_id(a)  # type: ignore[index]
    assert a.mj("claims").code == 0


def test_without_a_remote_block_nothing_opens_a_connection(
    layer_repo: Repo, tmp_path: Path
) -> None:
    from remoteworld import free_port

    layer_repo.git("remote", "add", "origin", f"git://127.0.0.1:{free_port()}/none.git")
    assert layer_repo.mj("start", "parse", "--scope", "lib").code == 0
    assert layer_repo.mj("adr", "propose", "Use tabs").code == 0
    done = layer_repo.mj(
        "finish", "--outcome", "partial", "--note", "-", stdin="# Next Action\nPick the rest up.\n"
    )
    assert done.code == 0, done
    remote = layer_repo.root / ".ai/local/remote"  # only the clone id the state carries
    assert sorted(p.name for p in remote.iterdir()) == ["clone-id"]
    assert '"claim"' not in (layer_repo.root / ".ai/local/state/ledger.jsonl").read_text()
    for command in ("sync", "claims"):
        said = layer_repo.mj(command)
        assert said.code == 12 and said.err.count("\n") == 1 and "names no remote" in said.err


@pytest.mark.parametrize(
    ("block", "code", "said"),
    [
        ("  name: origin\n  leese: 2h\n", 10, "unknown key 'remote.leese'"),
        ("  name: origin\n  lease: forever\n", 10, "remote.lease: 'forever' does not match"),
        ("  name: upstream\n", 12, "remote upstream: not a remote of this repository"),
    ],
)
def test_a_remote_block_out_of_shape_is_named_by_file_line_and_key(
    layer_repo: Repo, block: str, code: int, said: str
) -> None:
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text() + "\nremote:\n" + block)
    done = layer_repo.mj("sync")
    assert done.code == code and done.err.count("\n") == 1 and said in done.err, done
    if code == 10:
        assert done.err.startswith("majordomus: .ai/repo/policy.yaml:"), done.err
    assert not (layer_repo.root / ".ai/local/remote").exists()


def test_the_pre_push_hook_publishes_the_ledger_before_the_branch_goes(tmp_path: Path) -> None:
    remote = Remote("strict", tmp_path / "remote")
    entry = ("  - name: sync-on-push\n    path: majordomus\n    args:\n      - sync\n"
             "    wired_by: git-hook:pre-push\n")  # fmt: skip
    seeded = seed(tmp_path, remote.url())
    policy = seeded.root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text().replace("\nprojections:", f"{entry}\nprojections:", 1))
    seeded.commit("publish the ledger before each push")
    seeded.git("push", "-q", "origin", "HEAD:main")
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    printed = a.mj("init", "--extend").out
    hook = a.root / ".git/hooks/pre-push"  # both pre-push lines, in the order init prints them
    lines = [line for hooked, line in HOOK_LINE.findall(printed) if hooked.endswith("pre-push")]
    assert [x.endswith("majordomus sync || exit $?") for x in lines] == [False, True], printed
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\n" + "\n".join(lines) + "\n")
    hook.chmod(0o755)
    doctor = a.mj("doctor", "--prove").out
    proven = "proven by running .git/hooks/pre-push"
    assert f"OK   wiring      sync-on-push — `majordomus sync` {proven}" in doctor, doctor
    assert f"OK   wiring      finish-on-push — `majordomus finish --check` {proven}" in doctor
    assert "WARN remote" not in doctor
    assert a.mj("start", "parse", "--scope", "lib").code == 0
    a.write("lib/a.py", "a = 1\n")
    a.commit("parse")
    pushed = a.shell("git push -q origin HEAD:main")
    assert pushed.code == 0, pushed
    assert remote.published(clone_id(a)) == ledger(a)
    rewrite(a, 1)
    a.write("lib/b.py", "b = 1\n")
    head = a.commit("more")
    blocked = a.shell("git push -q origin HEAD:main")
    assert blocked.code != 0 and "FAIL witness" in blocked.out + blocked.err, blocked
    assert remote.git_bare("rev-parse", "main").strip() != head


def test_the_shipped_hook_keeps_refs_majordomus_forward_where_gits_settings_do_not(
    tmp_path: Path,
) -> None:
    from remoteworld import SHIPPED_HOOK

    work = Repo(tmp_path / "w", Remote("path", tmp_path / "r").env)
    for settings_only in (True, False):
        remote = Remote("strict", tmp_path / f"r{int(settings_only)}")
        if settings_only:
            (remote.bare / "hooks" / "update").unlink()
        work.root.mkdir(exist_ok=True)
        work.git("init", "-q")
        first = work.git("commit-tree", "-m", "a", work.git("mktree", check=False).strip() or
                         "4b825dc642cb6eb9a060e54bf8d69288fbee4904").strip()  # fmt: skip
        second = work.git(
            "commit-tree", "-m", "b", "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
        ).strip()
        ref = f"refs/majordomus/ledger/{OTHER_CLONE}"
        work.git("push", "-q", str(remote.bare), f"{first}:{ref}")
        rewound = work.shell(f"git push -f {remote.bare} {second}:{ref}")
        deleted = work.shell(f"git push {remote.bare} :{ref}")
        branch = work.shell(f"git push -q {remote.bare} {first}:refs/heads/x && "
                            f"git push -f {remote.bare} {second}:refs/heads/x")  # fmt: skip
        assert branch.code != 0  # branches: git's settings hold
        assert (rewound.code == 0 and deleted.code == 0) is settings_only, (rewound, deleted)
    assert SHIPPED_HOOK.stat().st_mode & 0o111


@pytest.mark.parametrize("command", [("sync",), ("claims",)])
def test_the_printed_pipeline_does_what_the_command_does(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    import re
    import shutil

    from test_pipeline_equivalence import _normal
    from test_pipeline_equivalence import _sh

    remote = Remote("path", tmp_path / "remote")
    seed(tmp_path, remote.url())
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    b = clone(remote.url(), tmp_path / "b", tmp_path / "home-b")
    assert a.mj("start", "parse", "--scope", "lib").code == 0 and a.mj("sync").code == 0
    assert a.mj("checkpoint", stdin="one\n").code == 0
    assert b.mj("plan", "start", "I0001").code == 0
    copies = []
    for name in ("direct", "piped"):
        shutil.copytree(remote.bare, tmp_path / name / "remote.git")
        shutil.copytree(a.root, tmp_path / name / "a", symlinks=True)
        copy = Repo(tmp_path / name / "a", a.env)
        copy.git("remote", "set-url", "origin", str(tmp_path / name / "remote.git"))
        copies.append(copy)
    direct = copies[0].mj(*command, "--json")
    printed = copies[1].mj(*command, "--json", "--pipeline")
    assert printed.out.startswith("mj-state "), printed
    code, out, err = _sh(copies[1], printed.out.strip(), None)
    oid = re.compile(r"\b[0-9a-f]{40}\b")

    ages = re.compile(r'"(age|age_s)":("\d+[smhd]"|\d+)')

    def same(text: str, root: Path) -> str:
        text = ages.sub(r'"\1":<age>', text.replace(str(root.parent), "<copy>"))
        return oid.sub("<oid>", _normal(text, root))

    assert code == direct.code == 0, (err, direct)
    assert same(out, copies[1].root) == same(direct.out, copies[0].root)
    refs = [Remote.__new__(Remote) for _ in copies]
    for made, copy in zip(refs, copies, strict=True):
        made.bare, made.env = copy.root.parent / "remote.git", a.env
    assert refs[0].refs().keys() == refs[1].refs().keys()
    ident = clone_id(copies[0])
    published = refs[0].published(ident)
    assert published == refs[1].published(ident)
    assert published == (ledger(copies[0]) if command == ("sync",) else ledger(copies[0])[:1])


def test_plan_done_releases_the_issue_claim_at_the_next_sync(tmp_path: Path) -> None:
    remote = Remote("path", tmp_path / "remote")
    seed(tmp_path, remote.url())
    a = clone(remote.url(), tmp_path / "a", tmp_path / "home-a")
    b = clone(remote.url(), tmp_path / "b", tmp_path / "home-b")
    for args in (
        ("plan", "start", "I0001"),
        ("plan", "verify", "I0001"),
        ("plan", "done", "I0001"),
    ):
        assert a.mj(*args).code == 0, args
    ref = "refs/majordomus/claims/issue/I0001"
    assert remote.claim(ref)["state"] == "held"  # plan done connects to nothing
    assert "issue I0001                    releasing " in a.mj("claims").out
    assert a.mj("sync").code == 0 and remote.claim(ref)["state"] == "released"
    again = b.mj("plan", "start", "I0001")  # b's copy of the plan still says READY
    assert again.code == 0, again
    assert remote.claim(ref)["who"]["clone"] == clone_id(b)  # type: ignore[index]
