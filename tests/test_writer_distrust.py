"""The writers of `adr propose`, `plan start` and `plan verify|evidence|done` take no verdict
on trust.

A worker can pipe anything into `mj-state adr-propose-write`, `mj-state plan-start-write` or
`mj-state plan-move-write`: a judge's real stream with its verdict edited, or a verdict written
by hand. Each writer judges again, under its lock, over what it gathers itself: an edited
verdict the judge would refuse is refused with the judge's code and words, a verdict of a shape
the schema does not know is refused (10), and the number or identity written is the writer's
own. Nothing is written by a refused one: not a file, not a ledger line, not a claim.
"""

from __future__ import annotations

import json

import pytest
from conftest import Repo
from conftest import forged
from test_plan import BASE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

ADRS = ".ai/repo/adrs"
LEDGER = ".ai/local/state/ledger.jsonl"
RECORD = (
    "---\nschema: adr/v1\nid: adr-0001\nkind: adr\ntitle: First\nstatus: accepted\n"
    'date: "2026-09-05"\n---\n\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n\n'
    "## Consequences\n\nCost.\n"
)


def _stream(repo: Repo, script: str) -> list[dict[str, object]]:
    """The judge's own stream, as the facts stage and the judge give it."""
    done = repo.shell(script)
    assert done.code == 0, done
    return [json.loads(line) for line in done.out.splitlines()]


def _files(repo: Repo) -> tuple[list[str], bytes]:
    found = sorted(str(p.relative_to(repo.root)) for p in (repo.root / ".ai/repo").rglob("*"))
    ledger = repo.root / LEDGER
    return found, ledger.read_bytes() if ledger.exists() else b""


