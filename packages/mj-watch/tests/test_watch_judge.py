"""watch's judge over facts: hand-written facts files (`tests/watchfacts/*.jsonl`), each
merged into the facts gathered from a clean repository, with their exact drift and exit code;
and the judge on a saved facts file with the repository gone says the same."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mj_core import timing
from mj_core.stream import protocol as streams
from mj_policy.layer import init_write
from mj_watch import cli
from mj_watch.watch import gather as watchgather

Record = dict[str, Any]
FACTS = Path(__file__).parent / "watchfacts"
BIN = Path(sys.executable).parent
ENV = {**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}


def _repository(root: Path) -> Path:
    """A layer as `init` + `update` leave it (as in test_doctor_judge)."""
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, env=ENV, check=True)
    list(init_write.create(root, extend=False))
    stream = b""
    for stage in ("update-facts", "update-judge", "update-write"):  # `update`, without its log
        tool = [str(BIN / "mj-policy"), stage]
        ran = subprocess.run(tool, cwd=root, env=ENV, input=stream, check=True, capture_output=True)
        stream = ran.stdout
    return root


def overlaid(records: list[Record], changes: list[Record]) -> list[Record]:
    """Each change's keys laid over the gathered fact of its name (one level deep)."""
    out = list(records)
    for change in changes:
        index = next(i for i, r in enumerate(out) if r.get("fact") == change["fact"])
        out[index] = {**out[index], **change}
    return out


@pytest.fixture(autouse=True)
def _fresh_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing, "elapsed_ms", lambda: 0.0)  # watch's own time is no case's


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    root = _repository(tmp_path_factory.mktemp("repo"))
    return json.loads(json.dumps(list(watchgather.gather(root))))


def judge(records: list[Record], tmp_path: Path) -> tuple[list[tuple[Any, ...]], int]:
    """`mj-watch watch FILE` on the records saved as a facts file: (drift, code)."""
    saved = tmp_path / "facts.jsonl"
    ended = [*records, streams.summary("mj-watch facts", 0, {})]
    saved.write_text("".join(json.dumps(r) + "\n" for r in ended), encoding="utf-8")
    out = io.BytesIO()
    code = cli.main(["watch", str(saved)], stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    found = [
        (r["category"], r["subject"], r["message"], r.get("reproduce"))
        for r in lines
        if r["kind"] == "finding" and r["level"] == "DRIFT"
    ]
    return found, code


def test_the_gathered_facts_of_a_clean_layer_show_no_drift(
    base: list[Record], tmp_path: Path
) -> None:
    assert judge(base, tmp_path) == ([], 0)


CASES = {
    "foreign-record": [
        (
            "records",
            ".ai/local/state/checkpoints/20260101T000000Z.md",
            "checkpoint written in worktrees/elsewhere, not in this worktree",
            "grep -n '^worktree' .ai/local/state/checkpoints/20260101T000000Z.md",
        )
    ],
    "broken-prompt": [
        (
            "prompts",
            ".ai/repo/prompts/resume.md",
            ".ai/repo/prompts/resume.md:2:1: name must equal the file stem 'resume'",
            "grep -nF -e '{{' .ai/repo/prompts/resume.md || head -n 5 .ai/repo/prompts/resume.md",
        )
    ],
}


def _case(name: str) -> list[Record]:
    text = (FACTS / f"{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hand_written_case_has_its_exact_drift(
    base: list[Record], tmp_path: Path, name: str
) -> None:
    assert judge(overlaid(base, _case(name)), tmp_path) == (CASES[name], 11)


def test_a_projection_the_layer_now_gives_other_text_is_policy_drift(
    base: list[Record], tmp_path: Path
) -> None:
    """Only the target whose text the layer changed drifts, as `update --check` judges it."""
    records = json.loads(json.dumps(base))
    told = next(r for r in records if r.get("fact") == "targets")["targets"]["AGENTS.md"]
    told["rendered"]["generated"] = "# AGENTS.md\n\nThe layer gives other text now.\n"
    found, code = judge(records, tmp_path)
    assert code == 11
    [(category, subject, message, reproduce)] = found
    assert (category, subject) == ("policy", "AGENTS.md")
    assert message.startswith("would change (stale)")
    assert reproduce == "majordomus update --diff AGENTS.md"


def test_every_case_file_is_a_case() -> None:
    assert sorted(p.stem for p in FACTS.glob("*.jsonl")) == sorted(CASES)


def test_the_judge_reads_the_facts_file_alone(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    root = _repository(tmp_path / "repo")
    saved = tmp_path / "facts.jsonl"
    with saved.open("wb") as out:
        facts = [str(BIN / "mj-watch"), "facts", "--for", "watch"]
        subprocess.run(facts, cwd=root, env=ENV, check=True, stdout=out)
    watch = [str(BIN / "mj-watch"), "watch", str(saved)]
    here = subprocess.run(watch, cwd=root, env=ENV, capture_output=True, check=False)
    shutil.rmtree(root)
    empty = tmp_path / "empty"
    empty.mkdir()
    alone = subprocess.run(watch, cwd=empty, env=ENV, capture_output=True, check=False)
    assert (alone.returncode, alone.stdout, alone.stderr) == (here.returncode, here.stdout, b"")
    assert b'"category":"ledger"' in here.stdout and here.returncode == 0
