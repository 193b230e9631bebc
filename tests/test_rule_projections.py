"""Rules as projections: a rule that declares `paths` or `always_loaded` reaches each provider
in its own form — a rule file scoped by the provider's front matter, a rule file always loaded,
or the rule inside the provider's always-loaded file (a pointer when the budget is spent)."""

from __future__ import annotations

import pytest
from conftest import Repo
from conftest import failures
from conftest import wire
from test_providers import ALWAYS_RULE
from test_providers import POLICY
from test_providers import SCOPED_RULE
from test_providers import add_rules

PROJECTIONS = """
projections:
  - provider: claude-code
    target: CLAUDE.md
  - provider: codex
    target: AGENTS.md
  - provider: kilo-code
    target: .kilocode/rules/majordomus.md
"""


@pytest.fixture
def ruled(layer_repo: Repo) -> Repo:
    path = layer_repo.root / POLICY
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("\nprojections:")] + PROJECTIONS, encoding="utf-8")
    add_rules(layer_repo)
    return layer_repo


def set_budget(repo: Repo, lines: int) -> None:
    path = repo.root / POLICY
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("always_loaded_budget_lines: 150", f"always_loaded_budget_lines: {lines}")
    )


def test_each_provider_gets_each_rule_in_its_own_form(ruled: Repo) -> None:
    assert ruled.mj("update").code == 0
    scoped = (ruled.root / ".claude/rules/project-api-errors.md").read_text()
    assert scoped.startswith('---\npaths:\n  - "src/api/**"\n---\n')
    always = (ruled.root / ".claude/rules/project-no-print.md").read_text()
    assert not always.startswith("---") and "it uses the logging module" in always
    # Kilo Code has rule files but cannot scope them: the scoped rule is always loaded there
    kilo = (ruled.root / ".kilocode/rules/project-api-errors.md").read_text()
    assert not kilo.startswith("---") and "Applies to files matching `src/api/**`." in kilo
    # Codex has no rule files: both rules are in AGENTS.md, below the bootstrap
    agents = (ruled.root / "AGENTS.md").read_text()
    bootstrap, rules = agents.split("<!-- majordomus:rules", 1)
    assert "Read `README.md` first" in bootstrap and "logging module" not in bootstrap
    assert "## No print in library code (`project.no-print@1`)" in rules
    assert "Every error an API handler returns is an application/problem+json body." in rules
    assert "### Why" in rules  # the rule's own headings sit below its heading
    assert "From `.ai/repo/rules/project/api-errors.md`" in rules
    assert (
        "CLAUDE.md" not in rules and "logging module" not in (ruled.root / "CLAUDE.md").read_text()
    )


def test_a_rule_the_budget_cannot_hold_becomes_a_pointer(ruled: Repo) -> None:
    assert ruled.mj("update").code == 0
    lines = (ruled.root / "AGENTS.md").read_text().count("\n")
    bootstrap = (ruled.root / "AGENTS.md").read_text().split("<!-- majordomus:rules")[0]
    set_budget(ruled, bootstrap.count("\n") + 6)
    assert bootstrap.count("\n") + 6 < lines
    # Kilo Code loads its bootstrap and both rule files into every conversation: each fits,
    # together they do not, so the budget is refused for it by name
    refused = ruled.mj("update")
    assert refused.code == 10 and refused.err.startswith("majordomus: kilo-code: Kilo Code loads")
    path = ruled.root / POLICY
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("  - provider: kilo-code\n    target: .kilocode/rules/majordomus.md\n", "")
    )
    result = ruled.mj("update")
    assert result.code == 0, result
    agents = (ruled.root / "AGENTS.md").read_text()
    assert agents.count("\n") <= bootstrap.count("\n") + 6
    assert (
        "- API handlers return problem details (`project.api-errors@1`): read "
        "`.ai/repo/rules/project/api-errors.md` when working on files matching `src/api/**`."
    ) in agents
    assert "application/problem+json" not in agents
    assert ruled.mj("update", "--check").code == 0


