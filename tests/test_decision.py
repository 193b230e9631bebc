"""`majordomus decision add | list | show`: the append-only decision log."""

from __future__ import annotations

from conftest import Repo

LOG = ".ai/local/state/decisions.md"


def test_add_appends_the_exact_entry_shape(layer_repo: Repo) -> None:
    head = layer_repo.git("rev-parse", "HEAD").strip()
    result = layer_repo.mj("decision", "add", "use the session store", "--why", "one clock")
    assert result.code == 0 and result.out == "recorded: use the session store\n", result
    text = (layer_repo.root / LOG).read_text()
    entry = text[text.rindex("## ") :]
    assert entry.split("\n")[1:] == [
        "Task: -",
        f"Head: {head}",
        "Why: one clock",
        "Rejected: -",
        "Evidence: -",
        "Supersedes: -",
        "",
    ]
    assert layer_repo.git("diff", "--cached", "--name-only") == ""
    assert "decision.recorded" in (layer_repo.root / ".ai/local/state/ledger.jsonl").read_text()


def test_task_is_computed_from_the_active_task(layer_repo: Repo) -> None:
    started = layer_repo.mj("start", "--json", "t", "--scope", "lib")
    task = started.out.split('"id":"', 1)[1].split('"', 1)[0]
    layer_repo.mj("decision", "add", "a", "--why", "b", "--rejected", "c", "--evidence", "d")
    assert f"Task: {task}\n" in (layer_repo.root / LOG).read_text()
    listed = layer_repo.mj("decision", "list", "--task", task)
    assert listed.code == 0 and listed.out.startswith(f"{listed.out[:10]}  a  ({task}, ")


def test_missing_why_is_a_usage_error(layer_repo: Repo) -> None:
    before = (layer_repo.root / LOG).read_text()
    assert layer_repo.mj("decision", "add", "no reason").code == 2
    assert layer_repo.mj("decision", "add", "no reason", "--why", " ").code == 2
    assert (layer_repo.root / LOG).read_text() == before


def test_supersedes_must_match_a_recorded_decision(layer_repo: Repo) -> None:
    refused = layer_repo.mj("decision", "add", "b", "--why", "w", "--supersedes", "nothing")
    assert refused.code == 15 and refused.err.count("\n") == 1, refused
    layer_repo.mj("decision", "add", "keep the cache", "--why", "w")
    ok = layer_repo.mj("decision", "add", "drop the cache", "--why", "w", "--supersedes", "keep")
    assert ok.code == 0
    assert "Supersedes: keep the cache\n" in (layer_repo.root / LOG).read_text()


def test_list_is_newest_first_with_limit_and_show_finds_or_12(layer_repo: Repo) -> None:
    for title in ("first", "second", "third"):
        layer_repo.mj("decision", "add", title, "--why", "w")
    titles = [line.split("  ")[1] for line in layer_repo.mj("decision", "list").out.splitlines()]
    assert titles == ["third", "second", "first"]
    assert len(layer_repo.mj("decision", "list", "--limit", "1").out.splitlines()) == 1
    shown = layer_repo.mj("decision", "show", "seco")
    assert shown.code == 0 and shown.out.split("\n")[0].endswith("— second")
    assert layer_repo.mj("decision", "show", "absent").code == 12
    assert "template" not in layer_repo.mj("decision", "list").out


def test_decision_without_an_action_is_a_usage_error(layer_repo: Repo, tmp_path) -> None:
    result = layer_repo.mj("decision")
    assert result.code == 2 and "add, list or show" in result.err, result
    outside = layer_repo.run("decision", cwd=tmp_path)
    assert outside.code == 2 and "not inside a git repository" in outside.err, outside


def test_the_briefing_shows_each_decision_under_its_own_heading(layer_repo: Repo) -> None:
    layer_repo.mj("start", "t", "--scope", "lib")
    assert layer_repo.mj("decision", "add", "use spaces", "--why", "taste").code == 0
    assert layer_repo.mj("decision", "add", "GIT", "--why", "a title that is a section's").code == 0
    shown = layer_repo.mj("context")
    assert shown.code == 0, shown
    lines = shown.out.splitlines()
    [heading] = [line for line in lines if line.endswith(" — use spaces")]
    assert heading.startswith("## 20"), heading  # the entry's heading, not indented
    assert lines.count("## GIT") == 1  # the section; the decision's is `## <date> — GIT`
    assert any(line.startswith("## 20") and line.endswith(" — GIT") for line in lines)
