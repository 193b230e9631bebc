"""`majordomus bench` (CLI-REFERENCE §2.28) as a whole process in scratch repositories.

Run through the installed `majordomus bench` (the progress test uses `python -m mj_watch.bench`,
the entry `tox -e bench` calls); the measured targets here are the cheap ones (`version` and
the start-up floor) so the suite stays quick.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from conftest import Repo
from conftest import Result
from conftest import exe

QUICK = ("--samples", "3", "--warmup", "0")


def bench(repo: Repo, *args: str) -> Result:
    proc = subprocess.run(
        [exe("majordomus"), "bench", *args],
        cwd=repo.root,
        env=repo.env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


def _doctor(repo: Repo, path: str, factor: float) -> None:
    """Scale every figure of the baseline at `path` by `factor` (a doctored baseline)."""
    target = repo.root / path
    doc = json.loads(target.read_text())
    for row in doc["results"]:
        for key in ("p50_ms", "p95_ms", "p99_ms"):
            row[key] = round(row[key] * factor, 3)
    target.write_text(json.dumps(doc))


def test_json_run_carries_schema_environment_commit_and_statistics(git_repo: Repo) -> None:
    result = bench(git_repo, "version", "floor:python", *QUICK, "--format", "json", "--no-save")
    assert result.code == 0, result
    doc = json.loads(result.out)
    assert doc["schema"] == "majordomus/benchmark-result/v1"
    assert doc["run_id"].startswith("b-")
    assert doc["repository"]["commit"] == git_repo.git("rev-parse", "HEAD").strip()
    assert doc["environment"]["cpus"] >= 1
    assert doc["profile"] == {"samples": 3, "warmup": 0, "mode": "warm"}
    assert [r["command"] for r in doc["results"]] == ["floor:python", "version"]
    for row in doc["results"]:
        assert row["status"] == "ok" and row["samples"] == 3
        assert row["min_ms"] <= row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"] <= row["max_ms"]
        assert 1024 < row["rss_max_kb"] < 1024 * 1024
    assert not (git_repo.root / ".ai").exists()  # --no-save, and no layer here anyway


def test_text_table_and_cold_mode(git_repo: Repo) -> None:
    result = bench(git_repo, "version", *QUICK, "--mode", "both")
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[1].split()[:4] == ["command", "scenario", "mode", "status"]
    assert [line.split()[:3] for line in lines[2:4]] == [
        ["version", "repository", "cold"],
        ["version", "repository", "warm"],
    ]
    assert "results: not kept" in result.out  # a repository without a layer keeps nothing


def test_unknown_target_is_12_and_bad_arguments_are_2(git_repo: Repo) -> None:
    unknown = bench(git_repo, "nosuch", *QUICK)
    assert unknown.code == 12, unknown
    assert "unknown target nosuch" in unknown.err
    assert len(unknown.err.splitlines()) == 1
    assert bench(git_repo, "--samples", "0").code == 2
    assert bench(git_repo, "--force").code == 2  # --force only with --write-baseline


def test_baseline_needs_a_clean_tree_unless_forced(git_repo: Repo) -> None:
    git_repo.write("untracked.txt", "dirty\n")
    refused = bench(git_repo, "version", *QUICK, "--write-baseline", "--baseline", "b.json")
    assert refused.code == 15, refused
    assert "dirty" in refused.err
    assert not (git_repo.root / "b.json").exists()
    forced = bench(
        git_repo, "version", *QUICK, "--write-baseline", "--force", "--baseline", "b.json"
    )
    assert forced.code == 0, forced
    doc = json.loads((git_repo.root / "b.json").read_text())
    assert doc["schema"] == "majordomus/benchmark-baseline/v1"
    assert [r["command"] for r in doc["results"]] == ["version"]


def test_check_fails_a_fast_doctored_baseline_and_passes_a_slow_one(git_repo: Repo) -> None:
    args = ("version", "--samples", "7", "--warmup", "1", "--baseline", "bench/baseline.json")
    written = bench(git_repo, *args, "--write-baseline")
    assert written.code == 0, written
    # a baseline 10× slower than recorded: room for the noise of a loaded machine (seven samples
    # of a 30 ms process beside the rest of the suite can cross any tolerance the policy allows)
    _doctor(git_repo, "bench/baseline.json", 10.0)
    honest = bench(git_repo, *args, "--check")
    assert honest.code == 0, honest
    assert "OK   bench       version [repository, warm]" in honest.out
    _doctor(git_repo, "bench/baseline.json", 0.0025)  # now 100× faster than was recorded
    regressed = bench(git_repo, *args, "--check")
    assert regressed.code == 10, regressed
    [fail] = [line for line in regressed.out.splitlines() if line.startswith("FAIL")]
    assert "p50" in fail and "p95" in fail and "p99" in fail
    assert fail.endswith(
        "[reproduce: majordomus bench version --check --baseline bench/baseline.json]"
    )
    reported = bench(git_repo, *args, "--check", "--report-only")
    assert reported.code == 0, reported
    assert "bench: verdict 10 (CONTRACT_UNMET) — reported only, exit 0" in reported.out


def test_check_without_a_baseline_is_12_and_another_schema_is_15(git_repo: Repo) -> None:
    missing = bench(git_repo, "version", *QUICK, "--check", "--baseline", "none.json")
    assert missing.code == 12, missing
    assert "none.json: no baseline" in missing.err
    git_repo.write("other.json", json.dumps({"schema": "majordomus/benchmark-result/v1"}))
    other = bench(git_repo, "version", *QUICK, "--check", "--baseline", "other.json")
    assert other.code == 15, other
    assert "incomparable" in other.err
    assert (
        bench(
            git_repo, "version", *QUICK, "--check", "--report-only", "--baseline", "none.json"
        ).code
        == 0
    )


def test_list_names_the_targets_and_their_class(git_repo: Repo) -> None:
    listed = bench(git_repo, "--list")
    assert listed.code == 0, listed
    names = [line.split()[0] for line in listed.out.splitlines()]
    assert names[:2] == ["floor:python", "floor:import"]
    assert "version" in names


def test_baseline_outside_the_repository_is_refused(git_repo: Repo, tmp_path: Path) -> None:
    outside = str(tmp_path / "elsewhere.json")
    result = bench(git_repo, "version", *QUICK, "--write-baseline", "--baseline", outside)
    assert result.code == 15, result
    assert not Path(outside).exists()


def test_runs_are_kept_under_the_layer_and_the_default_baseline_is_tracked(
    layer_repo: Repo,
) -> None:
    first = bench(layer_repo, "version", *QUICK)
    assert first.code == 0, first
    second = bench(layer_repo, "version", *QUICK)
    assert second.code == 0, second
    base = layer_repo.root / ".ai/local/benchmarks"
    runs = sorted((base / "runs").glob("b-*.json"))
    assert len(runs) == 2
    latest = json.loads((base / "latest.json").read_text())
    assert latest["schema"] == "majordomus/benchmark-result/v1"
    assert f"results: .ai/local/benchmarks/runs/{latest['run_id']}.json" in second.out
    history = [json.loads(line) for line in (base / "history.jsonl").read_text().splitlines()]
    # history keeps the order the runs happened in (two runs may share a second, so file names
    # alone do not order them): the ids each run printed, first then second
    printed = [re.search(r"runs/(b-[^ ]+)\.json", r.out).group(1) for r in (first, second)]
    assert [h["run_id"] for h in history] == printed
    assert sorted(printed) == [json.loads(p.read_text())["run_id"] for p in runs]
    assert layer_repo.git("status", "--porcelain") == ""  # runs live in the ignored half
    written = bench(layer_repo, "version", *QUICK, "--write-baseline")
    assert written.code == 0, written
    baseline = json.loads((layer_repo.root / ".ai/repo/benchmarks/baseline.json").read_text())
    assert baseline["schema"] == "majordomus/benchmark-baseline/v1"
    assert layer_repo.git("status", "--porcelain").strip() == "?? .ai/repo/benchmarks/"


def test_mutating_targets_never_touch_the_measured_repository(layer_repo: Repo) -> None:
    result = bench(layer_repo, "checkpoint", *QUICK, "--no-save")
    assert result.code == 0, result
    assert "checkpoint          repository" in result.out
    assert list((layer_repo.root / ".ai/local/state/checkpoints").glob("*.md")) == []
    assert layer_repo.git("status", "--porcelain") == ""


def test_the_targets_that_were_tests_perf_run_and_leave_the_repository_alone(
    layer_repo: Repo,
) -> None:
    names = ("handover --resolve", "update after init", "update --check", "floor:loop")
    result = bench(layer_repo, *names, *QUICK, "--no-save", "--format", "json")
    assert result.code == 0, result
    rows = {r["command"]: r for r in json.loads(result.out)["results"]}
    assert set(rows) == set(names)
    assert all(r["status"] == "ok" for r in rows.values()), rows
    assert [rows[n]["class"] for n in names] == ["read-only", "mutating", "read-only", "read-only"]
    assert rows["floor:loop"]["cpu_p50_ms"] > 0  # the machine's scale, in CPU time
    assert layer_repo.git("status", "--porcelain") == ""


def test_small_fixture_is_a_fresh_layer_and_init_runs_in_empty_repositories(
    git_repo: Repo,
) -> None:
    result = bench(git_repo, "init", "doctor", *QUICK, "--fixture", "small", "--format", "json")
    assert result.code == 0, result
    doc = json.loads(result.out)
    rows = {r["command"]: r for r in doc["results"]}
    assert set(rows) == {"init", "doctor"}
    assert {r["scenario"] for r in rows.values()} == {"fixture small"}
    assert rows["init"]["class"] == "mutating" and rows["doctor"]["class"] == "read-only"
    assert all(r["status"] == "ok" for r in rows.values())


def test_a_target_that_fails_its_run_is_13_naming_it(git_repo: Repo) -> None:
    # `doctor` in a repository without a layer exits 12, which its target does not accept
    result = bench(git_repo, "doctor", *QUICK)
    assert result.code == 13, result
    assert "target doctor failed in repository: exit-12" in result.err
    assert "exit-12" in result.out


def test_markdown_tables_read_against_the_floor(git_repo: Repo) -> None:
    git_repo.write(
        "docs/PERFORMANCE.md", "# Prose\n\n<!-- bench:begin -->\nold\n<!-- bench:end -->\nEnd.\n"
    )
    args = ("version", "floor:python", *QUICK, "--fixture", "small")
    result = bench(git_repo, *args, "--no-save", "--markdown", "docs/PERFORMANCE.md")
    assert result.code == 0, result
    text = (git_repo.root / "docs/PERFORMANCE.md").read_text()
    assert text.startswith("# Prose\n\n<!-- bench:begin — generated by `majordomus bench version")
    assert text.endswith("<!-- bench:end -->\nEnd.\n")
    assert "old" not in text
    assert "### fixture small\n" in text
    assert "| command | class | median ms | × floor | p95 ms | × floor | peak MB |" in text
    [floor] = [line for line in text.splitlines() if line.startswith("| floor:python |")]
    assert "| 1.0 |" in floor  # the floor is one floor


def test_progress_goes_to_a_terminal_stderr_only(git_repo: Repo) -> None:
    import os
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.run(
        [exe("python"), "-m", "mj_watch.bench", "version", *QUICK, "--no-save"],
        cwd=git_repo.root,
        env=git_repo.env,
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
        check=False,
        timeout=300,
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert proc.returncode == 0
    assert b"repository: version 3/3" in shown
    assert "version 3/3" not in proc.stdout
    piped = bench(git_repo, "version", *QUICK, "--no-save")
    assert piped.err == ""  # not a terminal: no progress at all


def test_an_active_task_here_refuses_the_targets_that_start_one_and_never_breaks(
    layer_repo: Repo,
) -> None:
    assert layer_repo.mj("start", "in the way", "--scope", "src").code == 0
    refused = bench(layer_repo, "check", "start", *QUICK, "--no-save")
    assert refused.code == 15, refused
    assert refused.err.count("\n") == 1 and "is active in this checkout" in refused.err
    assert "check, start" in refused.err and "--fixture" in refused.err
    others = bench(layer_repo, "history", "doctor", *QUICK, "--no-save")
    assert others.code in (0, 10), others  # targets that start nothing still run
    assert "history             repository" in others.out


SESSION_START = "capture session (SessionStart)"


def test_the_session_start_hook_is_measured_only_when_it_opened_the_episode(
    layer_repo: Repo,
) -> None:
    """The hook exits 0 even when it failed (it only logs), so its target `expect`s the open
    episode it writes: with it, a sample counts; where the hook cannot write it (here the
    episodes' directory is a file), the target fails `expect-missing` (13), never a fast
    number for a run that did nothing."""
    result = bench(layer_repo, SESSION_START, *QUICK, "--no-save", "--format", "json")
    assert result.code == 0, result
    (row,) = json.loads(result.out)["results"]
    assert row["command"] == SESSION_START and row["status"] == "ok", row
    assert row["class"] == "mutating" and row["p50_ms"] > 0
    assert not (layer_repo.root / ".ai/local/state/sessions-open").exists()  # a copy's
    layer_repo.write(".ai/local/state/sessions-open", "not a directory\n")
    failed = bench(layer_repo, SESSION_START, *QUICK, "--no-save")
    assert failed.code == 13, failed
    assert f"target {SESSION_START} failed in repository: expect-missing" in failed.err
    assert ".ai/local/state/sessions-open/bench-1.yaml: not written by the run" in failed.out


def test_the_session_start_target_refuses_an_episode_that_was_there_before_the_run(
    layer_repo: Repo,
) -> None:
    """An open episode planted under the target's key would make the hook keep it (no
    episode opened, a faster path) and still leave the expected file: the target fails
    `expect-present` (13) instead."""
    planted = ".ai/local/state/sessions-open/bench-1.yaml"
    layer_repo.write(planted, "session_id: s-20261203000000-abcd\n")
    failed = bench(layer_repo, SESSION_START, *QUICK, "--no-save")
    assert failed.code == 13, failed
    assert f"target {SESSION_START} failed in repository: expect-present" in failed.err
    assert f"{planted}: there before the run" in failed.out
