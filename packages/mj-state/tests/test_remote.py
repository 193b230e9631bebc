"""The remote's pure parts: the claim document (held equal to its schema), the ref layout, how a
push's statuses are read, and sync's judgement over facts no remote could produce."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core import share
from mj_state.remote import claim_doc as claimdoc
from mj_state.remote import layout
from mj_state.remote import sync_judge as syncjudge
from mj_state.remote import transport

CLONE = "c-0123456789abcdef"
OTHER = "c-fedcba9876543210"


def doc(**changes: Any) -> dict[str, Any]:
    who = {"clone": CLONE, "worktree": "/w", "branch": "main", "head": "0" * 40}
    base = claimdoc.make("issue", "I0001", who, task=None, scope=["lib"], since=0, lease=7200)
    return {**base, **changes}


SCHEMA = json.loads(share.read_text("schemas", "claim.schema.json"))
VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12),
                   st.lists(st.text(max_size=8), max_size=3))  # fmt: skip
KEYS = ["format", "what", "who", "task", "scope", "state", "since", "lease_until", "took_over"]


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4),
    st.lists(st.sampled_from(["lib", "../x", "/abs", "a/../b", "a\\\\b", "ok/path"]), max_size=3),
    st.sampled_from(["held", "released", "gone"]),
)
def test_the_hand_parser_agrees_with_the_schema(
    changes: dict[str, Any], scope: list[str], state: str
) -> None:
    value = {**doc(scope=scope, state=state), **changes}
    parsed, _ = claimdoc.parse(json.dumps(value).encode(), "issue", "I0001")
    valid = jsonschema.Draft202012Validator(SCHEMA).is_valid(value)
    names_its_ref = value.get("what") == {"type": "issue", "id": "I0001"}
    assert (parsed is not None) == (valid and names_its_ref), value


def test_a_document_over_its_limit_or_not_json_is_a_problem_never_an_error() -> None:
    assert claimdoc.parse(b"x" * (claimdoc.LIMIT + 1), "issue", "I0001")[1]
    assert claimdoc.parse(b"\xff{", "issue", "I0001")[1]
    assert claimdoc.parse(json.dumps(doc()).encode(), "task", "I0001")[1]  # another ref's
    assert claimdoc.parse(json.dumps(doc()).encode(), "issue", "I0001") == (doc(), None)


@pytest.mark.parametrize(
    ("name", "parsed"),
    [
        ("refs/majordomus/claims/issue/I0001", ("issue", "I0001")),
        ("refs/majordomus/claims/task/t-20260903193012-a4f1", ("task", "t-20260903193012-a4f1")),
        ("refs/majordomus/adr/12", ("adr", "12")),
        (f"refs/majordomus/ledger/{CLONE}", ("ledger", CLONE)),
        ("refs/majordomus/adr/012", None),
        ("refs/majordomus/ledger/someone", None),
        ("refs/majordomus/claims/issue/a/b", None),
        ("refs/majordomus/claims/issue/x.lock", None),
        ("refs/majordomus/elsewhere/x", None),
        ("refs/heads/main", None),
    ],
)
def test_the_layout_names_only_its_own_refs(name: str, parsed: tuple[str, str] | None) -> None:
    assert layout.parse(name) == parsed
    if parsed is not None:
        assert layout.ref(*parsed) == name


def test_a_push_status_tells_a_lost_swap_from_a_refusal() -> None:
    out = (
        "To git://h/r.git\n"
        "=\tx:refs/majordomus/a\t[up to date]\n"
        "*\tx:refs/majordomus/b\t[new reference]\n"
        "!\tx:refs/majordomus/c\t[rejected] (stale info)\n"
        "!\tx:refs/majordomus/d\t[remote rejected] (atomic transaction failed)\n"
        "!\tx:refs/majordomus/e\t[rejected] (atomic push failed)\n"
        "!\tx:refs/majordomus/f\t[remote rejected] (pre-receive hook declined)\n"
        "Done\n"
    )
    assert transport._statuses(out) == {
        "refs/majordomus/a": "ok", "refs/majordomus/b": "ok", "refs/majordomus/c": "stale",
        "refs/majordomus/d": "stale", "refs/majordomus/e": "atomic",
        "refs/majordomus/f": "[remote rejected] (pre-receive hook declined)"}  # fmt: skip


def facts(
    held: list[dict[str, Any]], on: list[dict[str, Any]], **ledger: Any
) -> list[dict[str, Any]]:
    told = {"ledger": ".ai/local/state/ledger.jsonl", "published": None, "new": 0,
            "differs": None, "broken": [], **ledger}  # fmt: skip
    return [
        {"kind": "fact", "fact": "remote", "name": "origin", "url": "/r", "clone": CLONE,
         "synced_at": "2026-01-01T00:00:00Z", "now": 100, "lease": 7200},
        {"kind": "fact", "fact": "remote-claims", "claims": on, "problems": []},
        {"kind": "fact", "fact": "remote-ledger", **told},
        {"kind": "fact", "fact": "remote-held", "claims": held},
    ]  # fmt: skip


def test_sync_renews_its_own_publishes_the_unshared_and_names_a_taken_claim_lost() -> None:
    ref = "refs/majordomus/claims/issue/I0001"
    theirs = doc(who={"clone": OTHER, "worktree": "/v", "branch": "b", "head": ""})
    cases = {
        "renew": ([{"ref": ref, "state": "held", "commit": "1", "claim": doc()}],
                  [{"ref": ref, "commit": "1", "claim": doc(lease_until="1970-01-01T00:00:50Z")}]),
        "publish": ([{"ref": ref, "state": "unshared", "commit": None, "claim": doc()}], []),
        "lost": ([{"ref": ref, "state": "held", "commit": "1", "claim": doc()}],
                 [{"ref": ref, "commit": "2", "claim": theirs}]),
        "release": ([{"ref": ref, "state": "releasing", "commit": "1", "claim": doc()}],
                    [{"ref": ref, "commit": "1", "claim": doc()}]),
    }  # fmt: skip
    for action, (held, on) in cases.items():
        judged = list(syncjudge.judge(facts(held, on)))
        plan = next(r for r in judged if r.get("view") == "plan")
        if action == "lost":
            assert plan["lost"] == [{"ref": ref, "holder": claimdoc.holder(theirs)}]
        else:
            assert [c["action"] for c in plan["claims"]] == [action], (action, plan)
    conflict = list(syncjudge.judge(facts(cases["publish"][0], [{"ref": ref, "commit": "2",
                                                                 "claim": theirs}])))  # fmt: skip
    assert [r["level"] for r in conflict] == ["FAIL"] and OTHER in conflict[0]["message"]


def test_sync_publishes_nothing_over_a_rewritten_or_broken_ledger() -> None:
    published = {"ref": f"refs/majordomus/ledger/{CLONE}", "commit": "1", "count": 3, "last": "a"}
    differs = {"file": "ledger.jsonl", "line": 2, "index": 2}
    judged = list(syncjudge.judge(facts([], [], published=published, differs=differs)))
    assert [r.get("level") for r in judged] == ["FAIL"]
    assert judged[0]["subject"] == ".ai/local/state/ledger.jsonl:2"
    broken = list(syncjudge.judge(facts([], [], broken=[[4, "`prev` is not the hash"]])))
    assert [r.get("level") for r in broken] == ["FAIL"]


@pytest.mark.parametrize("fmt", ["sha1", "sha256"])
def test_objects_written_here_are_the_ones_git_makes(tmp_path: Any, fmt: str) -> None:
    import subprocess

    from mj_state.remote import objects

    store = tmp_path / "store.git"
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "majordomus", "GIT_AUTHOR_EMAIL": "c@majordomus.invalid",
           "GIT_COMMITTER_NAME": "majordomus", "GIT_COMMITTER_EMAIL": "c@majordomus.invalid",
           "GIT_AUTHOR_DATE": "1700000000 +0000",
           "GIT_COMMITTER_DATE": "1700000000 +0000"}  # fmt: skip

    def git(*args: str, data: bytes | None = None) -> str:
        done = subprocess.run(["git", "--git-dir", str(store), *args], input=data, env=env,
                              capture_output=True, check=True)  # fmt: skip
        return done.stdout.decode().strip()

    subprocess.run(["git", "init", "-q", "--bare", f"--object-format={fmt}", str(store)],
                   env=env, check=True)  # fmt: skip
    files = {"lines.jsonl": b'{"a":1}\n', "tip.json": b"{}\n", "records/.ai/x/b.md": b"# b\n",
             "records/.ai/x-y": b"dash\n", "records/.ai/x/a.md": b""}  # fmt: skip
    writer = objects.Writer(store)
    tree = writer.tree(files)
    blobs = {p: git("hash-object", "-w", "--stdin", data=d) for p, d in files.items()}
    index = "".join(f"100644 {oid} 0\t{path}\n" for path, oid in blobs.items())
    env["GIT_INDEX_FILE"] = str(tmp_path / "index")
    git("update-index", "--add", "--index-info", data=index.encode())
    assert tree == git("write-tree")
    parent = git("commit-tree", "-m", "first", tree)
    mine = writer.commit(
        tree, parent, "majordomus <c@majordomus.invalid> 1700000000 +0000", "second"
    )
    assert mine == git("commit-tree", "-p", parent, "-m", "second", tree)
    git("fsck", "--strict", "--no-dangling")


def test_a_published_ledger_is_walked_back_and_judged_to_only_grow(tmp_path: Any) -> None:
    import subprocess

    from mj_state.ledger import chain
    from mj_state.remote import objects
    from mj_state.remote import segment

    store = tmp_path / "store.git"
    subprocess.run(["git", "init", "-q", "--bare", str(store)], check=True,
                   env={"GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin"})  # fmt: skip
    lines: list[bytes] = []
    for n in range(5):
        prev = chain.digest(lines[-1]) if lines else chain.GENESIS
        lines.append(json.dumps({"ts": "t", "event": "e", "n": n, "prev": prev}).encode())
    writer = objects.Writer(store)

    def publish(parent: str | None, first: int, batch: list[bytes], last: bytes) -> str:
        tip = {"format": 1, "count": first - 1 + len(batch), "last": chain.digest(last),
               "first": first, "lines": len(batch)}  # fmt: skip
        files = {
            "lines.jsonl": b"".join(x + b"\n" for x in batch),
            "tip.json": json.dumps(tip).encode(),
        }
        return writer.commit(writer.tree(files), parent, "m <m@x> 0 +0000", "ledger")

    one = publish(None, 1, lines[:2], lines[1])
    two = publish(one, 3, lines[2:], lines[4])
    (store / "refs/majordomus/ledger").mkdir(parents=True)
    (store / "refs/majordomus/ledger" / CLONE).write_text(two + "\n")
    walked = segment.walk(store, f"refs/majordomus/ledger/{CLONE}")
    assert [w["commit"] for w in walked] == [one, two]
    assert [x for w in walked for x in w["lines"]] == lines
    assert segment.continues(walked) is None and segment.continues(walked, before=one) is None
    forged = publish(one, 3, [lines[3], lines[4]], lines[4])  # line 3 dropped, the rest kept
    assert "line 3 does not link" in str(segment.continues(segment.walk(store, forged)))
    assert "rewritten" in str(segment.continues(segment.walk(store, forged), before=two))
    unparented = publish(None, 3, lines[2:], lines[4])
    assert "parent" in str(segment.continues([walked[0], *segment.walk(store, unparented)]))
