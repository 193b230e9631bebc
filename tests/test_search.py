"""`majordomus search`: a literal, case-insensitive scan of every kind of durable record.

Every kind is seeded through the commands that write it (or, for the layer's own files, as a
person writes them), then found; no match is 12; `--kind`, `--task`, `--limit` and `--json`
narrow and reshape what is shown; a file that is not UTF-8 is still searched; nothing is
written.
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import Repo

WORD = "Zebrafinch"  # in no shipped file of the layer
HANDOVER = f"# Objective\n{WORD} objective\n# Current State\nok\n# Next Action\nnone\n"
KINDS = (
    "handover",
    "checkpoint",
    "decision",
    "question",
    "prompt",
    "ledger",
    "session",
    "plan",
    "adr",
    "skill",
    "workspace",
    "deployment",
    "knowledge",
)
PROMPT = f"---\nname: probe\ndescription: a {WORD.lower()} probe\n---\n\nAsk about it.\n"
ISSUE = f"id: I001\ntitle: the {WORD} issue\n"
SKILL = f"---\nschema: skill/v1\nid: finch\n---\n\n# Purpose\nCount {WORD}s.\n"
WORKSPACE = f"schema: workspace/v1\nkind: workspace\nid: aviary\ntitle: The {WORD} aviary\n"
DEPLOYMENT = f"schema: deployment/v1\nkind: deployment\nid: feeder\ntitle: The {WORD} feeder\n"
NOTE = f"---\nid: nests\ntitle: Where the {WORD} nests\n---\n\nIn hedges.\n"  # a curated note


@pytest.fixture
def seeded(layer_repo: Repo) -> Repo:
    """A repository where every kind of record says WORD once at least."""
    repo = layer_repo
    repo.write(".ai/repo/prompts/probe.md", PROMPT)
    repo.write(".ai/repo/project/issues/I001.yaml", ISSUE)
    repo.write(".ai/repo/adrs/0001-finches.md", f"# 1. Keep {WORD}s\n")
    repo.write(".ai/repo/skills/finch/SKILL.md", SKILL)
    repo.write(".ai/repo/workspaces/aviary.yaml", WORKSPACE)
    repo.write(".ai/repo/deployments/feeder.yaml", DEPLOYMENT)
    repo.write(".ai/repo/knowledge/curated/nests.md", NOTE)
    repo.commit("layer files")
    steps: list[tuple[tuple[str, ...], str | None]] = [
        (("start", f"count the {WORD}s", "--scope", "lib"), None),
        (("checkpoint",), f"{WORD} progress\n"),
        (("handover",), HANDOVER),
        (("decision", "add", f"keep {WORD}s", "--why", "they sing"), None),
        (("question", "add", f"how many {WORD}s?"), None),
        (("session", "start"), None),
        (("session", "close"), None),
    ]
    for args, stdin in steps:
        result = repo.mj(*args, stdin=stdin)
        assert result.code == 0, (args, result)
    record = next((repo.root / ".ai/repo/sessions").glob("*.md"))
    with record.open("a") as handle:  # what a closing sitting may leave in its body
        handle.write(f"\nA {WORD} was seen.\n")
    return repo


def _matches(result_out: str) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in result_out.splitlines()]
    assert lines[-1]["kind"] == "summary"
    return [line for line in lines[:-1] if line["kind"] == "match"]


def _task(repo: Repo) -> str:
    text = (repo.root / ".ai/local/state/current.yaml").read_text()
    return text.split("id: ", 1)[1].split("\n", 1)[0].strip().strip('"')


def _tree(repo: Repo) -> dict[str, bytes]:
    out = {}
    for path in sorted(repo.root.rglob("*")):
        if path.is_file() and ".git" not in path.relative_to(repo.root).parts:
            out[path.relative_to(repo.root).as_posix()] = path.read_bytes()
    return out


def test_every_kind_is_found_in_authority_order(seeded: Repo) -> None:
    before = _tree(seeded)
    result = seeded.mj("search", WORD.upper(), "--json")
    assert result.code == 0, result
    found = _matches(result.out)
    kinds = list(dict.fromkeys(str(match["of"]) for match in found))
    assert kinds == list(KINDS)
    for match in found:
        path = seeded.root / str(match["path"])
        line = path.read_text(errors="replace").split("\n")[int(str(match["line"])) - 1]
        assert line == match["text"] and WORD.lower() in line.lower()
    assert _tree(seeded) == before  # read-only


def test_the_session_record_is_searched(seeded: Repo) -> None:
    record = next((seeded.root / ".ai/repo/sessions").glob("*.md"))
    result = seeded.mj("search", WORD, "--kind", "session")
    assert result.code == 0, result
    assert result.out.splitlines() == [
        f"session     .ai/repo/sessions/{record.name}:{len(record.read_text().splitlines())}"
        f"  A {WORD} was seen.",
        "search: 1 match(es)",
    ]


def test_text_output_names_kind_path_and_line(seeded: Repo) -> None:
    result = seeded.mj("search", "they sing", "--kind", "decision")
    assert result.code == 0, result
    decisions = (seeded.root / ".ai/local/state/decisions.md").read_text().splitlines()
    number = decisions.index("Why: they sing") + 1
    assert result.out == (
        f"decision    .ai/local/state/decisions.md:{number}  Why: they sing\nsearch: 1 match(es)\n"
    )
    assert result.err == ""


def test_no_match_is_12_with_one_line_on_stderr(seeded: Repo) -> None:
    result = seeded.mj("search", "no such text anywhere")
    assert result.code == 12, result
    assert result.out == ""
    assert result.err == "majordomus: search: no record contains 'no such text anywhere'\n"
    as_json = seeded.mj("search", "no such text anywhere", "--json")
    assert as_json.code == 12
    summary = json.loads(as_json.out.splitlines()[-1])
    assert summary["kind"] == "summary" and summary["exit"] == 12


def test_a_fresh_layer_has_nothing_to_find(layer_repo: Repo) -> None:
    assert layer_repo.mj("search", WORD).code == 12


def test_without_a_layer_it_is_12_and_outside_a_repository_2(git_repo: Repo, tmp_path) -> None:
    assert git_repo.mj("search", WORD).code == 12
    outside = tmp_path / "plain"
    outside.mkdir()
    assert git_repo.run("search", WORD, cwd=outside).code == 2


@pytest.mark.parametrize(
    "args", [("",), ("a\nb",), (), ("x", "--kind", "wiki"), ("x", "--limit", "0")]
)
def test_bad_arguments_are_usage_errors(seeded: Repo, args: tuple[str, ...]) -> None:
    result = seeded.mj("search", *args)
    assert result.code == 2, result
    assert len(result.err.splitlines()) == 1 and "Traceback" not in result.err


def test_kind_narrows_and_is_repeatable(seeded: Repo) -> None:
    result = seeded.mj("search", WORD, "--kind", "question", "--kind", "handover", "--json")
    assert result.code == 0, result
    # shown in authority order, whatever the order asked
    assert [m["of"] for m in _matches(result.out)] == ["handover", "question"]
    # a sitting's record is not in the ledger (a decision's entry is: decision.recorded keeps it)
    assert seeded.mj("search", "was seen", "--kind", "ledger").code == 12
    assert seeded.mj("search", "was seen", "--kind", "session").code == 0


def test_each_kind_finds_its_own_line(seeded: Repo) -> None:
    for kind in KINDS:
        result = seeded.mj("search", WORD, "--kind", kind, "--json")
        assert result.code == 0, (kind, result)
        assert {m["of"] for m in _matches(result.out)} == {kind}


def test_limit_is_per_kind(seeded: Repo) -> None:
    for number in range(3):
        seeded.mj("checkpoint", stdin=f"{WORD} note {number}\n")
    every = _matches(seeded.mj("search", WORD, "--json").out)
    assert sum(m["of"] == "checkpoint" for m in every) == 4
    limited = seeded.mj("search", WORD, "--limit", "1", "--json")
    assert limited.code == 0
    shown = [m["of"] for m in _matches(limited.out)]
    assert shown == list(dict.fromkeys(shown))  # one of each kind
    assert len(shown) == len({m["of"] for m in every})


def test_task_keeps_what_that_task_wrote(seeded: Repo) -> None:
    task = _task(seeded)
    assert seeded.mj("handover", "--close", stdin=HANDOVER.replace(WORD, "Sparrow")).code == 0
    assert seeded.mj("start", "another", "--scope", "lib").code == 0
    seeded.mj("decision", "add", f"other {WORD}s", "--why", "later")
    seeded.mj("checkpoint", stdin=f"{WORD} of the second task\n")
    mine = _matches(seeded.mj("search", WORD, "--task", task, "--json").out)
    assert mine and all("second" not in str(m["text"]) for m in mine)
    assert all("other" not in str(m["text"]) for m in mine)
    assert {m["of"] for m in mine} <= {"handover", "checkpoint", "decision", "question", "ledger"}
    other = _task(seeded)
    theirs = _matches(seeded.mj("search", WORD, "--task", other, "--json").out)
    assert {str(m["text"]) for m in theirs} >= {
        f"{WORD} of the second task",
        f"## {_day(seeded)} — other {WORD}s",
    }
    assert seeded.mj("search", WORD, "--task", "t-00000000000000-0000").code == 12


def _day(repo: Repo) -> str:
    text = (repo.root / ".ai/local/state/decisions.md").read_text()
    return text.rsplit("\n## ", 1)[1][:10]


def test_the_index_comments_are_not_records(layer_repo: Repo) -> None:
    # the shipped decisions.md and open-questions.md describe their format in a comment
    assert layer_repo.mj("decision", "add", "a", "--why", "b").code == 0
    assert layer_repo.mj("search", "token refresh uses the existing session store").code == 12


def test_text_that_is_not_utf8_is_searched_and_shown_escaped(seeded: Repo) -> None:
    path = next((seeded.root / ".ai/local/state/checkpoints").glob("*.md"))
    with path.open("ab") as handle:
        handle.write(b"qaf\xe9 " + WORD.encode() + b" \x1b[31mred\x1b[0m\n")
    result = seeded.mj("search", "qaf", "--kind", "checkpoint")  # no hex digit: not in a hash
    assert result.code == 0, result
    shown = result.out.splitlines()[0]
    assert shown.endswith(f"qaf\ufffd {WORD} red") and "\x1b" not in shown
    as_json = seeded.mj("search", f"\ufffd {WORD}", "--kind", "checkpoint", "--json")
    assert as_json.code == 0 and len(_matches(as_json.out)) == 1


def test_a_query_that_is_not_utf8_is_refused_not_a_crash(seeded: Repo) -> None:
    import subprocess

    from conftest import exe

    proc = subprocess.run(
        [exe("majordomus"), "search", b"\xff\xfe".decode("utf-8", "surrogateescape")],
        cwd=seeded.root,
        env=seeded.env,
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 2, proc  # refused as input, as every argument not UTF-8 is
    assert b"is not UTF-8 text (byte 0xff)" in proc.stderr
    assert b"Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_an_unreadable_file_is_named_and_skipped(seeded: Repo) -> None:
    handovers = seeded.root / ".ai/local/state/handovers"
    target = seeded.root / "outside.md"
    target.write_text(f"{WORD} outside the layer\n")
    os.symlink(target, handovers / "20990101T000000Z--main--0000000--0000000000000000.md")
    huge = seeded.root / ".ai/repo/adrs/0002-huge.md"
    huge.write_text(f"{WORD}\n" + "x" * (1024 * 1024 + 1))
    result = seeded.mj("search", WORD)
    assert result.code == 0, result
    assert "outside the layer" not in result.out
    warned = [line for line in result.out.splitlines() if line.startswith("WARN")]
    assert len(warned) == 2, result.out
    assert "20990101T000000Z" in warned[0] and "symbolic link" in warned[0]
    assert "0002-huge.md" in warned[1] and "limit" in warned[1]


def test_case_is_ignored_and_text_is_literal(seeded: Repo) -> None:
    assert seeded.mj("search", WORD.lower(), "--kind", "adr").code == 0
    assert seeded.mj("search", "Zebra.inch", "--kind", "adr").code == 12  # no pattern
    assert seeded.mj("search", "[zZ]ebrafinch").code == 12


def test_pipeline_is_one_stage(seeded: Repo) -> None:
    result = seeded.mj("search", WORD, "--kind", "adr", "--limit", "2", "--pipeline")
    assert result.code == 0
    assert result.out == f"mj-state search --kind adr --limit 2 {WORD}\n"
    piped = seeded.run("mj-state", "search", WORD, "--kind", "adr")
    assert piped.code == 0 and json.loads(piped.out.splitlines()[0])["of"] == "adr"
