"""`majordomus knowledge derive|candidates|promote|reject` and the records `knowledge check`
judges (CLI-REFERENCE §2.21, SCHEMAS: the knowledge candidate record): a candidate for each
decision of an episode, derived at `session close` or by hand, its id the episode's and a
digest of its evidence; promoted to curated/ with evidence, or rejected with a reason; one
ledger line a write; nothing overwritten; every exit code of each subcommand."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import Repo
from conftest import failures

BASE = ".ai/repo/knowledge"
ID = re.compile(r"^s-\d{14}-[0-9a-f]{4}-[0-9a-f]{12}$")


def ledger(repo: Repo) -> list[dict[str, object]]:
    path = repo.root / ".ai/local/state/ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def events(repo: Repo, name: str) -> list[dict[str, object]]:
    return [line for line in ledger(repo) if line["event"] == name]


def candidates(repo: Repo) -> list[Path]:
    return sorted((repo.root / BASE / "candidates").glob("*.md"))


def episode(repo: Repo, *decisions: str, scope: str = "lib") -> str:
    """An episode that starts a task on `scope` and records `decisions`, closed; its id."""
    repo.write("lib/parser.py", "def parse():\n    pass\n")
    repo.commit("lib")
    opened = repo.mj("--json", "session", "start")
    assert opened.code == 0, opened
    ident = str(json.loads(opened.out.splitlines()[0])["session_id"])
    assert repo.mj("start", "narrow the parser", "--scope", scope).code == 0
    for said in decisions:
        assert repo.mj("decision", "add", said, "--why", "one encoding").code == 0
    closed = repo.mj("session", "close")
    assert closed.code == 0, closed
    return ident


def task_over(repo: Repo) -> None:
    """The episode's task ended: a person promotes knowledge with no task active."""
    note = "# Next Action\nPick the parser up again.\n"
    assert repo.mj("finish", "--outcome", "partial", "--note", "-", stdin=note).code == 0


def front(path: Path) -> dict[str, object]:
    """The record's front matter, read with PyYAML: the tests run against installed wheels
    too, where the tool's own modules are not importable."""
    import yaml

    text = path.read_text()
    assert text.startswith("---\n"), path
    data = yaml.safe_load(text[4 : text.index("\n---\n", 4)])
    assert isinstance(data, dict)
    return data


def test_session_close_derives_a_candidate_for_each_decision_of_the_episode(
    layer_repo: Repo,
) -> None:
    assert layer_repo.mj("decision", "add", "outside", "--why", "no episode").code == 0
    ident = episode(layer_repo, "refuse tabs in the parser", "keep one encoding")
    made = candidates(layer_repo)
    assert len(made) == 2
    derived = events(layer_repo, "knowledge.derived")
    assert sorted(str(e["path"]) for e in derived) == [
        p.relative_to(layer_repo.root).as_posix() for p in made
    ]  # one ledger line a write
    for path in made:
        data = front(path)
        assert ID.match(str(data["id"])) and path.name == f"{data['id']}.md"
        assert str(data["id"]).startswith(ident + "-")
        assert data["status"] == "candidate" and data["epistemics"] == "decided"
        assert data["relations"] == [{"type": "references", "target": "file:lib"}]
        evidence = data["provenance"]["derived_from"]  # type: ignore[index]
        assert evidence[0] == f"session:{ident}" and evidence[1].startswith("decision:t-")
        assert evidence[2].startswith("commit:")
        body = path.read_text().split("---\n", 2)[2]
        assert body.startswith(f"\n# {data['title']}\n") and "episode " + ident in body
    titles = {front(p)["title"] for p in made}
    assert titles == {"refuse tabs in the parser", "keep one encoding"}  # not "outside"
    check = layer_repo.mj("knowledge", "check")
    assert check.code == 0, check


def test_derive_again_keeps_what_is_derived_and_a_dry_run_writes_nothing(
    layer_repo: Repo,
) -> None:
    ident = episode(layer_repo, "refuse tabs")
    (path,) = candidates(layer_repo)
    again = layer_repo.mj("knowledge", "derive", "--episode", ident)
    assert again.code == 0, again
    assert again.out.splitlines() == [
        f"kept (already derived) {path.relative_to(layer_repo.root).as_posix()}  refuse tabs",
        "knowledge derive: 0 derived, 1 kept",
    ]
    text = path.read_text()
    path.unlink()
    lines = len(ledger(layer_repo))
    dry = layer_repo.mj("knowledge", "derive", "--episode", ident, "--dry-run")
    assert dry.code == 0 and dry.out.startswith("would derive "), dry
    assert not path.exists() and len(ledger(layer_repo)) == lines
    made = layer_repo.mj("knowledge", "derive")  # this checkout's newest closed episode
    assert made.code == 0 and made.out.startswith("derived "), made
    assert path.read_text() == text  # the same evidence lands in the same file
    assert len(ledger(layer_repo)) == lines + 1


