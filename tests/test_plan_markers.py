"""The plan's lifecycle markers against the ledger (`mj_state.plan.markers`): a status is
derived from the markers in the issue files, so a marker written by hand — one neither HEAD's
version of the file nor this checkout's ledger holds — is a FAIL (10) of `plan validate` and
`doctor` naming file, line and both values, and every plan writer refuses to act on it; the
pre-commit hook `init` prints stops it reaching a commit."""

from __future__ import annotations

import json
import re

import pytest
from conftest import Repo
from conftest import failures
from conftest import wire
from test_plan import BASE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

LEDGER = ".ai/local/state/ledger.jsonl"
I1 = f"{BASE}/issues/I0001.yaml"


@pytest.fixture
def planned(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001")
    issue(layer_repo, "I0002", "I0001")
    text = (layer_repo.root / I1).read_text(encoding="utf-8")
    layer_repo.write(I1, text.replace("evidence_required: []", "evidence_required: [suite]"))
    layer_repo.commit("a plan")
    return layer_repo


def _line_of(repo: Repo, path: str, starts: str) -> int:
    lines = (repo.root / path).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.startswith(starts))


def _append(repo: Repo, path: str, text: str) -> None:
    with (repo.root / path).open("a", encoding="utf-8") as handle:
        handle.write(text)


def _marker_fails(repo: Repo, command: str = "plan") -> list[tuple[str, str, str, str]]:
    result = repo.mj(command, "validate") if command == "plan" else repo.mj("doctor")
    assert result.code == 10, result
    return [f for f in failures(result.out) if f[0] == "plan"]


def test_what_the_tool_wrote_and_what_git_holds_counts(planned: Repo) -> None:
    assert planned.mj("plan", "start", "I0001").code == 0
    evidence = ("--covers", "suite", "--type", "test", "--result", "all passed",
                "--command", "make test")  # fmt: skip
    assert planned.mj("plan", "evidence", "I0001", *evidence).code == 0
    assert planned.mj("plan", "verify", "I0001").code == 0
    validated = planned.mj("plan", "validate")  # uncommitted, each line the ledger's
    assert validated.code == 0, validated
    assert "1 changed issue file(s): every lifecycle marker is git's or" in validated.out
    doctor = planned.mj("doctor").out  # (a scratch repository: its hooks are not wired)
    assert not [f for f in failures(doctor) if f[0] == "plan"]
    assert f"OK   plan        {BASE} — 1 milestone(s), 2 issue(s); the model holds" in doctor
    planned.commit("I0001 verified")
    assert planned.mj("plan", "done", "I0001").code == 0
    planned.commit("I0001 done")
    (planned.root / LEDGER).unlink()  # another checkout's ledger knows none of it: git does
    (planned.root / ".ai/local/state/ledger.tip").unlink(missing_ok=True)
    assert planned.mj("plan", "validate").code == 0
    assert planned.mj("plan", "start", "I0002").code == 0


def test_a_hand_written_done_is_caught_and_moves_nothing(planned: Repo) -> None:
    assert planned.mj("plan", "start", "I0001").code == 0
    _append(planned, I1, "completed_at: 2026-12-01T12:00:00Z\n")
    line = _line_of(planned, I1, "completed_at:")
    listed = planned.mj("plan", "list").out  # a listing shows what the files say ...
    assert "I0001   DONE" in listed and "I0002   READY" in listed
    found = _marker_fails(planned)
    assert len(found) == 1, found
    _, subject, message, reproduce = found[0]
    assert subject.startswith(f"{I1}:{line}:")
    assert "completed_at: 2026-12-01T12:00:00Z is in the file" in message
    assert "ledger records plan.done of I0001 at none and HEAD holds none" in message
    assert reproduce == "majordomus plan validate"
    assert [f[1] for f in _marker_fails(planned, "doctor")] == [subject]
    before = ((planned.root / LEDGER).read_bytes(), (planned.root / I1).read_bytes())
    for args in (("start", "I0002"), ("done", "I0001"), ("verify", "I0001")):  # ... none acts
        refused = planned.mj("plan", *args)
        assert refused.code == 10 and f"{I1}:{line}:" in refused.err, refused
        assert refused.err.count("\n") == 1
    assert ((planned.root / LEDGER).read_bytes(), (planned.root / I1).read_bytes()) == before


def test_an_edited_marker_names_both_values(planned: Repo) -> None:
    assert planned.mj("plan", "start", "I0001").code == 0
    text = (planned.root / I1).read_text(encoding="utf-8")
    wrote = re.search(r"^started_at: (\S+)$", text, re.M)
    assert wrote is not None
    planned.write(I1, text.replace(wrote.group(0), "started_at: 2020-01-01T00:00:00Z"))
    (message,) = [f[2] for f in _marker_fails(planned)]
    assert "started_at: 2020-01-01T00:00:00Z is in the file" in message
    assert f"records plan.started of I0001 at {wrote.group(1)}" in message


def test_an_edited_evidence_result_is_caught(planned: Repo) -> None:
    assert planned.mj("plan", "start", "I0001").code == 0
    evidence = ("--covers", "suite", "--type", "test", "--result", "2 failed",
                "--command", "make test")  # fmt: skip
    assert planned.mj("plan", "evidence", "I0001", *evidence).code == 0
    event = [json.loads(x) for x in (planned.root / LEDGER).read_text().splitlines()][-1]
    assert event["event"] == "plan.evidence" and event["result"] == "2 failed"
    text = (planned.root / I1).read_text(encoding="utf-8")
    planned.write(I1, text.replace("result: 2 failed", "result: all passed"))
    assert "result: all passed" in (planned.root / I1).read_text(encoding="utf-8")
    (message,) = [f[2] for f in _marker_fails(planned)]
    assert "evidence for suite" in message and "result 'all passed'" in message
    assert "result '2 failed'" in message  # what the ledger recorded
    refused = planned.mj("plan", "done", "I0001")
    assert refused.code == 10 and "evidence for suite" in refused.err


def test_a_forged_marker_staged_then_hidden_on_disk_is_caught(planned: Repo) -> None:
    original = (planned.root / I1).read_text(encoding="utf-8")
    _append(planned, I1, "started_at: 2026-12-01T10:00:00Z\ncompleted_at: 2026-12-01T12:00:00Z\n")
    planned.git("add", I1)
    planned.write(I1, original)  # the file on disk as committed; the index holds the forgery
    found = _marker_fails(planned)
    assert sorted(f[2].split(":")[0] for f in found) == ["I0001 completed_at", "I0001 started_at"]


def test_the_pre_commit_hook_stops_a_hand_written_done(planned: Repo) -> None:
    wire(planned)
    _append(planned, I1, "started_at: 2026-12-01T10:00:00Z\ncompleted_at: 2026-12-01T12:00:00Z\n")
    planned.git("add", I1)
    head = planned.git("rev-parse", "HEAD")
    committed = planned.shell("git commit -q -m 'I0001 done, by hand'")
    assert committed.code != 0 and "I0001 completed_at" in committed.out + committed.err
    assert planned.git("rev-parse", "HEAD") == head


def test_a_stored_status_fails_doctor_as_it_fails_validate(planned: Repo) -> None:
    issue(planned, "I0002", "I0001", extra="status: DONE\n")
    planned.commit("a status written down")  # committed: the defect is the model's, not a marker's
    for found in (_marker_fails(planned), _marker_fails(planned, "doctor")):
        assert [f[1].split(":")[0] for f in found] == [f"{BASE}/issues/I0002.yaml"], found
        assert "unknown-key" in found[0][2] and "status" in found[0][2]
