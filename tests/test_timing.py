"""`MJ_TIMING=1` (SCHEMAS "Časový report"): the report goes to stderr, stdout is untouched."""

from __future__ import annotations

import json

from conftest import Repo


def _timed(repo: Repo) -> Repo:
    return Repo(repo.root, {**repo.env, "MJ_TIMING": "1"})


def test_text_report_on_stderr_and_stdout_unchanged(layer_repo: Repo) -> None:
    plain = layer_repo.mj("doctor")
    timed = _timed(layer_repo).mj("doctor")
    assert timed.code == plain.code
    assert timed.out == plain.out
    assert "TIMING" not in plain.err
    lines = timed.err.splitlines()
    head = [line for line in lines if line.startswith("TIMING ")]
    assert len(head) == 1 and "total=" in head[0]
    phases = [line for line in lines if line.startswith("phase ")]
    counts = {line.split()[-1]: int(line.split()[1]) for line in lines if line.startswith("count ")}
    assert any(line.endswith("doctor: run") for line in phases)
    assert counts["git"] >= 1
    assert counts["yaml"] >= 2  # manifest and policy at least


def test_json_report_is_one_line_with_the_same_aggregation(layer_repo: Repo) -> None:
    plain = layer_repo.mj("doctor", "--json")
    timed = _timed(layer_repo).mj("doctor", "--json")
    assert timed.out == plain.out
    [line] = [line for line in timed.err.splitlines() if line.startswith("{")]
    report = json.loads(line)["timing"]
    assert set(report) == {"clock", "total_ms", "phases", "counters"}
    assert report["total_ms"] >= max(p["ms"] for p in report["phases"])
    names = [c["name"] for c in report["counters"]]
    assert "git" in names and "yaml" in names
    counts = [c["count"] for c in report["counters"]]
    assert counts == sorted(counts, reverse=True)  # counters ordered by count


def test_version_reports_too(git_repo: Repo) -> None:
    timed = _timed(git_repo).mj("version")
    assert timed.code == 0
    assert timed.out.startswith("majordomus ")
    assert timed.err.startswith("TIMING ")