def test_derive_without_an_episode_is_12_and_a_bad_id_2(layer_repo: Repo) -> None:
    none = layer_repo.mj("knowledge", "derive")
    assert none.code == 12 and "--episode" in none.err, none
    unknown = layer_repo.mj("knowledge", "derive", "--episode", "s-20260101000000-abcd")
    assert unknown.code == 12 and "no such episode" in unknown.err, unknown
    bad = layer_repo.mj("knowledge", "derive", "--episode", "../x")
    assert bad.code == 2 and bad.err.count("\n") == 1, bad


def test_derive_in_an_open_episode_and_a_decision_that_carries_a_transcript(
    layer_repo: Repo,
) -> None:
    assert layer_repo.mj("session", "start").code == 0
    assert layer_repo.mj("start", "chat", "--scope", "README.md").code == 0
    assert layer_repo.mj("decision", "add", "assistant: use tabs", "--why", "said so").code == 0
    result = layer_repo.mj("--json", "knowledge", "derive")
    assert result.code == 0, result
    refused = [json.loads(line) for line in result.out.splitlines() if '"REFUSE"' in line]
    assert refused and "never a transcript" in refused[0]["message"]
    assert not candidates(layer_repo) and not events(layer_repo, "knowledge.derived")


def test_candidates_name_the_branch_of_their_episode(layer_repo: Repo) -> None:
    episode(layer_repo, "on main")
    layer_repo.git("checkout", "-q", "-b", "feature/x")
    layer_repo.write("lib/other.py", "x = 1\n")
    layer_repo.git("add", "lib/other.py")  # the records stay untracked, on every branch
    layer_repo.git("commit", "-q", "--no-verify", "-m", "other")
    assert layer_repo.mj("session", "start").code == 0
    assert layer_repo.mj("decision", "add", "on the feature", "--why", "here").code == 0
    assert layer_repo.mj("session", "close").code == 0
    loose = dict(front(candidates(layer_repo)[0]), id="loose-note", title="loose note")
    loose["provenance"] = {"origin": "authored"}
    import yaml  # the tool's writer is not importable where the tests run against wheels

    written = yaml.safe_dump(loose, sort_keys=False, allow_unicode=True)
    layer_repo.write(f"{BASE}/candidates/loose-note.md", f"---\n{written}---\n\n# Loose\n")
    listed = layer_repo.mj("knowledge", "candidates")
    assert listed.code == 0, listed
    rows = {line.split("  ")[3]: line.split("  ")[2] for line in listed.out.splitlines()[:-1]}
    assert rows["on main"] == "main" and rows["on the feature"] == "feature-x"
    assert (
        listed.out.splitlines()[-1]
        == "knowledge candidates: 3 awaiting review, 0 rejected, 0 invalid"
    )
    shown = layer_repo.mj("context").out.split("## KNOWLEDGE (", 1)[1].split("\n\n", 1)[0]
    here = [p.stem for p in candidates(layer_repo) if front(p)["title"] == "on the feature"]
    assert f"1 await review on this branch: {here[0]}" in shown
    assert "1 unassigned (no closed episode names them): loose-note" in shown
    layer_repo.git("checkout", "-q", "main")
    on_main = layer_repo.mj("context").out
    assert "1 await review on this branch: " in on_main, on_main


def test_no_candidate_is_stated_not_left_out(layer_repo: Repo) -> None:
    assert layer_repo.mj("start", "x", "--scope", "README.md").code == 0
    result = layer_repo.mj("context")
    assert result.code == 0, result
    assert "## KNOWLEDGE (candidates awaiting review on this branch; majordomus knowledge" in (
        result.out
    )
    assert "No knowledge candidates await review on this branch. That is an answer" in result.out
    assert layer_repo.mj("knowledge", "candidates").out == (
        "knowledge candidates: 0 awaiting review, 0 rejected, 0 invalid\n"
    )


