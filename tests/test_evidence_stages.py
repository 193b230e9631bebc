"""`evidence` is facts | judge | writer: `mj-state evidence-facts | mj-state evidence-judge |
mj-state evidence-write`.

The judge reads its fact and runs nothing, so every refusal is made before a command runs. The
writer takes no verdict on trust: before it runs anything it gathers the facts again for the
verdict's own options and judges them again, so a verdict edited after judging (another
command to run, a result or hash written in, another task, inputs that changed since) runs
nothing and writes no ledger line (15).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Repo
from conftest import forged
from conftest import judged

LEDGER = ".ai/local/state/ledger.jsonl"
PROBE = "ran.txt"  # what a forged command would leave behind


@pytest.fixture
def repo(layer_repo: Repo) -> Repo:
    layer_repo.write("src/a.py", "x = 1\n")
    layer_repo.write("tests/test_a.py", "def test_a():\n    pass\n")
    layer_repo.write("docs/guide.md", "# Guide\n")
    layer_repo.commit("code")
    result = layer_repo.mj("start", "fix a", "--scope", "src,tests", "--requires", "tests,docs")
    assert result.code == 0, result
    return layer_repo


def _stream(repo: Repo, *args: str) -> list[dict[str, object]]:
    return judged(repo, "mj-state", "evidence-facts", "evidence-judge", *args)


def _evidence(repo: Repo) -> list[dict[str, object]]:
    text = (repo.root / LEDGER).read_text()
    return [v for v in map(json.loads, text.splitlines()) if v["event"] == "task.evidence"]


def test_the_stages_write_what_the_command_writes(repo: Repo) -> None:
    printed = repo.mj("evidence", "--covers", "tests", "--command", "true", "--pipeline").out
    assert printed.strip() == (
        "mj-state evidence-facts --covers tests --command true | mj-state evidence-judge"
        " | mj-state evidence-write"
    )
    done = repo.shell(printed.strip())
    assert done.code == 0, done
    (line,) = _evidence(repo)
    assert line["covers"] == "tests" and line["result"] == "pass" and line["command"] == "true"
    assert line["kind"] == "command" and isinstance(line["inputs_hash"], str)


def _forgeries(stream: list[dict[str, object]]) -> list[tuple[dict[str, object], str]]:
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    given = dict(verdict["given"])  # type: ignore[call-overload]
    touch = [["python3", "-c", f"open({PROBE!r}, 'w').write('x')"]]
    return [
        ({"argvs": touch}, "not what this checkout gives now"),
        ({"argvs": touch, "given": {**given, "command": "true; touch ran.txt"}}, "shell"),
        ({"inputs_hash": "0" * 64}, "not what this checkout gives now"),
        ({"task_id": "t-20260101000000-abcd"}, "not what this checkout gives now"),
        ({"given": {**given, "covers": "implementation"}}, "did not promise 'implementation'"),
        ({"type": "artifact"}, "not what this checkout gives now"),
    ]


@pytest.mark.parametrize("index", range(6))
def test_an_edited_verdict_runs_nothing_and_writes_nothing(repo: Repo, index: int) -> None:
    stream = _stream(repo, "--covers", "tests", "--command", "false")
    changed, said = _forgeries(stream)[index]
    before = (repo.root / LEDGER).read_bytes()
    result = repo.run("mj-state", "evidence-write", stdin=forged(stream, **changed))
    assert result.code in (2, 15) and said in result.err, result
    assert result.err.count("\n") == 1, result
    assert (repo.root / LEDGER).read_bytes() == before
    assert not (repo.root / PROBE).exists()


def test_an_artifact_verdict_cannot_carry_a_hash_or_result_of_its_own(repo: Repo) -> None:
    stream = _stream(repo, "--covers", "docs", "--artifact", "docs/guide.md")
    before = (repo.root / LEDGER).read_bytes()
    for changed in ({"artifact_hash": "f" * 64}, {"result": "fail"}, {"artifact": "src/a.py"}):
        result = repo.run("mj-state", "evidence-write", stdin=forged(stream, **changed))
        assert result.code == 15 and "nothing was run or written" in result.err, (changed, result)
        assert (repo.root / LEDGER).read_bytes() == before
    done = repo.run("mj-state", "evidence-write", stdin=forged(stream))
    assert done.code == 0, done
    (line,) = _evidence(repo)
    assert line["artifact"] == "docs/guide.md" and line["result"] == "pass"


def test_a_verdict_judged_before_its_inputs_changed_is_refused(repo: Repo) -> None:
    stream = _stream(repo, "--covers", "tests", "--command", "true")
    repo.write("tests/test_a.py", "def test_a():\n    assert False\n")  # after judging
    before = (repo.root / LEDGER).read_bytes()
    result = repo.run("mj-state", "evidence-write", stdin=forged(stream))
    assert result.code == 15 and "not what this checkout gives now" in result.err, result
    assert (repo.root / LEDGER).read_bytes() == before


def test_the_judge_refuses_before_anything_runs(repo: Repo, tmp_path: Path) -> None:
    """The judge's refusals come from the fact alone: a token not promised is 15 whatever the
    command, and the command is never run."""
    facts = repo.run("mj-state", "evidence-facts", "--covers", "implementation", "--command",
                     f"python3 -c \"open('{PROBE}', 'w')\"")  # fmt: skip
    assert facts.code == 0, facts
    judged = repo.run("mj-state", "evidence-judge", stdin=facts.out)
    assert judged.code == 15 and "did not promise 'implementation'" in judged.err, judged
    assert not (repo.root / PROBE).exists()


def test_the_judge_without_its_fact_is_12(repo: Repo) -> None:
    other = repo.run("mj-state", "checkpoint-facts", stdin="x\n")
    result = repo.run("mj-state", "evidence-judge", stdin=other.out)
    assert result.code == 12 and "mj-state evidence-facts" in result.err, result
