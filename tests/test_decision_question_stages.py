"""`decision add`, `question add` and `question resolve` are facts | judge | writer.

Each judge reads its one fact and never the repository. Each writer takes no verdict on trust:
under the file's lock it reads the log or index and this checkout's active task itself and
judges the verdict again, so a verdict edited after judging (another task or HEAD, a redaction
undone by hand, a question that is not the one its number names) or replayed (written once
already, or a resolve judged before another resolve of the same question) writes nothing: no
entry, no line, no ledger line.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe
from conftest import files_under
from conftest import forged
from conftest import judged

STATE = ".ai/local/state"
SHAPED = "AKIA" + "Q7" * 8  # shaped like an access key id: a credential to the detector


def _start(repo: Repo) -> None:
    assert repo.mj("start", "ask and decide", "--scope", "lib").code == 0


def _stream(repo: Repo, command: str, *args: str) -> list[dict[str, object]]:
    """The judge's stream for `<command> <args>`, as a worker would capture it."""
    return judged(repo, "mj-state", f"{command}-facts", f"{command}-judge", *args)


def _write(repo: Repo, command: str, stdin: str) -> tuple[int, str, bool]:
    """(exit code, stderr, whether the state directory changed) of the writer fed `stdin`."""
    before = files_under(repo, STATE)
    result = repo.run("mj-state", f"{command}-write", stdin=stdin)
    return result.code, result.err, files_under(repo, STATE) != before


@pytest.mark.parametrize(
    ("args", "printed"),
    [
        (
            ("decision", "add", "use tabs", "--why", "taste"),
            "mj-state decision-add-facts --why taste 'use tabs' | mj-state decision-add-judge"
            " | mj-state decision-add-write",
        ),
        (
            ("question", "add", "why?"),
            "mj-state question-add-facts 'why?' | mj-state question-add-judge"
            " | mj-state question-add-write",
        ),
        (
            ("question", "resolve", "1", "--answer", "yes"),
            "mj-state question-resolve-facts --answer yes 1 | mj-state question-resolve-judge"
            " | mj-state question-resolve-write",
        ),
    ],
)
def test_each_is_printed_as_three_stages(
    layer_repo: Repo, args: tuple[str, ...], printed: str
) -> None:
    assert layer_repo.mj(*args, "--pipeline").out.strip() == printed


@pytest.mark.parametrize(
    "changed",
    [
        {"task": "t-20260101000000-abcd"},
        {"head": "0" * 40},
        {"why": f"key {SHAPED}"},  # the redaction the judge made, undone by hand
        {"supersedes": "a decision never recorded"},
        {"seen": 99},
    ],
    ids=["task", "head", "unredacted", "supersedes", "seen"],
)
def test_an_edited_decision_verdict_writes_nothing(
    layer_repo: Repo, changed: dict[str, object]
) -> None:
    _start(layer_repo)
    stream = _stream(layer_repo, "decision-add", "tabs", "--why", f"key {SHAPED}", "--redact")
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    assert verdict["why"] == "key [REDACTED]" and verdict["task"] != "-"
    code, err, wrote = _write(layer_repo, "decision-add", forged(stream, **changed))
    assert code == 15 and err.count("\n") == 1 and not wrote, (code, err)
    assert SHAPED not in err


def test_a_decision_verdict_is_written_once(layer_repo: Repo) -> None:
    stream = forged(_stream(layer_repo, "decision-add", "tabs", "--why", "taste"))
    code, err, wrote = _write(layer_repo, "decision-add", stream)
    assert code == 0 and wrote, err
    assert layer_repo.mj("decision", "add", "spaces", "--why", "other").code == 0
    code, err, wrote = _write(layer_repo, "decision-add", stream)
    assert code == 15 and "a replay" in err and not wrote, err
    log = (layer_repo.root / STATE / "decisions.md").read_text()
    assert log.count("— tabs\n") == 1 and "— spaces\n" in log


def test_an_honest_decision_judged_before_another_is_still_written(layer_repo: Repo) -> None:
    """Another decision added between judging and writing is not a reason to refuse."""
    stream = forged(_stream(layer_repo, "decision-add", "tabs", "--why", "taste"))
    assert layer_repo.mj("decision", "add", "spaces", "--why", "other").code == 0
    code, err, wrote = _write(layer_repo, "decision-add", stream)
    assert code == 0 and wrote, err
    listed = layer_repo.mj("decision", "list", "--json").out.splitlines()
    titles = [json.loads(line).get("title") for line in listed]
    assert titles[:2] == ["tabs", "spaces"]