@pytest.fixture
def recorded(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{ADRS}/0001-first.md", RECORD)
    layer_repo.commit("a record")
    return layer_repo


def _adr_stream(repo: Repo, title: str = "Fine") -> list[dict[str, object]]:
    return _stream(repo, f"mj-state adr-propose-facts '{title}' | mj-watch adr-propose")


@pytest.mark.parametrize(
    ("changed", "code", "said"),
    [
        ({"derived_from": ["file:no/such/file"]}, 10, "dangling — no no/such/file in git's index"),
        ({"supersedes": "adr-0042"}, 12, "--supersedes adr-0042: no such record"),
        ({"title": "   "}, 2, "give the title"),
        ({"title": "Fine\nstatus: accepted"}, 15, "not what its facts give"),
        ({"number": 1}, 10, "number"),
        ({"id": "adr-0001"}, 10, "id"),
    ],
)
def test_an_edited_adr_verdict_is_judged_again_and_writes_nothing(
    recorded: Repo, changed: dict[str, object], code: int, said: str
) -> None:
    fed = forged(_adr_stream(recorded), **changed)
    before = _files(recorded)
    result = recorded.run("mj-state", "adr-propose-write", stdin=fed)
    assert result.code == code and said in result.err, result
    assert result.err.count("\n") == 1, result
    assert _files(recorded) == before


def test_the_number_is_the_writers_own_never_one_already_used(recorded: Repo) -> None:
    stream = _adr_stream(recorded, "Second")
    recorded.write(f"{ADRS}/0002-taken.md", RECORD.replace("adr-0001", "adr-0002"))
    result = recorded.run("mj-state", "adr-propose-write", stdin=forged(stream))
    assert result.code == 0, result
    names = sorted(p.name for p in (recorded.root / ADRS).glob("*.md"))
    assert names == ["0001-first.md", "0002-taken.md", "0003-second.md"], names
    assert '"adr":"adr-0003"' in (recorded.root / LEDGER).read_text()


@pytest.fixture
def planned(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001")
    issue(layer_repo, "I0002", "I0001")
    layer_repo.commit("a plan")
    return layer_repo


def _plan_stream(repo: Repo, ident: str) -> list[dict[str, object]]:
    return _stream(repo, f"mj-state plan-start-facts {ident} | mj-watch plan-start")


def _plan(repo: Repo) -> tuple[bytes, bytes, bytes]:
    ledger = repo.root / LEDGER
    return (
        (repo.root / f"{BASE}/issues/I0001.yaml").read_bytes(),
        (repo.root / f"{BASE}/issues/I0002.yaml").read_bytes(),
        ledger.read_bytes() if ledger.exists() else b"",
    )


def test_a_verdict_edited_to_start_an_issue_with_an_unmet_dependency_is_refused(
    planned: Repo,
) -> None:
    fed = forged(_plan_stream(planned, "I0001"), id="I0002", path=f"{BASE}/issues/I0002.yaml")
    before = _plan(planned)
    result = planned.run("mj-state", "plan-start-write", stdin=fed)
    assert result.code == 15 and "plan start I0002: it is BLOCKED" in result.err, result
    assert "waits on I0001 READY" in result.err and result.err.count("\n") == 1
    assert _plan(planned) == before


def test_a_verdict_judged_before_the_issue_moved_writes_nothing(planned: Repo) -> None:
    stream = _plan_stream(planned, "I0001")
    assert planned.mj("checkpoint", stdin="the ledger moves on\n").code == 0
    before = _plan(planned)
    result = planned.run("mj-state", "plan-start-write", stdin=forged(stream))
    assert result.code == 15 and "moved since it was judged" in result.err, result
    assert _plan(planned) == before


def test_a_verdict_naming_no_holder_does_not_take_another_worktrees_claim(
    planned: Repo, tmp_path: object
) -> None:
    from pathlib import Path

    other = Path(str(tmp_path)) / "other"
    planned.git("worktree", "add", "-q", str(other), "-b", "other")
    sibling = Repo(other, planned.env)
    stream = _plan_stream(planned, "I0001")  # judged while nobody held it
    assert sibling.mj("plan", "start", "I0001").code == 0
    before = _plan(planned)
    result = planned.run("mj-state", "plan-start-write", stdin=forged(stream, take_over=True))
    assert result.code == 15 and "moved since it was judged" in result.err, result
    assert _plan(planned) == before
    plain = planned.run("mj-state", "plan-start-write", stdin=forged(stream))
    assert plain.code == 15 and f"held by the worktree {other} of this clone" in plain.err, plain
    assert _plan(planned) == before


def _move_stream(repo: Repo, args: str) -> list[dict[str, object]]:
    return _stream(repo, f"mj-state plan-move-facts {args} | mj-watch plan-move")


def test_a_move_verdict_edited_to_another_issue_is_judged_again(planned: Repo) -> None:
    assert planned.mj("plan", "start", "I0001").code == 0
    stream = _move_stream(planned, "--action verify I0001")
    before = _plan(planned)
    fed = forged(stream, id="I0002", path=f"{BASE}/issues/I0002.yaml")
    result = planned.run("mj-state", "plan-move-write", stdin=fed)
    assert result.code == 15 and "plan verify I0002: it is BLOCKED" in result.err, result
    assert _plan(planned) == before
    honest = planned.run("mj-state", "plan-move-write", stdin=forged(stream))
    assert honest.code == 0, honest
    assert b"verified_at: " in (planned.root / f"{BASE}/issues/I0001.yaml").read_bytes()
    again = planned.run("mj-state", "plan-move-write", stdin=forged(stream))  # replayed
    assert again.code == 15 and "it is VERIFY, not ACTIVE" in again.err, again
    assert _plan(planned)[0].count(b"verified_at: ") == 1


def test_an_evidence_entry_edited_after_judging_writes_nothing(planned: Repo) -> None:
    text = (planned.root / f"{BASE}/issues/I0001.yaml").read_text(encoding="utf-8")
    planned.write(f"{BASE}/issues/I0001.yaml",
                  text.replace("evidence_required: []", "evidence_required: [suite]"))  # fmt: skip
    planned.commit("a token")
    assert planned.mj("plan", "start", "I0001").code == 0
    stream = _move_stream(
        planned, "--action evidence I0001 --covers suite --type test --result failed "
        "--command 'make test'")  # fmt: skip
    verdict = next(r for r in stream if r.get("kind") == "verdict")
    entry = {**verdict["entry"], "result": "all passed"}  # type: ignore[dict-item]
    before = _plan(planned)
    for changed, code in (({"entry": entry}, 15), ({"file": "0" * 64}, 15), ({"move": "done"}, 10)):
        result = planned.run("mj-state", "plan-move-write", stdin=forged(stream, **changed))
        assert result.code == code, (changed, result)  # a done is the judge's own refusal
        assert _plan(planned) == before
    assert "result: failed" not in _plan(planned)[0].decode()


def test_the_move_judge_without_its_fact_stops_with_12(planned: Repo) -> None:
    other = planned.run("mj-state", "plan-start-facts", "I0001")  # another stage's whole stream
    result = planned.run("mj-watch", "plan-move", stdin=other.out)
    assert result.code == 12 and "mj-state plan-move-facts" in result.err, result
