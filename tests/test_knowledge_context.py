"""`majordomus context` with the knowledge graph (CONTEXT-COMMAND, KNOWLEDGE POINTERS): the
nodes whose source lies in the task's scope, then the nodes they name, within the profile's
cap and the budget; `--json` carries the section; a profile without `context.knowledge: true`
names it under EXCLUDED; a tight budget drops it naming the command that prints it."""

from __future__ import annotations

import json

from conftest import Repo

NOTE = "# Lib notes\n\nSee [the policy](../policy.yaml) and [debugging](debug.md).\n"


def started(repo: Repo, profile: str = "implementation") -> Repo:
    repo.write(".ai/repo/prompts/lib.md", NOTE)
    repo.commit("a prompt")
    result = repo.mj("start", "prompts", "--scope", ".ai/repo/prompts", "--profile", profile)
    assert result.code == 0, result
    return repo


def section(out: str, title: str) -> list[str]:
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(title))
    end = next((i for i in range(at + 1, len(lines)) if not lines[i].strip()), len(lines))
    return lines[at:end]


def test_pointers_are_the_scope_then_what_it_names(layer_repo: Repo) -> None:
    result = started(layer_repo).mj("context")
    assert result.code == 0, result
    shown = section(result.out, "## KNOWLEDGE POINTERS")
    assert shown == [
        "## KNOWLEDGE POINTERS (4 of 4)",
        "- in scope prompt prompt:debug .ai/repo/prompts/debug.md — "
        "frame a defect so that the fix is proven, not asserted",
        "- in scope prompt prompt:lib .ai/repo/prompts/lib.md — Lib notes",
        "- in scope prompt prompt:resume .ai/repo/prompts/resume.md — "
        "pick up the active task where the last session left it, from durable state only",
        "- references policy policy:policy .ai/repo/policy.yaml",
    ]
    assert "does not exist yet" not in result.out
    data = json.loads(layer_repo.mj("context", "--json").out)
    pointers = [s for s in data["sections"] if s["id"] == "pointers"]
    assert pointers and pointers[0]["lines"] == len(shown)
    assert pointers[0]["text"] == "\n".join(shown) + "\n"
    assert not list((layer_repo.root / ".ai/local").rglob("knowledge-*"))  # writes nothing
    assert layer_repo.mj("knowledge", "edges").code == 0  # which leaves the cache it reads
    assert section(layer_repo.mj("context").out, "## KNOWLEDGE POINTERS") == shown


def test_the_cap_counts_the_rest_and_names_the_command(layer_repo: Repo) -> None:
    path = layer_repo.root / ".ai/repo/profiles/implementation.yaml"
    path.write_text(path.read_text().replace("knowledge_max_items: 8", "knowledge_max_items: 2"))
    idle = layer_repo.mj("knowledge", "related")  # no task to start from, and nothing named
    assert idle.code == 12 and "no active task" in idle.err, idle
    result = started(layer_repo).mj("context")
    assert result.code == 0, result
    shown = section(result.out, "## KNOWLEDGE POINTERS")
    assert shown[0] == "## KNOWLEDGE POINTERS (2 of 4)"
    more = "majordomus knowledge related --path .ai/repo/prompts"
    assert shown[-1] == f"- … 2 more: {more}"
    every = layer_repo.mj(*more.split()[1:])  # the command named prints all four, in order
    assert every.code == 0, every
    assert every.out.splitlines() == [
        "in scope  prompt  prompt:debug  .ai/repo/prompts/debug.md — "
        "frame a defect so that the fix is proven, not asserted",
        "in scope  prompt  prompt:lib  .ai/repo/prompts/lib.md — Lib notes",
        "in scope  prompt  prompt:resume  .ai/repo/prompts/resume.md — "
        "pick up the active task where the last session left it, from durable state only",
        "references  policy  policy:policy  .ai/repo/policy.yaml",
        "knowledge related: 4 node(s)",
    ]
    as_json = [json.loads(x) for x in layer_repo.mj(*more.split()[1:], "--json").out.splitlines()]
    assert [r["kind"] for r in as_json] == ["pointer"] * 4 + ["summary"]
    assert [r["relation"] for r in as_json[:4]] == ["in scope"] * 3 + ["references"]