def test_promote_moves_the_candidate_to_curated_with_its_evidence(layer_repo: Repo) -> None:
    episode(layer_repo, "refuse tabs")
    (path,) = candidates(layer_repo)
    ident = path.stem
    task_over(layer_repo)
    empty = layer_repo.mj("knowledge", "promote", ident, stdin="\n")
    assert empty.code == 2 and path.exists(), empty
    chat = layer_repo.mj("knowledge", "promote", ident, stdin='{"role": "user"}\n')
    assert chat.code == 15 and path.exists(), chat
    badclass = layer_repo.mj("knowledge", "promote", ident, "--class", "Bad Class", stdin="x\n")
    assert badclass.code == 2 and path.exists(), badclass
    result = layer_repo.mj("knowledge", "promote", ident, "--class", "parser", stdin="tests/t.py\n")
    assert result.code == 0, result
    curated = layer_repo.root / BASE / "curated" / f"{ident}.md"
    assert result.out.startswith(f"promoted to {BASE}/curated/{ident}.md  refuse tabs")
    assert not path.exists() and curated.is_file()
    data = front(curated)
    assert data["status"] == "verified" and data["class"] == "parser"
    assert curated.read_text().endswith("\n# Evidence\n\ntests/t.py\n")
    (line,) = events(layer_repo, "knowledge.promoted")
    assert line["knowledge"] == ident and line["class"] == "parser"
    assert line["promoted_by"] == "mj-test <mj-test@example.invalid>"  # as git knows them
    again = layer_repo.mj("knowledge", "promote", ident, stdin="more\n")
    assert again.code == 15 and "already promoted" in again.err, again
    assert layer_repo.mj("knowledge", "promote", "no-such", stdin="x\n").code == 12
    assert layer_repo.mj("knowledge", "promote", "../up", stdin="x\n").code == 2
    assert layer_repo.mj("knowledge", "check").code == 0
    assert len(events(layer_repo, "knowledge.promoted")) == 1


def test_reject_keeps_the_candidate_with_its_reason(layer_repo: Repo) -> None:
    episode(layer_repo, "refuse tabs")
    (path,) = candidates(layer_repo)
    ident = path.stem
    assert layer_repo.mj("knowledge", "reject", ident).code == 2  # --reason is required
    result = layer_repo.mj("knowledge", "reject", ident, "--reason", "tabs stay", "--by", "ana")
    assert result.code == 0, result
    data = front(path)
    assert data["status"] == "rejected"
    assert path.read_text().endswith("\n# Rejected\n\ntabs stay\n\nBy: ana\n")
    (line,) = events(layer_repo, "knowledge.rejected")
    assert line["reason"] == "tabs stay" and line["rejected_by"] == "ana"
    again = layer_repo.mj("knowledge", "reject", ident, "--reason", "still")
    assert again.code == 15 and "not awaiting review" in again.err, again
    assert layer_repo.mj("knowledge", "promote", ident, stdin="x\n").code == 15
    listed = layer_repo.mj("knowledge", "candidates")
    assert listed.out.splitlines()[-1].endswith("0 awaiting review, 1 rejected, 0 invalid")
    assert layer_repo.mj("knowledge", "reject", "gone", "--reason", "x").code == 12
    assert layer_repo.mj("knowledge", "check").code == 0


def test_check_fails_a_record_that_breaks_the_schema_or_its_directory(layer_repo: Repo) -> None:
    episode(layer_repo, "refuse tabs")
    (path,) = candidates(layer_repo)
    good = path.read_text()
    cases = [
        (good.replace("status: candidate", "status: verified"), "status verified"),
        (good.replace("epistemics: decided", "epistemics: decided\ncolour: blue"), "colour"),
        (good.replace("class: convention\n", ""), "missing key 'class'"),
        (good + "\nassistant: sure, here is the code\n", "never a transcript"),
        (good.replace(f"id: {path.stem}", "id: another-id"), "is not the file's name"),
    ]
    for text, said in cases:
        path.write_text(text)
        result = layer_repo.mj("knowledge", "check")
        assert result.code == 10, (said, result)
        failed = failures(result.out)
        assert any(said in message for _, _, message, _ in failed), (said, failed)
        assert all(subject.startswith(f"{BASE}/candidates/") for _, subject, _, _ in failed)
        listed = layer_repo.mj("knowledge", "candidates")
        assert listed.code == 10 and f"{path.stem}  invalid  " in listed.out, listed
        promote = layer_repo.mj("knowledge", "promote", path.stem, stdin="x\n")
        assert promote.code == 10 and promote.err.count("\n") == 1, promote
        reject = layer_repo.mj("knowledge", "reject", path.stem, "--reason", "x")
        assert reject.code == 10 and reject.err.count("\n") == 1, reject
    path.write_text(good)
    (layer_repo.root / BASE / "curated" / path.name).write_text(good)
    both = layer_repo.mj("knowledge", "check")
    assert both.code == 10 and "keep one of the two files" in both.out, both


def test_no_knowledge_layer_is_12_and_a_usage_error_2(git_repo: Repo) -> None:
    assert git_repo.mj("knowledge", "candidates").code == 12
    assert git_repo.mj("knowledge", "candidates", "--all").code == 2
    assert git_repo.mj("knowledge", "promote").code == 2  # the id is required


