"""`majordomus plan start|verify|evidence|done` (CLI-REFERENCE §2.25, the writers): one marker
appended to one issue file with its ledger line, under one lock; every refusal leaves the file
and the ledger as they were; of 8 concurrent starts of one READY issue exactly one wins."""

from __future__ import annotations

import fcntl
import json
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import Repo
from conftest import exe
from test_plan import BASE
from test_plan import PROJECT
from test_plan import issue
from test_plan import milestone

LEDGER = ".ai/local/state/ledger.jsonl"


@pytest.fixture
def planned(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    issue(layer_repo, "I0001")
    issue(layer_repo, "I0002", "I0001")
    text = (layer_repo.root / f"{BASE}/issues/I0001.yaml").read_text(encoding="utf-8")
    text = text.replace("evidence_required: []", "evidence_required: [suite]")
    layer_repo.write(f"{BASE}/issues/I0001.yaml", text)
    layer_repo.commit("a plan")
    assert layer_repo.mj("plan", "validate").code == 0
    return layer_repo


def _file(repo: Repo, ident: str) -> bytes:
    return (repo.root / f"{BASE}/issues/{ident}.yaml").read_bytes()


def _ledger(repo: Repo) -> bytes:
    path = repo.root / LEDGER
    return path.read_bytes() if path.exists() else b""


def _refused(repo: Repo, code: int, *args: str) -> str:
    before = (_file(repo, "I0001"), _file(repo, "I0002"), _ledger(repo))
    result = repo.mj("plan", *args)
    assert result.code == code and result.err.count("\n") == 1, (args, result)
    assert (_file(repo, "I0001"), _file(repo, "I0002"), _ledger(repo)) == before
    return result.err


def test_the_lifecycle_appends_one_line_each_and_refuses_every_wrong_step(planned: Repo) -> None:
    assert "waits on I0001 READY" in _refused(planned, 15, "start", "I0002")
    _refused(planned, 15, "verify", "I0001")
    _refused(planned, 12, "start", "I0099")
    before = _file(planned, "I0001")
    started = planned.mj("plan", "start", "I0001")
    assert started.code == 0, started
    after = _file(planned, "I0001")
    assert after.startswith(before) and after[len(before) :].startswith(b"started_at: ")
    assert after.count(b"\n") == before.count(b"\n") + 1
    assert b'"event":"plan.started"' in _ledger(planned) and b'"issue":"I0001"' in _ledger(planned)
    _refused(planned, 15, "start", "I0001")
    assert "no evidence covers suite" in _refused(planned, 10, "done", "I0001")
    _refused(
        planned, 2, "evidence", "I0001", "--covers", "suite", "--type", "test", "--result", "ok"
    )
    _refused(planned, 15, "evidence", "I0001", "--covers", "lint", "--type", "test",
             "--result", "ok", "--command", "make lint")  # fmt: skip
    evidence = planned.mj("plan", "evidence", "I0001", "--covers", "suite", "--type", "test",
                          "--result", "all passed", "--command", "make test")  # fmt: skip
    assert evidence.code == 0, evidence
    assert planned.mj("plan", "verify", "I0001").code == 0
    done = planned.mj("plan", "done", "I0001")
    assert done.code == 0 and "next ready: I0002" in done.out, done
    assert planned.mj("plan", "validate").code == 0
    listed = planned.mj("plan", "list").out
    assert "I0001   DONE" in listed and "I0002   READY" in listed
    shown = planned.mj("plan", "show", "I0001").out
    head = planned.git("rev-parse", "HEAD").strip()
    assert "covers: suite" in shown and f"commit: {head}" in shown and "command: make test" in shown
    events = [line for line in _ledger(planned).splitlines() if b'"plan.' in line]
    assert [e.split(b'"event":"')[1].split(b'"')[0] for e in events] == [
        b"plan.started", b"plan.evidence", b"plan.verified", b"plan.done"]  # fmt: skip


def test_of_eight_concurrent_starts_exactly_one_wins(planned: Repo) -> None:
    argv = [exe("majordomus"), "plan", "start", "I0001"]

    def one(_: int) -> int:
        done = subprocess.run(argv, cwd=planned.root, env=planned.env, capture_output=True,
                              text=True, check=False, timeout=120)  # fmt: skip
        return done.returncode

    with ThreadPoolExecutor(max_workers=8) as pool:
        codes = sorted(pool.map(one, range(8)))
    assert codes == [0] + [15] * 7, codes
    assert _file(planned, "I0001").count(b"started_at:") == 1
    assert _ledger(planned).count(b'"event":"plan.started"') == 1
    assert planned.mj("history", "--validate").code == 0


def test_a_start_reads_the_plan_only_between_two_writes(planned: Repo) -> None:
    """The facts of `plan start` are gathered under the lock the writer publishes the issue file
    and its ledger line under: a start that lost a race sees both or neither (15), never a
    marker without its ledger line (which would read as forged, 10)."""
    state = planned.root / ".ai/local/state"
    state.mkdir(parents=True, exist_ok=True)
    argv = [exe("mj-state"), "plan-start-facts", "I0001"]
    with open(state / "plan.lock", "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        waiting = subprocess.Popen(argv, cwd=planned.root, env=planned.env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        with pytest.raises(subprocess.TimeoutExpired):
            waiting.wait(timeout=1.5)
        marked = _file(planned, "I0001") + b"started_at: 2026-01-01T00:00:00Z\n"
        (planned.root / f"{BASE}/issues/I0001.yaml").write_bytes(marked)
        fcntl.flock(held, fcntl.LOCK_UN)
    out, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 0, err
    fact = json.loads(out.splitlines()[0])
    assert fact["fact"] == "plan-start" and "started_at" in str(fact["text"]), fact