def test_a_profile_without_knowledge_names_it_under_excluded(layer_repo: Repo) -> None:
    result = started(layer_repo, "routine").mj("context")
    assert result.code == 0, result
    assert "## KNOWLEDGE POINTERS" not in result.out
    assert (
        "- knowledge pointers — profile routine does not set context.knowledge: true" in result.out
    )
    assert not (layer_repo.root / ".ai/local/cache/knowledge-head").exists()


def test_a_tight_budget_drops_the_pointers_before_the_documents(layer_repo: Repo) -> None:
    started(layer_repo)
    full = layer_repo.mj("context").out
    lines = int(full.splitlines()[-1].split()[0])
    result = layer_repo.mj("context", "--budget-lines", str(lines - 3))
    assert result.code == 0, result
    assert "## KNOWLEDGE POINTERS" not in result.out
    assert "## CONTEXT DOCUMENTS" in result.out
    dropped = (
        f"context budget {lines - 3} lines; run: majordomus knowledge related --path "
        ".ai/repo/prompts"
    )
    assert f"- knowledge pointers — {dropped}" in result.out


def test_a_graph_that_does_not_build_is_stated_not_fatal(layer_repo: Repo) -> None:
    started(layer_repo)
    sources = layer_repo.root / ".ai/repo/knowledge/sources.yaml"
    sources.write_text(sources.read_text() + "colour: blue\n")
    result = layer_repo.mj("context")
    assert result.code == 0, result
    assert "- knowledge pointers — the graph did not build: " in result.out
    assert "unknown key 'colour'" in result.out


def test_the_use_case_context_run_with_a_knowledge_section(layer_repo: Repo) -> None:
    """USE-CASE-context: an active task on `lib` with a checkpoint, a decision and an open
    question; `lib`'s notes declared as knowledge (a `document` class)."""
    sources = layer_repo.root / ".ai/repo/knowledge/sources.yaml"
    sources.write_text(
        sources.read_text() + "  - id: lib-notes\n    kind: document\n    discovery: vcs\n"
        '    pathspec: ":(glob)lib/**/*.md"\n    required: false\n'
    )
    layer_repo.write("lib/parser.py", "def parse():\n    pass\n")
    layer_repo.write(
        "lib/NOTES.md", "# Parser notes\n\nThe rules: [resume](../.ai/repo/prompts/resume.md).\n"
    )
    layer_repo.commit("lib and its notes")
    for args, stdin in (
        (("start", "narrow the parser", "--scope", "lib"), None),
        (("checkpoint",), "started\n"),
        (("decision", "add", "keep spaces", "--why", "the style guide"), None),
        (("question", "add", "which one?"), None),
    ):
        assert layer_repo.mj(*args, stdin=stdin).code == 0, args
    everything = layer_repo.mj("context")
    assert everything.code == 0, everything
    order = [line for line in everything.out.splitlines() if line.startswith("## ")]
    assert order[:3] == ["## GIT", "## TASK", "## PROFILE implementation"]
    assert section(everything.out, "## KNOWLEDGE POINTERS") == [
        "## KNOWLEDGE POINTERS (2 of 2)",
        "- in scope document document:lib/NOTES.md lib/NOTES.md — Parser notes",
        "- references prompt prompt:resume .ai/repo/prompts/resume.md — "
        "pick up the active task where the last session left it, from durable state only",
    ]
    checkpoint = next(i for i, title in enumerate(order) if title.startswith("## LATEST CHECK"))
    assert order.index("## KNOWLEDGE POINTERS (2 of 2)") > checkpoint
    budgeted = layer_repo.mj("context", "--budget-lines", "30")
    assert budgeted.code == 10, budgeted
    assert (
        "- knowledge pointers — context budget 30 lines; run: majordomus knowledge related "
        "--path lib" in budgeted.out
    )
    machine = json.loads(layer_repo.mj("context", "--json").out)
    assert [s["id"] for s in machine["sections"] if s["id"] == "pointers"] == ["pointers"]