def test_a_bootstrap_over_its_budget_is_refused_with_its_rules(
    ruled: Repo,
) -> None:
    set_budget(ruled, 3)
    result = ruled.mj("update")
    assert result.code == 10 and "nothing was written" in result.err
    assert not (ruled.root / "AGENTS.md").exists()
    assert not (ruled.root / ".claude/rules").exists()


def test_editing_a_rule_makes_every_projection_of_it_stale(ruled: Repo) -> None:
    assert ruled.mj("update").code == 0
    source = ruled.root / ".ai/repo/rules/project/no-print.md"
    source.write_text(ALWAYS_RULE.replace("logging module", "structured logger"))
    check = ruled.mj("update", "--check")
    assert check.code == 10
    stale = {subject for _, subject, _, _ in failures(check.out)}
    assert stale == {
        "AGENTS.md",
        ".claude/rules/project-no-print.md",
        ".kilocode/rules/project-no-print.md",
    }
    assert ruled.mj("update").code == 0
    assert "structured logger" in (ruled.root / ".claude/rules/project-no-print.md").read_text()
    assert ruled.mj("update", "--check").code == 0


def test_a_hand_edited_rule_file_is_refused_and_doctor_fails_it(ruled: Repo) -> None:
    wire(ruled)
    ruled.write("README.md", "# scratch\n\nAI workers: read AGENTS.md.\n")
    assert ruled.mj("update").code == 0
    ruled.commit("projections with rules")
    doctor = ruled.mj("doctor")
    assert doctor.code == 0, doctor
    rule_file = ruled.root / ".claude/rules/project-api-errors.md"
    edited = rule_file.read_text().replace("problem+json", "whatever")
    rule_file.write_text(edited)
    refused = ruled.mj("update")
    assert refused.code == 15 and ".claude/rules/project-api-errors.md" in refused.err
    assert rule_file.read_text() == edited
    doctor = ruled.mj("doctor")
    assert doctor.code == 10
    [(category, subject, message, reproduce)] = failures(doctor.out)
    assert (category, subject) == ("projection", ".claude/rules/project-api-errors.md")
    assert "edited by hand" in message and "whatever" in ruled.shell(reproduce).out


@pytest.mark.parametrize("glob", ["/etc/**", "../up/**", "src/a,b"])
def test_a_bad_glob_is_10_naming_the_rule(ruled: Repo, glob: str) -> None:
    ruled.write(
        ".ai/repo/rules/project/api-errors.md",
        SCOPED_RULE.replace("  - src/api/**", f'  - "{glob}"'),
    )
    result = ruled.mj("update")
    assert result.code == 10, result
    [line] = result.err.splitlines()
    assert ".ai/repo/rules/project/api-errors.md" in line and "paths" in line
    assert not (ruled.root / "AGENTS.md").exists()


def test_rules_list_shows_where_each_rule_lands_for_each_provider(ruled: Repo) -> None:
    import json

    listed = ruled.mj("rules", "list", "--json")
    assert listed.code == 0, listed
    records = [json.loads(line) for line in listed.out.splitlines() if line.startswith("{")]
    lands = {r["id"]: r["lands"] for r in records if r.get("kind") == "rule"}
    assert lands["project.api-errors"] == [
        {
            "provider": "claude-code",
            "target": ".claude/rules/project-api-errors.md",
            "as": "scoped",
        },
        {"provider": "codex", "target": "AGENTS.md", "as": "inline"},
        {
            "provider": "kilo-code",
            "target": ".kilocode/rules/project-api-errors.md",
            "as": "always",
        },
    ]
    assert lands["project.no-print"][0]["as"] == "always"
    assert all(not v for k, v in lands.items() if k.startswith("majordomus."))
    text = ruled.mj("rules", "list").out
    scoped = ".claude/rules/project-api-errors.md — its own file, loaded for matching paths"
    assert f"    claude-code: {scoped}" in text
    set_budget(ruled, 27)
    pointed = ruled.mj("rules", "list").out
    assert "    codex: AGENTS.md — a pointer inside it to the rule's file, not its text" in pointed


