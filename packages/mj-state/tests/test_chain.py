"""The ledger's hash chain: any edit, removal, duplication or reordering shows; appends seal."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from mj_core.errors import ContractUnmet
from mj_state.ledger import chain
from mj_state.ledger import store as ledger


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=env)
    return tmp_path


def _grow(root: Path, count: int) -> Path:
    where = {"head": "0" * 40, "branch": "main"}
    for index in range(count):
        ledger.append(root, root / "st", "question.opened", {"question": f"q{index}"}, where=where)
    return root / "st" / "ledger.jsonl"


@pytest.fixture(scope="module")
def thousand(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    root = tmp_path_factory.mktemp("chain")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    target = _grow(root, 1000)
    return target.read_bytes(), target.with_name(chain.TIP).read_bytes()


def _judge(tmp: Path, data: bytes, tip: bytes | None) -> ledger.Scan:
    target = tmp / "ledger.jsonl"
    target.write_bytes(data)
    tip_path = tmp / chain.TIP
    if tip is None:
        tip_path.unlink(missing_ok=True)
    else:
        tip_path.write_bytes(tip)
    return ledger.scan(target)


def test_a_grown_ledger_is_chained_from_genesis(repo: Path) -> None:
    target = _grow(repo, 3)
    values = [json.loads(line) for line in target.read_bytes().splitlines()]
    assert values[0]["prev"] == chain.GENESIS
    raw = target.read_bytes().splitlines()
    assert values[1]["prev"] == chain.digest(raw[0]) and values[2]["prev"] == chain.digest(raw[1])
    found = ledger.scan(target)
    assert found.chain.ok and found.problems == []


_MUTATION = st.sampled_from(["byte", "delete", "duplicate", "swap"])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=_MUTATION,
    where=st.integers(0, 10**9),
    other=st.integers(0, 10**9),
    flip=st.integers(1, 255),
)
def test_any_single_change_is_found(
    tmp_path: Path, thousand: tuple[bytes, bytes], *, kind: str, where: int, other: int, flip: int
) -> None:
    data, tip = thousand
    lines = data.splitlines(keepends=True)
    if kind == "byte":
        at = where % len(data)
        changed = data[:at] + bytes([data[at] ^ flip]) + data[at + 1 :]
    elif kind == "delete":
        del lines[where % len(lines)]
        changed = b"".join(lines)
    elif kind == "duplicate":
        at = where % len(lines)
        lines.insert(at, lines[at])
        changed = b"".join(lines)
    else:
        a, b = where % len(lines), other % len(lines)
        if a == b:
            b = (a + 1) % len(lines)
        lines[a], lines[b] = lines[b], lines[a]
        changed = b"".join(lines)
    found = _judge(tmp_path, changed, tip)
    assert not found.chain.ok or found.problems, kind


def test_an_unchained_ledger_is_accepted_once_and_sealed_by_the_next_append(repo: Path) -> None:
    state = repo / "st"
    state.mkdir()
    target = state / "ledger.jsonl"
    old = b'{"ts":"2026-01-01T00:00:00Z","event":"task.checkpoint","head":"","branch":"main"}\n'
    target.write_bytes(old * 2)
    before = ledger.scan(target).chain
    assert before.ok and before.legacy == 2 and before.unsealed
    ledger.append(repo, state, "task.checkpoint", {})
    after = ledger.scan(target).chain
    assert after.ok and after.legacy == 2 and not after.unsealed
    third = json.loads(target.read_bytes().splitlines()[2])
    assert third["prev"] == chain.digest(old.rstrip(b"\n"))


def test_a_line_added_by_hand_breaks_the_chain_and_stops_the_writers(repo: Path) -> None:
    target = _grow(repo, 2)
    forged = b'{"ts":"2026-01-01T00:00:00Z","event":"task.finished","outcome":"completed"}\n'
    with target.open("ab") as handle:
        handle.write(forged)
    found = ledger.scan(target)
    assert found.chain.broken is not None and found.chain.broken[0] == 3
    assert found.chain.tip_problem is not None
    with pytest.raises(ContractUnmet, match="vouches"):
        ledger.append(repo, repo / "st", "task.checkpoint", {})


def test_a_forged_line_with_the_right_prev_is_still_caught_by_the_tip(repo: Path) -> None:
    target = _grow(repo, 2)
    last = target.read_bytes().splitlines()[-1]
    forged = {"ts": "2026-01-01T00:00:00Z", "event": "task.checkpoint", "prev": chain.digest(last)}
    with target.open("ab") as handle:
        handle.write(json.dumps(forged, separators=(",", ":")).encode() + b"\n")
    found = ledger.scan(target)
    assert found.chain.broken is None and found.chain.tip_problem is not None


def test_the_tip_vouches_through_a_crash_on_either_side_of_the_write(repo: Path) -> None:
    target = _grow(repo, 2)
    tip_path = target.with_name(chain.TIP)
    size, data = target.stat().st_size, target.read_bytes()
    last = chain.digest(data.splitlines()[-1])
    line = (
        b'{"ts":"2026-01-01T00:00:00Z","event":"task.checkpoint","prev":"' + last.encode() + b'"}'
    )
    pending = chain.Tip(size, last, size + len(line) + 1, chain.digest(line))
    tip_path.write_bytes(pending.render())
    assert ledger.scan(target).chain.ok  # the crash came before the write
    with target.open("ab") as handle:
        handle.write(line + b"\n")
    assert ledger.scan(target).chain.ok  # ... or after it, before the tip moved on
    ledger.append(repo, repo / "st", "task.checkpoint", {})
    assert ledger.scan(target).chain.ok


def test_a_missing_or_damaged_tip_of_a_chained_ledger_fails(repo: Path) -> None:
    target = _grow(repo, 2)
    tip_path = target.with_name(chain.TIP)
    tip_path.write_text("{}\n")
    assert "not a tip" in str(ledger.scan(target).chain.tip_problem)
    tip_path.unlink()
    assert "missing" in str(ledger.scan(target).chain.tip_problem)


def test_tip_round_trip_and_refusals() -> None:
    tip = chain.Tip(10, "a" * 64, 20, "b" * 64)
    again = chain.parse_tip(tip.render())
    assert again is not None and (again.size, again.pending_size) == (10, 20)
    for bad in (b"", b"[]", b'{"size":"1","last":""}', b'{"size":1,"last":"zz"}', b'{"x":1}'):
        assert chain.parse_tip(bad) is None, bad


@pytest.fixture(scope="module")
def with_starts(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    root = tmp_path_factory.mktemp("starts")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    where = {"head": "0" * 40, "branch": "main"}
    started = {
        "task": "t", "profile": "implementation", "scope": ["src"], "owner": "o",
        "worktree_id": ".", "working_tree": "clean",
    }  # fmt: skip
    for index in range(30):
        if index in (4, 17):
            ledger.append(root, root / "st", "task.started", started, where=where)
        else:
            ledger.append(
                root, root / "st", "question.opened", {"question": f"q{index}"}, where=where
            )
    target = root / "st" / "ledger.jsonl"
    return target.read_bytes(), target.with_name(chain.TIP).read_bytes()


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(kind=st.sampled_from(["none", "byte", "delete", "cut"]), where=st.integers(0, 10**9))
def test_the_tail_of_a_whole_scan_is_the_task_scan(
    tmp_path: Path, with_starts: tuple[bytes, bytes], *, kind: str, where: int
) -> None:
    from mj_state.ledger import scan as ledgerscan

    data, tip = with_starts
    lines = data.splitlines(keepends=True)
    if kind == "byte":
        at = where % len(data)
        data = data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1 :]
    elif kind == "delete":
        del lines[where % len(lines)]
        data = b"".join(lines)
    elif kind == "cut":
        data = data[: where % len(data)]
    whole = _judge(tmp_path, data, tip)
    tail = ledgerscan.tail_of(whole)
    alone = ledger.task_scan(tmp_path / "ledger.jsonl")
    assert (tail.rows, tail.values, tail.problems) == (alone.rows, alone.values, alone.problems)
    assert tail.chain.fact() == alone.chain.fact()


def _sha_chained(count: int) -> tuple[bytes, bytes]:
    """A ledger and tip as builds before BLAKE2 wrote them: each `prev` the SHA-256 of the line
    before, the tip naming the last line's SHA-256."""
    import hashlib

    lines: list[bytes] = []
    prev = chain.GENESIS
    for index in range(count):
        record = {"ts": "2026-01-01T00:00:00Z", "event": "question.opened", "question": f"q{index}"}
        line = json.dumps({**record, "prev": prev}, separators=(",", ":")).encode()
        lines.append(line)
        prev = hashlib.sha256(line).hexdigest()
    data = b"".join(line + b"\n" for line in lines)
    return data, chain.Tip(len(data), prev).render()