def test_pointers_start_from_the_task_s_issue_nearest_first(layer_repo: Repo) -> None:
    from test_knowledge import ISSUE
    from test_knowledge import MILESTONE

    base = ".ai/repo/project"
    project = "schema_version: 1\nname: Demo\nrepository: demo/demo\ndefault_branch: main\n"
    layer_repo.write(f"{base}/project.yaml", project)
    layer_repo.write(f"{base}/milestones/M001.yaml", MILESTONE.replace("id: M1\n", "id: M001\n"))
    for ident, needs in (("I0001", ""), ("I0002", "I0001"), ("I0003", "I0002")):
        text = ISSUE.format(id=ident, milestone="M001", slug=ident.lower(), deps=needs)
        layer_repo.write(f"{base}/issues/{ident}.yaml", text)
    layer_repo.write("lib/parser.py", "x = 1\n")
    layer_repo.commit("a plan")
    result = layer_repo.mj("start", "build I0003", "--issue", "I0003")
    assert result.code == 0, result
    shown = section(layer_repo.mj("context").out, "## KNOWLEDGE POINTERS")
    assert shown == [  # the issue, what it depends on (not further), its milestone
        "## KNOWLEDGE POINTERS (3 of 3)",
        f"- started for issue issue:I0003 {base}/issues/I0003.yaml — Issue I0003",
        f"- depends_on issue issue:I0002 {base}/issues/I0002.yaml — Issue I0002",
        f"- part_of milestone milestone:M001 {base}/milestones/M001.yaml — Outcome",
    ]
    data = json.loads(layer_repo.mj("context", "--json").out)
    (pointers,) = [s for s in data["sections"] if s["id"] == "pointers"]
    assert pointers["text"] == "\n".join(shown) + "\n"
    related = layer_repo.mj("knowledge", "related", "issue:I0003")
    assert related.code == 0, related
    assert related.out.splitlines() == [
        f"started for  issue  issue:I0003  {base}/issues/I0003.yaml — Issue I0003",
        f"depends_on  issue  issue:I0002  {base}/issues/I0002.yaml — Issue I0002",
        f"part_of  milestone  milestone:M001  {base}/milestones/M001.yaml — Outcome",
        "knowledge related: 3 node(s)",
    ], related.out
    assert layer_repo.mj("knowledge", "related", "issue:I9999").code == 12
    assert layer_repo.mj("knowledge", "related").out == related.out  # the task's, by default
    layer_repo.git("rm", "-q", "--cached", f"{base}/issues/I0003.yaml")
    layer_repo.git("commit", "-q", "--no-verify", "-m", "the issue leaves the index")
    stale = section(layer_repo.mj("context").out, "## KNOWLEDGE POINTERS")
    assert stale == [
        "## KNOWLEDGE POINTERS (0 of 0)",
        "- stale issue:I0003 is not a node of the graph: its record is not in git's index "
        "(never added, or removed)",
    ]


def test_the_knowledge_section_stands_between_questions_and_decisions(layer_repo: Repo) -> None:
    """USE-CASE-context: `## KNOWLEDGE` after the open questions, before the decisions; no
    candidate is an answer; a 30-line budget drops it after the documents."""
    layer_repo.write("lib/a", "a\n")
    layer_repo.commit("lib")
    for args, stdin in (
        (("start", "narrow the parser", "--scope", "lib"), None),
        (("checkpoint",), "the parser now refuses tabs\n"),
        (("decision", "add", "refuse tabs in the parser", "--why", "two encodings"), None),
        (("question", "add", "should tabs be an error or a warning?"), None),
    ):
        assert layer_repo.mj(*args, stdin=stdin).code == 0, args
    layer_repo.write("lib/a", "b\n")
    everything = layer_repo.mj("context")
    assert everything.code == 0, everything
    order = [line for line in everything.out.splitlines() if line.startswith("## ")]
    at = order.index(
        "## KNOWLEDGE (candidates awaiting review on this branch; majordomus knowledge candidates)"
    )
    assert order[at - 1].startswith("## OPEN QUESTIONS") and order[at + 1].startswith("## DECIS")
    assert section(everything.out, "## KNOWLEDGE (")[1] == (
        "No knowledge candidates await review on this branch. That is an answer, not a gap: "
        "`majordomus knowledge candidates` lists every branch."
    )
    budgeted = layer_repo.mj("context", "--budget-lines", "30")
    assert budgeted.code == 10, budgeted
    assert "- knowledge — context budget 30 lines\n" in budgeted.out
    assert "(dropped: files documents knowledge decisions)" in budgeted.out
    machine = json.loads(layer_repo.mj("context", "--json").out)
    (knowledge,) = [s for s in machine["sections"] if s["id"] == "knowledge"]
    assert knowledge["lines"] == 2 and "No knowledge candidates" in knowledge["text"]