def test_a_rule_file_no_rule_projects_any_more_is_caught_and_removed(ruled: Repo) -> None:
    wire(ruled)
    ruled.write("README.md", "# scratch\n\nAI workers: read AGENTS.md.\n")
    assert ruled.mj("update").code == 0
    ruled.commit("projections with rules")
    (ruled.root / ".ai/repo/rules/project/api-errors.md").unlink()
    left = {".claude/rules/project-api-errors.md", ".kilocode/rules/project-api-errors.md"}
    check = ruled.mj("update", "--check")
    assert check.code == 10
    found = {s for _, s, m, _ in failures(check.out) if "no rule projects it" in m}
    assert found == left
    doctor = ruled.mj("doctor")
    assert doctor.code == 10
    assert {s for _, s, m, _ in failures(doctor.out) if "no rule projects it" in m} == left
    dry = ruled.mj("update", "--dry-run")
    assert dry.code == 0 and "would remove" in dry.out
    assert all((ruled.root / t).exists() for t in left)
    assert ruled.mj("update").code == 0
    assert not any((ruled.root / t).exists() for t in left)
    assert (ruled.root / ".claude/rules/project-no-print.md").exists()
    assert ruled.mj("update", "--check").code == 0


def test_a_hand_edited_rule_file_no_rule_projects_is_refused_without_force(ruled: Repo) -> None:
    assert ruled.mj("update").code == 0
    (ruled.root / ".ai/repo/rules/project/api-errors.md").unlink()
    kept = ruled.root / ".claude/rules/project-api-errors.md"
    kept.write_text(kept.read_text() + "\nA local note.\n")
    refused = ruled.mj("update")
    assert refused.code == 15 and ".claude/rules/project-api-errors.md" in refused.err
    assert kept.exists() and (ruled.root / ".kilocode/rules/project-api-errors.md").exists()
    assert ruled.mj("update", "--force").code == 0
    assert not kept.exists()


def test_a_file_update_did_not_write_in_a_rule_directory_is_left_alone(ruled: Repo) -> None:
    ruled.write(".claude/rules/ours.md", "# Our own rule, written by hand\n")
    assert ruled.mj("update").code == 0
    assert ruled.mj("update", "--check").code == 0
    assert (ruled.root / ".claude/rules/ours.md").read_text() == "# Our own rule, written by hand\n"


IMPORTING = PROJECTIONS.replace(
    "  - provider: claude-code\n    target: CLAUDE.md\n",
    "  - provider: claude-code\n    target: CLAUDE.md\n    imports: AGENTS.md\n",
)


def test_claude_md_may_import_agents_md_instead_of_repeating_it(ruled: Repo) -> None:
    assert ruled.mj("update").code == 0
    path = ruled.root / POLICY
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(PROJECTIONS, IMPORTING), encoding="utf-8")
    result = ruled.mj("update")
    assert result.code == 0, result
    claude = (ruled.root / "CLAUDE.md").read_text().split("\n", 1)[1]
    assert claude == "# Instructions for Claude Code\n\n@AGENTS.md\n"
    assert not (ruled.root / ".claude/rules/project-no-print.md").exists()  # AGENTS.md has it
    assert (ruled.root / ".claude/rules/project-api-errors.md").exists()  # still scoped here
    assert "logging module" in (ruled.root / "AGENTS.md").read_text()
    assert ruled.mj("update", "--check").code == 0


@pytest.mark.parametrize(
    ("provider", "target", "imports", "said"),
    [
        ("codex", "AGENTS.md", "CLAUDE.md", "does not expand `@path` imports"),
        ("claude-code", "CLAUDE.md", "NOWHERE.md", "not another projection's target"),
    ],
)
def test_an_import_the_provider_or_the_policy_cannot_honour_is_10(
    ruled: Repo, provider: str, target: str, imports: str, said: str
) -> None:
    path = ruled.root / POLICY
    text = path.read_text(encoding="utf-8")
    entry = f"  - provider: {provider}\n    target: {target}\n"
    path.write_text(text.replace(entry, entry + f"    imports: {imports}\n"), encoding="utf-8")
    result = ruled.mj("update")
    assert result.code == 10, result
    [line] = result.err.splitlines()
    assert f"{POLICY}:" in line and said in line