def test_a_ledger_an_earlier_build_chained_with_sha256_reads_on_and_takes_new_lines(
    repo: Path,
) -> None:
    data, tip = _sha_chained(5)
    state = repo / "st"
    state.mkdir()
    (state / "ledger.jsonl").write_bytes(data)
    (state / chain.TIP).write_bytes(tip)
    found = ledger.scan(state / "ledger.jsonl")
    assert found.chain.ok and found.problems == [], found.chain.fact()
    where = {"head": "0" * 40, "branch": "main"}
    ledger.append(repo, state, "question.opened", {"question": "new"}, where=where)
    grown = (state / "ledger.jsonl").read_bytes().splitlines()
    assert json.loads(grown[-1])["prev"] == chain.digest(grown[-2])  # new links are BLAKE2
    assert ledger.scan(state / "ledger.jsonl").chain.ok
    assert ledger.task_scan(state / "ledger.jsonl").chain.ok


def test_an_edit_of_an_earlier_build_s_ledger_is_still_found(tmp_path: Path) -> None:
    data, tip = _sha_chained(5)
    lines = data.splitlines(keepends=True)
    lines[2] = lines[2].replace(b"q2", b"q9")
    found = _judge(tmp_path, b"".join(lines), tip)
    assert not found.chain.ok and found.chain.broken is not None and found.chain.broken[0] == 4
    edited_last = data[:-3] + b'X"}\n'
    assert _judge(tmp_path, edited_last, tip).chain.tip_problem is not None