def test_an_episode_record_that_does_not_read_is_10(layer_repo: Repo) -> None:
    ident = episode(layer_repo, "refuse tabs")
    (record,) = (layer_repo.root / ".ai/repo/sessions").glob(f"*--{ident}--*.md")
    record.write_text(record.read_text().replace("outcome: closed", "outcome: closed\ncolour: x"))
    result = layer_repo.mj("knowledge", "derive", "--episode", ident)
    assert result.code == 10 and "colour" in result.err and "Traceback" not in result.err, result


def _composed_as_printed(repo: Repo, where: Path, args: tuple[str, ...], stdin: str | None) -> None:
    """In two copies of `repo`: the command, and the pipeline it prints, run by `sh`: the same
    exit code (0), output and files (`test_pipeline_equivalence`)."""
    import shutil

    from test_pipeline_equivalence import _copy
    from test_pipeline_equivalence import _normal
    from test_pipeline_equivalence import _sh
    from test_pipeline_equivalence import _snapshot

    direct, piped = _copy(repo.root, where / "d"), _copy(repo.root, where / "p")
    printed = piped.mj(*args, "--json", "--pipeline")
    code, out, _ = _sh(piped, printed.out.strip(), stdin)
    said = direct.mj(*args, "--json", stdin=stdin)
    assert code == said.code == 0, (args, printed.out, said)
    assert _normal(out, piped.root) == _normal(said.out, direct.root), args
    assert _snapshot(piped.root) == _snapshot(direct.root), args
    shutil.rmtree(direct.root)
    shutil.rmtree(piped.root)


def test_the_writers_printed_pipelines_do_what_the_commands_do(
    layer_repo: Repo, tmp_path: Path
) -> None:
    ident = episode(layer_repo, "refuse tabs")
    (path,) = candidates(layer_repo)
    path.unlink()  # so that derive has something to write
    for args in (("knowledge", "derive", "--episode", ident), ("knowledge", "derive", "--dry-run")):
        _composed_as_printed(layer_repo, tmp_path, args, None)
    assert layer_repo.mj("knowledge", "derive").code == 0
    task_over(layer_repo)
    promote = ("knowledge", "promote", path.stem, "--class", "parser")
    _composed_as_printed(layer_repo, tmp_path, promote, "tests pass\n")
    reject = ("knowledge", "reject", path.stem, "--reason", "no", "--by", "ana")
    _composed_as_printed(layer_repo, tmp_path, reject, None)
    path.unlink()
    assert layer_repo.mj("start", "the parser again", "--scope", "lib").code == 0
    assert layer_repo.mj("session", "start").code == 0  # an episode belongs to its checkout:
    assert layer_repo.mj("decision", "add", "again", "--why", "closing").code == 0  # not copied
    from test_pipeline_equivalence import _sh

    printed = layer_repo.mj("session", "close", "--json", "--pipeline").out.strip()
    assert printed.endswith(
        " | mj-knowledge derive-facts | mj-knowledge derive-judge | mj-knowledge derive-write"
        " | mj-state log"
    ), printed
    code, out, _ = _sh(layer_repo, printed, "")
    assert code == 0 and '"kind":"candidate","action":"derived"' in out, out
    assert [front(p)["title"] for p in candidates(layer_repo)] == ["again"]
    assert len(events(layer_repo, "knowledge.derived")) == 3  # close, derive, this close


def test_a_candidate_claiming_verified_is_refused_by_check_and_doctor(layer_repo: Repo) -> None:
    """SCHEMAS: a record under candidates/ claiming `verified` is refused by `check`, `doctor`
    and `knowledge check` alike, each naming the record's status line."""
    episode(layer_repo, "refuse tabs")
    (path,) = candidates(layer_repo)
    good = path.read_text()
    quiet = layer_repo.mj("check")  # the episode's task is still active
    assert quiet.code in (0, 10) and "status verified" not in quiet.out, quiet
    path.write_text(good.replace("status: candidate", "status: verified"))
    line = next(n for n, t in enumerate(path.read_text().splitlines(), 1) if "status:" in t)
    where = f"{BASE}/candidates/{path.name}:{line}"
    for argv in (("check",), ("doctor",), ("knowledge", "check")):
        result = layer_repo.mj(*argv)
        assert result.code == 10, (argv, result)
        said = [(s, m) for c, s, m, _ in failures(result.out) if c == "knowledge"]
        assert any(s.startswith(where) and "status verified" in m for s, m in said), (argv, said)
    path.write_text(good.replace("status: candidate", "status: rejected"))
    assert not any(c == "knowledge" for c, _, _, _ in failures(layer_repo.mj("check").out))
