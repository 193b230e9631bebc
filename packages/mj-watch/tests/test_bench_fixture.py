"""The fixture history generator writes what the owners' own readers accept, in the sizes asked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mj_policy.layer import loader as layer
from mj_state.ledger import store as ledger
from mj_state.records import decisions
from mj_state.records import questions
from mj_state.records import store as records
from mj_watch.bench import fixture_history
from mj_watch.bench import scenario

SIZES = fixture_history.Sizes(
    ledger_lines=300, handovers=8, checkpoints=20, decisions=5, questions=4
)


def _adopted(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    scenario.blank(root)
    tool = Path(sys.executable).parent / "majordomus"
    env = scenario.environment()
    subprocess.run([str(tool), "init"], cwd=root, env=env, check=True, capture_output=True)
    return root


def test_history_has_the_sizes_and_every_line_and_record_reads_back(tmp_path: Path) -> None:
    root = _adopted(tmp_path)
    state = layer.load(root).state
    fixture_history.write(root, state, SIZES)
    lines = list(ledger.read(ledger.path(state)))
    assert len(lines) == SIZES.ledger_lines
    assert [line for line in lines if ledger.problem(line)] == []
    stamps = [line.record["ts"] for line in lines if line.record]
    assert stamps == sorted(stamps)
    for kind, count in (("checkpoint", SIZES.checkpoints), ("handover", SIZES.handovers)):
        names = records.names(state, kind)
        assert len(names) == count
        for name in names:
            path = records.directory(state, kind) / name
            front, _ = records.load(path)
            assert front["schema_version"] == 1
            assert os.stat(path).st_mode & 0o777 == records.MODE
    written = [e for e in decisions.read(state) if e.title.startswith("decision ")]
    assert len(written) == SIZES.decisions
    assert all(decisions.lacking(e) == [] for e in written)
    entries, malformed = questions.load(state)
    assert malformed == []
    assert sum(1 for e in entries if e.question.startswith("question ")) == SIZES.questions


def test_large_sizes_scale_linearly() -> None:
    one, four = fixture_history.Sizes.large(1), fixture_history.Sizes.large(4)
    assert one == fixture_history.Sizes(5000, 200, 500, 100, 50)
    assert four == fixture_history.Sizes(20000, 800, 2000, 400, 200)


def _files_read_by_context(tmp_path: Path, name: str, sizes: fixture_history.Sizes) -> int:
    """`files read` of one `majordomus context` (MJ_TIMING) with an active task, over `sizes`."""
    root = _adopted(tmp_path / name)
    scenario.commit(root, "adopt majordomus")
    fixture_history.write(root, layer.load(root).state, sizes)
    env = scenario.environment()
    bin_dir = Path(sys.executable).parent
    start = [str(bin_dir / "majordomus"), "start", "measured task", "--scope", "docs"]
    subprocess.run(start, cwd=root, env=env, check=True, capture_output=True)
    shown = subprocess.run(
        [str(bin_dir / "majordomus"), "context"],
        cwd=root,
        env={**env, "MJ_TIMING": "1"},
        check=True,
        capture_output=True,
        text=True,
    )
    [count] = [
        int(line.split()[1])
        for line in shown.stderr.splitlines()
        if line.startswith("count") and line.endswith(" files read")
    ]
    return count


def test_context_opens_two_record_files_however_many_records_there_are(tmp_path: Path) -> None:
    # what tests/perf/bench_context.py reported as `record_files_read`: only the newest
    # compatible checkpoint and the newest handover are read, of 140 records as of none
    none = fixture_history.Sizes(300, handovers=0, checkpoints=0, decisions=5, questions=4)
    many = fixture_history.Sizes(300, handovers=40, checkpoints=100, decisions=5, questions=4)
    without = _files_read_by_context(tmp_path, "none", none)
    assert _files_read_by_context(tmp_path, "many", many) - without == 2