def test_codex_gets_a_rule_scoped_to_one_directory_in_that_directory_s_agents_md(
    ruled: Repo,
) -> None:
    ruled.write("src/api/handler.py", "def handle():\n    return None\n")
    assert ruled.mj("update").code == 0
    nested = (ruled.root / "src/api/AGENTS.md").read_text()
    assert "Every error an API handler returns is an application/problem+json body." in nested
    root = (ruled.root / "AGENTS.md").read_text()
    assert "application/problem+json" not in root
    assert "`src/api/AGENTS.md` carries it in full there" in root
    assert "it uses the logging module" in root
    assert ruled.mj("update", "--check").code == 0
    wire(ruled)
    ruled.write("README.md", "# scratch\n\nAI workers: read AGENTS.md.\n")
    assert ruled.mj("update").code == 0
    ruled.commit("nested")
    assert ruled.mj("doctor").code == 0, ruled.mj("doctor")
    lands = ruled.mj("rules", "list").out
    assert "    codex: src/api/AGENTS.md — inside it, in full" in lands
    assert "    codex: AGENTS.md — a pointer inside it to the rule's file, not its text" in lands


def test_a_directory_s_own_agents_md_is_not_overwritten(ruled: Repo) -> None:
    ruled.write("src/api/AGENTS.md", "# Our notes for the API\n")
    refused = ruled.mj("update")
    assert refused.code == 15 and "src/api/AGENTS.md" in refused.err
    assert (ruled.root / "src/api/AGENTS.md").read_text() == "# Our notes for the API\n"


def test_rules_list_still_lists_when_update_would_refuse_a_template(ruled: Repo) -> None:
    ruled.write(".ai/repo/providers/codex.tmpl", "# AGENTS.md\n\n{{ nope }}\n")
    assert ruled.mj("update").code == 10
    listed = ruled.mj("rules", "list")
    assert listed.code == 0 and "project.api-errors@1" in listed.out
    assert "codex: AGENTS.md" not in listed.out


def test_update_reads_rules_through_its_cache_and_the_judges_never_do(ruled: Repo) -> None:
    """`update` keeps what it parsed of each rule file in `.ai/local/cache/rule.json` and uses
    an entry only while the file's size and times are the ones recorded. A forged entry can
    make a write wrong; `update --check` parses every file, so it fails that write."""
    import json
    import time

    time.sleep(2.1)  # a file changed in the last two seconds is never kept (racy times)
    assert ruled.mj("update").code == 0
    cache = ruled.root / ".ai/local/cache/rule.json"
    kept = json.loads(cache.read_text())
    entry = kept["entries"][".ai/repo/rules/project/no-print.md"]
    assert entry["data"]["title"] == "No print in library code"
    assert cache.stat().st_mode & 0o777 == 0o600
    assert ruled.mj("update", "--check").code == 0
    entry["data"]["title"] = "Print freely"  # forged: the file on disk is as it was
    cache.write_text(json.dumps(kept))
    (ruled.root / "AGENTS.md").unlink()
    assert ruled.mj("update").code == 0
    assert "## Print freely (`project.no-print@1`)" in (ruled.root / "AGENTS.md").read_text()
    check = ruled.mj("update", "--check")
    assert check.code == 10 and "AGENTS.md" in check.out, check
    # the file changed since the entry was kept: it is parsed again, and the write is right
    path = ruled.root / ".ai/repo/rules/project/no-print.md"
    path.write_text(path.read_text() + "\nPrefer structured fields.\n")
    assert ruled.mj("update").code == 0
    assert "## No print in library code" in (ruled.root / "AGENTS.md").read_text()
    assert ruled.mj("update", "--check").code == 0