@pytest.mark.parametrize(
    ("changed", "refused"),
    [
        ({"task_id": "t-20260101000000-abcd"}, 15),
        ({"question": f"why {SHAPED}?"}, 15),
        ({"seen": 99}, 15),
        ({"question": "why? — because"}, 2),  # the command's own refusal, judged again
    ],
    ids=["task", "unredacted", "seen", "separator"],
)
def test_an_edited_question_verdict_writes_nothing(
    layer_repo: Repo, changed: dict[str, object], refused: int
) -> None:
    _start(layer_repo)
    stream = _stream(layer_repo, "question-add", f"why {SHAPED}?", "--redact")
    code, err, wrote = _write(layer_repo, "question-add", forged(stream, **changed))
    assert code == refused and err.count("\n") == 1 and not wrote, (code, err)
    assert SHAPED not in err


def test_a_question_verdict_is_written_once(layer_repo: Repo) -> None:
    _start(layer_repo)
    stream = forged(_stream(layer_repo, "question-add", "why?"))
    assert _write(layer_repo, "question-add", stream)[0] == 0
    code, err, wrote = _write(layer_repo, "question-add", stream)
    assert code == 15 and "a replay" in err and not wrote, err
    listed = layer_repo.mj("question", "list", "--json").out.splitlines()
    assert [json.loads(line).get("question") for line in listed][:2] == ["why?", None]


def test_a_resolve_judged_before_another_resolve_writes_nothing(layer_repo: Repo) -> None:
    _start(layer_repo)
    for asked in ("which one?", "which way?"):
        assert layer_repo.mj("question", "add", asked).code == 0
    stream = forged(_stream(layer_repo, "question-resolve", "which one", "--answer", "the first"))
    assert layer_repo.mj("question", "resolve", "1", "--answer", "that").code == 0
    code, err, wrote = _write(layer_repo, "question-resolve", stream)
    assert code == 15 and "question 1 is already resolved" in err and not wrote, err
    index = (layer_repo.root / STATE / "open-questions.md").read_text()
    assert "which one? — that" in index and "the first" not in index


@pytest.mark.parametrize(
    "changed",
    [
        {"number": 2},  # the other question's number, this one's text
        {"question": "which way?"},
        {"answer": f"key {SHAPED}"},
        {"task_id": "t-20260101000000-abcd"},
    ],
    ids=["number", "question", "unredacted", "task"],
)
def test_an_edited_resolve_verdict_writes_nothing(
    layer_repo: Repo, changed: dict[str, object]
) -> None:
    _start(layer_repo)
    for asked in ("which one?", "which way?"):
        assert layer_repo.mj("question", "add", asked).code == 0
    stream = _stream(layer_repo, "question-resolve", "1", "--answer", f"key {SHAPED}", "--redact")
    code, err, wrote = _write(layer_repo, "question-resolve", forged(stream, **changed))
    assert code == 15 and err.count("\n") == 1 and not wrote, (code, err)
    assert SHAPED not in err


@pytest.mark.parametrize(
    ("command", "other"),
    [
        ("decision-add", ("question-add-facts", "why?")),
        ("question-add", ("decision-add-facts", "tabs", "--why", "taste")),
        ("question-resolve", ("question-add-facts", "why?")),
    ],
)
def test_a_judge_without_its_fact_stops_with_12(
    layer_repo: Repo, command: str, other: tuple[str, ...]
) -> None:
    """Fed another stage's whole stream (its facts and summary), not its own fact."""
    facts = layer_repo.run("mj-state", *other)
    assert facts.code == 0, facts
    result = layer_repo.run("mj-state", f"{command}-judge", stdin=facts.out)
    assert result.code == 12 and f"mj-state {command}-facts" in result.err, result
    assert result.err.count("\n") == 1


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("decision-add", ("tabs", "--why", "taste", "--supersedes", "spaces")),
        ("question-add", ("why?",)),
        ("question-resolve", ("why", "--answer", "because")),
    ],
)
def test_a_judge_reads_its_facts_and_no_file_of_the_repository(
    layer_repo: Repo, tmp_path: Path, command: str, args: tuple[str, ...]
) -> None:
    _start(layer_repo)
    assert layer_repo.mj("decision", "add", "keep spaces", "--why", "style").code == 0
    assert layer_repo.mj("question", "add", "why not?").code == 0
    facts = layer_repo.run("mj-state", f"{command}-facts", *args)
    given = tmp_path / "facts.jsonl"
    given.write_text(facts.out)
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    here = layer_repo.run("mj-state", f"{command}-judge", str(given))
    away = layer_repo.run("mj-state", f"{command}-judge", str(given), cwd=nowhere)
    assert here.code == away.code == 0 and here.out == away.out, (here, away)
    strace = shutil.which("strace")
    if strace is None:
        return
    log = tmp_path / "opened"
    argv = [strace, "-f", "-e", "trace=open,openat", "-o", str(log)]
    command_line = [*argv, exe("mj-state"), f"{command}-judge", str(given)]
    subprocess.run(
        command_line, cwd=layer_repo.root, env=layer_repo.env, capture_output=True, check=True
    )
    root = str(layer_repo.root.resolve())
    opened = [line for line in log.read_text().splitlines() if f'"{root}/' in line]
    assert opened == [], opened
