"""`bench --check` judgement, the target catalogue and the measured process, without a fixture."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_watch.bench import baseline_check
from mj_watch.bench import measure
from mj_watch.bench import results
from mj_watch.bench import targets

REGRESSION = {"p50": 0.5, "p95": 0.5, "p99": 0.6}


def _row(p50: float, p95: float, p99: float, command: str = "doctor") -> dict[str, object]:
    return {
        "command": command,
        "scenario": "fixture large",
        "mode": "warm",
        "status": "ok",
        "p50_ms": p50,
        "p95_ms": p95,
        "p99_ms": p99,
    }


def _judge(fresh: dict[str, object], old: dict[str, object]) -> list[dict[str, object]]:
    baseline = baseline_check.index({"results": [old]}, "baseline.json")
    return [f.record() for f in baseline_check.findings([fresh], baseline, REGRESSION)]


def test_within_the_fractions_is_ok() -> None:
    # limits: p50 100*1.5=150, p95 200*1.5=300, p99 250*1.6=400 — all equal: not over
    [found] = _judge(_row(150.0, 300.0, 400.0), _row(100.0, 200.0, 250.0))
    assert found["level"] == "OK"


def test_one_percentile_over_its_fraction_fails_with_a_reproduce() -> None:
    [found] = _judge(_row(150.0, 300.1, 120.0), _row(100.0, 200.0, 250.0))
    assert found["level"] == "FAIL"
    assert "p95 300.1 ms > 200.0 ms × 1.5" in str(found["message"])
    assert "p50" not in str(found["message"])
    assert found["reproduce"] == "majordomus bench doctor --check --fixture large"


def test_a_target_missing_from_the_baseline_is_info() -> None:
    [found] = _judge(_row(1.0, 1.0, 1.0, command="check"), _row(1.0, 1.0, 1.0))
    assert found["level"] == "INFO"


def test_a_scaled_fixture_reproduces_with_its_scale() -> None:
    row = {**_row(1.0, 1.0, 1.0), "scenario": "fixture large×4", "mode": "cold"}
    assert baseline_check.reproduce(row, ("--baseline", "b.json")) == (
        "majordomus bench doctor --check --baseline b.json --fixture large --scale 4 --mode cold"
    )


def test_a_baseline_row_without_figures_is_incomparable() -> None:
    with pytest.raises(Refused):
        baseline_check.index({"results": [{"command": "doctor", "p50_ms": "fast"}]}, "b.json")
    with pytest.raises(Refused):
        baseline_check.index({"results": "none"}, "b.json")


def test_baseline_absent_is_12_and_another_schema_is_15(tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"
    with pytest.raises(MissingArtifact):
        results.load_baseline(tmp_path, path)
    path.write_bytes(json.dumps({"schema": results.RESULT, "results": []}).encode())
    with pytest.raises(Refused, match="incomparable"):
        results.load_baseline(tmp_path, path)
    path.write_text("{not json")
    with pytest.raises(Refused):
        results.load_baseline(tmp_path, path)
    path.write_bytes(json.dumps({"schema": results.BASELINE_SCHEMA, "results": []}).encode())
    assert results.load_baseline(tmp_path, path)["results"] == []


def test_the_shipped_catalogue_is_valid_and_every_entry_runs_the_dispatcher() -> None:
    catalogue = targets.catalogue()
    assert catalogue, "share/commands.yaml names no target"
    names = [t.command for t in catalogue]
    assert len(names) == len(set(names))
    for target in catalogue:
        assert target.argv[: len(targets.executable())] == tuple(targets.executable())
        assert target.klass in ("read-only", "mutating")


def test_an_unknown_or_unpublished_target_is_12() -> None:
    with pytest.raises(MissingArtifact, match="unknown target nosuch"):
        targets.select(["nosuch"], ["version"])
    with pytest.raises(MissingArtifact):
        targets.select(["version"], [])  # in the catalogue, but not public
    assert [t.command for t in targets.select([], ["version"])] == ["version"]


def test_peak_memory_is_the_child_s_own(tmp_path: Path) -> None:
    small = measure.run((sys.executable, "-c", "pass"), tmp_path, {})
    big = measure.run(
        (
            sys.executable,
            "-c",
            "b = bytearray(80 * 1024 * 1024); b[::4096] = b'x' * len(b[::4096])",
        ),
        tmp_path,
        {},
    )
    assert small.code == 0 and big.code == 0
    assert small.peak_kb < 40 * 1024  # not this (larger) test process
    assert big.peak_kb > small.peak_kb + 70 * 1024
    assert big.ms > 0


def test_cpu_time_is_the_child_s_and_its_children_s_not_the_wall_s(tmp_path: Path) -> None:
    spin = "sum(range(3 * 10**6))"
    busy = measure.run((sys.executable, "-c", spin), tmp_path, {})
    idle = measure.run((sys.executable, "-c", "import time; time.sleep(0.3)"), tmp_path, {})
    child = "import subprocess, sys; subprocess.run([sys.executable, '-c', 'sum(range(10**7))'])"
    parent = measure.run((sys.executable, "-c", child), tmp_path, {})
    assert busy.cpu_ms > 20
    assert idle.ms > 300 and idle.cpu_ms < idle.ms - 200  # sleeping is wall time, not CPU
    assert parent.cpu_ms > 100  # the parent only waits: its reaped child's CPU (a git call's)


def test_exit_code_and_last_stderr_line_are_kept(tmp_path: Path) -> None:
    code = "import sys; sys.stderr.write('first\\nbroken: why\\n'); sys.exit(7)"
    sample = measure.run((sys.executable, "-c", code), tmp_path, {})
    assert (sample.code, sample.said) == (7, "broken: why")
    missing = measure.run(("/nonexistent/tool",), tmp_path, {})
    assert missing.code == 127


def _perf_row(
    command: str, scenario: str, p50: float, klass: str = "read-only"
) -> dict[str, object]:
    return {
        "command": command,
        "scenario": scenario,
        "mode": "warm",
        "class": klass,
        "status": "ok",
        "p50_ms": p50,
        "p95_ms": p50 * 1.5,
        "rss_max_kb": 20480,
    }


def test_performance_tables_targets_and_growth() -> None:
    from mj_watch.bench import markdown

    doc = {
        "recorded_at": "2026-11-29T19:00:00Z",
        "repository": {"commit": "a" * 40},
        "environment": {
            "os": "Linux",
            "arch": "x86_64",
            "cpus": 2,
            "python": "3.11.7",
            "git": "2.39.5",
            "load": [0.1, 0.2, 0.3],
        },
        "profile": {"samples": 10, "warmup": 2},
        "results": [
            _perf_row("floor:python", "fixture large", 20.0),
            _perf_row("check", "fixture large", 100.0),
            _perf_row("watch", "fixture large", 500.0),
            _perf_row("start", "fixture large", 300.0, "mutating"),
            _perf_row("update --check", "fixture large", 180.0),
            _perf_row("check", "fixture large×4", 220.0),
        ],
    }
    lines = list(markdown.document(doc))
    assert "| check | read-only | 100.0 | 5.0 | 150.0 | 7.5 | 20.0 | 150 | yes |" in lines
    assert "| watch | read-only | 500.0 | 25.0 | 750.0 | 37.5 | 20.0 | 400 | NO |" in lines
    assert "| start | mutating | 300.0 | 15.0 | 450.0 | 22.5 | 20.0 | | |" in lines
    assert "| update --check | read-only | 180.0 | 9.0 | 270.0 | 13.5 | 20.0 | 200 | yes |" in lines
    assert "### growth: fixture large → ×4" in lines
    assert "| check | 100.0 | 220.0 | 2.20 |" in lines
    host = "a\r\n<!-- bench:begin x -->\nold\n<!-- bench:end -->\r\nz"
    assert markdown.splice(host, "P.md", "T") == "a\r\nT\r\nz"


@pytest.mark.parametrize(
    ("host", "said"),
    [
        ("no markers\n", "P.md: no '<!-- bench:begin … -->' and '<!-- bench:end -->' markers"),
        ("<!-- bench:begin -->\nold\n", "P.md:1: unclosed region"),
        ("<!-- bench:end -->\n<!-- bench:begin -->\n", "P.md:1: end marker before"),
        ("<!-- bench:begin -->\n<!-- bench:begin -->\n<!-- bench:end -->\n", "P.md:2: repeated"),
    ],
)
def test_markdown_splice_refuses_a_host_without_one_region(host: str, said: str) -> None:
    from mj_watch.bench import markdown

    with pytest.raises(Refused) as refused:
        markdown.splice(host, "P.md", "T")
    assert refused.value.message.startswith(said)
