"""docs/ARCHITECTURE.md's "Add a doctor check" recipe, followed: a check over the facts, one
line appended to `doctor.CHECKS`, judged on a facts file a test wrote — and the recipe still
names the files these steps touch."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mj_core.findings import Finding
from mj_core.stream import protocol as streams
from mj_watch import cli
from mj_watch.doctor import judge as doctor
from mj_watch.doctor.facts_view import Facts

ROOT = Path(__file__).resolve().parents[3]
RECIPE = ROOT / "docs" / "ARCHITECTURE.md"


def git_is_recent(facts: Facts) -> Iterator[Finding]:
    """Step 1: a pure check that reads one fact (`env`, which doctor's facts stage gathers)."""
    version = str(facts.get("env").get("git") or "")
    major, _, rest = version.partition(".")
    if (int(major or 0), int(rest.partition(".")[0] or 0)) < (2, 30):
        yield Finding("FAIL", "env", "git", f"git {version} is older than 2.30", "git --version")
    else:
        yield Finding("OK", "env", "git", f"git {version}")


def _facts(git_version: str) -> bytes:
    records: list[dict[str, Any]] = [
        {"kind": "fact", "fact": "doctor", "root": "/nowhere", "prove": False},
        {"kind": "fact", "fact": "env", "python": "3.11.7", "git": git_version, "tools": {}},
        streams.summary("mj-watch facts", 0, {"fact": 2}),
    ]
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def _judge(data: bytes, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[int, list[Any]]:
    # Step 2: one line appended to CHECKS; doctor runs only that line here, as the recipe's
    # test should: the other checks are the other tests' business.
    monkeypatch.setattr(doctor, "CHECKS", [(None, git_is_recent)])
    monkeypatch.chdir(tmp_path)  # a judge reads its facts, not a repository
    out = io.BytesIO()
    code = cli.main(["doctor"], stdin=io.BytesIO(data), stdout=out, stderr=io.StringIO())
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_check_added_by_the_recipe_runs_on_hand_written_facts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    code, stream = _judge(_facts("2.20.1"), monkeypatch, tmp_path)
    assert code == 10
    (finding,) = [r for r in stream if r.get("kind") == "finding"]
    assert finding["level"] == "FAIL" and finding["message"] == "git 2.20.1 is older than 2.30"
    assert finding["reproduce"] == "git --version"
    code, stream = _judge(_facts("2.39.5"), monkeypatch, tmp_path)
    assert code == 0 and [r["level"] for r in stream if r.get("kind") == "finding"] == ["OK"]


def test_the_recipe_names_what_the_steps_touch() -> None:
    text = RECIPE.read_text(encoding="utf-8")
    recipe = text.split("**Add a doctor check.**", 1)[1].split("**Add a provider.**", 1)[0]
    for named in (
        "mj_watch/doctor/judge.py",
        "CHECKS",
        "(Facts) -> Iterable[Finding]",
        "mj_watch/doctor/facts.py",
        "share/schemas/pipeline/fact.json",
        "test_recipes.py",
    ):
        assert named in recipe, named
    assert (ROOT / "packages/mj-watch/src/mj_watch/doctor/judge.py").read_text().count(
        "CHECKS"
    ) >= 2
