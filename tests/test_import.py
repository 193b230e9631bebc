"""`majordomus init --import`: a repository's existing instruction files become project rules
with their provenance and scope, duplicates merged; `update` then replaces the files, and only
when nothing of them would be lost.

The golden copies (tests/golden/import/) are the rule files the fixture gives and the part of
`init`'s output that says what was imported; `MJ_REGOLD=1` rewrites them.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest
from conftest import Repo
from conftest import failures
from importrepo import FILES
from importrepo import outside_ai
from importrepo import seed
from importrepo import under_ai

GOLDEN = Path(__file__).parent / "golden" / "import"
RULES = ".ai/repo/rules/project"


@pytest.fixture
def imported(git_repo: Repo) -> Repo:
    seed(git_repo)
    result = git_repo.mj("init", "--import")
    assert result.code == 0, result
    return git_repo


def rule(repo: Repo, name: str) -> str:
    return (repo.root / RULES / name).read_text(encoding="utf-8")


def rules(repo: Repo) -> dict[str, str]:
    base = repo.root / RULES
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(base.glob("*.md"))}


def test_the_rules_match_their_golden_copies(git_repo: Repo) -> None:
    seed(git_repo)
    result = git_repo.mj("init", "--import")
    assert result.code == 0, result
    said = result.out[result.out.index("imported (") : result.out.index("local state:")]
    made = {**rules(git_repo), "init.txt": said}
    if os.environ.get("MJ_REGOLD"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for old in GOLDEN.iterdir():
            old.unlink()
        for name, text in made.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    golden = {p.name: p.read_text(encoding="utf-8") for p in sorted(GOLDEN.iterdir())}
    assert made == golden


def test_each_piece_keeps_where_it_came_from(imported: Repo) -> None:
    style = rule(imported, "style.v1.md")
    lines = FILES["CLAUDE.md"].splitlines(keepends=True)
    piece = "".join(lines[9:15])  # lines 10-15: the heading to the HTML comment
    assert "  - file: CLAUDE.md\n" in style
    assert '    lines: "10-15"\n' in style
    assert f"    sha256: {hashlib.sha256(piece.encode()).hexdigest()}\n" in style
    assert "<!-- reviewers read this section first -->" in style  # a comment is text
    assert "always_loaded: true" in style and "tags:\n  - imported\n" in style


def test_the_same_section_in_two_files_is_one_rule_naming_both(imported: Repo) -> None:
    made = rules(imported)
    testing = [name for name, text in made.items() if "Never skip a failing test" in text]
    assert testing == ["testing.v1.md"]
    text = made["testing.v1.md"]
    assert re.search(r"- file: AGENTS.md\n    lines: \"3-6\"", text)
    assert re.search(r"- file: CLAUDE.md\n    lines: \"5-8\"", text)
    assert "imported from `AGENTS.md` and `CLAUDE.md`" in text


def test_scopes_come_from_the_providers_own_front_matter(imported: Repo) -> None:
    api = rule(imported, "api-handlers.v1.md")
    assert "paths:\n  - src/api/**/*.ts\n  - src/api/**/*.tsx\n" in api
    assert "description: API handlers\n" in api and "globs" not in api
    python = rule(imported, "py.v1.md")
    assert 'paths:\n  - "**/*.py"\n' in python
    nested = rule(imported, "lib-agents-md.v1.md")
    assert "paths:\n  - lib/**\n" in nested
    release = rule(imported, "how-a-release-is-cut.v1.md")  # Cursor applies it on request
    assert "paths:" not in release and "always_loaded" not in release
    referenced = rule(imported, "docs-conventions-md.v1.md")
    assert "    via: CLAUDE.md:17\n" in referenced and "always_loaded: true" in referenced


def test_import_writes_only_under_ai_and_the_files_stay(git_repo: Repo) -> None:
    seed(git_repo)
    before = outside_ai(git_repo)
    assert git_repo.mj("init", "--import").code == 0
    assert outside_ai(git_repo) == before


def test_a_second_import_refuses_and_extend_adds_nothing(imported: Repo) -> None:
    layer = under_ai(imported)
    again = imported.mj("init", "--import")
    assert again.code == 15, again
    assert "--extend" in again.err
    extended = imported.mj("init", "--import", "--extend")
    assert extended.code == 0, extended
    assert "imported: nothing new" in extended.out
    assert "already imported: project.testing" in extended.out
    assert under_ai(imported) == layer


def test_update_replaces_the_imported_files_without_force(imported: Repo) -> None:
    result = imported.mj("update")
    assert result.code == 0, result
    for gone in (".cursorrules", ".cursor/rules/api.mdc", ".cursor/rules/release.mdc"):
        assert not (imported.root / gone).exists(), gone
    assert not (imported.root / ".github/instructions/py.instructions.md").exists()
    claude = (imported.root / "CLAUDE.md").read_text()
    assert claude.startswith("<!-- majordomus:begin") and "make test" not in claude
    agents = (imported.root / "AGENTS.md").read_text()
    assert agents.startswith("<!-- generated by `majordomus update`")
    assert "Write commit messages in the imperative mood." in agents
    nested = (imported.root / "lib/AGENTS.md").read_text()
    assert "Code under lib/ is pure: no network, no files, no clock." in nested
    assert imported.mj("update", "--check").code == 0
    assert imported.mj("update").out.startswith("unchanged")


def test_update_check_names_every_file_the_hand_over_would_change(imported: Repo) -> None:
    result = imported.mj("update", "--check")
    assert result.code == 10
    found = {subject: message for _, subject, message, _ in failures(result.out)}
    assert found["AGENTS.md"] == "would change (imported)"
    assert found["CLAUDE.md"] == "would change (imported)"
    assert found[".cursorrules"].startswith("every piece of it is a rule now")


def test_text_added_after_the_import_is_refused_then_imported(imported: Repo) -> None:
    path = imported.root / "CLAUDE.md"
    path.write_text(path.read_text() + "\n## Docs\n\nEvery public function has a docstring.\n")
    before = outside_ai(imported)
    refused = imported.mj("update")
    assert refused.code == 15, refused
    assert refused.err.startswith("majordomus: CLAUDE.md: lines 19-21 hold text no rule carries")
    assert outside_ai(imported) == before  # nothing written, nothing removed
    again = imported.mj("init", "--import", "--extend")
    assert again.code == 0 and "project.docs" in again.out, again
    assert imported.mj("update").code == 0
    assert "Every public function has a docstring." in rule(imported, "docs.v1.md")


def test_an_edited_leftover_is_refused_and_force_removes_it(imported: Repo) -> None:
    (imported.root / ".cursorrules").write_text(
        "Prefer small pull requests over large ones.\n\nAlso: no merges on Fridays.\n"
    )
    refused = imported.mj("update")
    assert refused.code == 15, refused
    assert refused.err.startswith("majordomus: .cursorrules: lines 1-3 hold text no rule carries")
    assert (imported.root / ".cursorrules").exists()
    forced = imported.mj("update", "--force")
    assert forced.code == 0, forced
    assert not (imported.root / ".cursorrules").exists()


def test_a_rule_edited_to_drop_text_stops_the_hand_over(imported: Repo) -> None:
    path = imported.root / RULES / "commits.v1.md"
    path.write_text(
        path.read_text().replace("Write commit messages in the imperative mood.", "Be brief.")
    )
    refused = imported.mj("update")
    assert refused.code == 15, refused
    assert refused.err.startswith("majordomus: AGENTS.md: lines 8-10 hold text no rule carries")


def test_a_rule_narrowed_below_where_its_text_reached_stops_the_hand_over(imported: Repo) -> None:
    path = imported.root / RULES / "commits.v1.md"
    path.write_text(path.read_text().replace("always_loaded: true\n", "paths:\n  - src/**\n"))
    refused = imported.mj("update")
    assert refused.code == 15, refused
    assert "AGENTS.md: lines 8-10 hold text no rule carries" in refused.err


def test_a_provider_the_policy_does_not_declare_keeps_its_files(git_repo: Repo) -> None:
    assert git_repo.mj("init").code == 0
    seed(git_repo)
    result = git_repo.mj("init", "--import", "--extend")
    assert result.code == 0, result
    assert "WARN import      copilot — read .github/copilot-instructions.md" in result.out
    assert "copilot" not in (git_repo.root / ".ai/repo/policy.yaml").read_text()
    assert git_repo.mj("update").code == 0
    kept = git_repo.root / ".github/instructions/py.instructions.md"
    assert kept.read_text() == FILES[".github/instructions/py.instructions.md"]
    assert not (git_repo.root / ".cursorrules").exists()  # Cursor is declared


def test_a_new_layer_declares_the_providers_the_files_reached(imported: Repo) -> None:
    policy = (imported.root / ".ai/repo/policy.yaml").read_text()
    assert "  - provider: copilot" in policy
    assert "    target: .github/copilot-instructions.md\n" in policy
    assert "opencode" not in policy  # it reads AGENTS.md, which Codex's projection writes


def test_what_the_projections_say_anyway_is_not_imported(git_repo: Repo) -> None:
    assert git_repo.mj("init").code == 0
    assert git_repo.mj("update").code == 0
    agents = (git_repo.root / "AGENTS.md").read_text()
    bootstrap = agents.split("\n", 1)[1]  # without its stamp: no longer the tool's own file
    git_repo.write("AGENTS.md", bootstrap + "\n## Deploys\n\nDeploy only from main.\n")
    result = git_repo.mj("init", "--import", "--extend")
    assert result.code == 0, result
    assert "the bootstrap `majordomus update` writes says it" in result.out
    made = rules(git_repo)
    assert list(made) == ["deploys.v1.md"], made
    assert git_repo.mj("update").code == 0
    assert "Deploy only from main." in (git_repo.root / "AGENTS.md").read_text()


def test_a_nested_claude_md_becomes_a_scoped_rule_and_is_removed(git_repo: Repo) -> None:
    seed(
        git_repo, {"web/CLAUDE.md": "Use the design tokens, never raw colours.\n", "web/app.js": ""}
    )
    assert git_repo.mj("init", "--import").code == 0
    made = rule(git_repo, "web-claude-md.v1.md")
    assert "paths:\n  - web/**\n" in made
    assert git_repo.mj("update").code == 0
    assert not (git_repo.root / "web/CLAUDE.md").exists()
    projected = (git_repo.root / ".claude/rules/project-web-claude-md.md").read_text()
    assert projected.startswith('---\npaths:\n  - "web/**"\n---\n')
    assert "Use the design tokens, never raw colours." in projected


def test_text_written_beside_the_region_after_the_hand_over_stays(imported: Repo) -> None:
    assert imported.mj("update").code == 0
    path = imported.root / "CLAUDE.md"
    path.write_text(path.read_text() + "\nAsk before deleting a migration.\n")
    result = imported.mj("update")
    assert result.code == 0, result
    assert path.read_text().endswith("\nAsk before deleting a migration.\n")


def test_following_the_printed_next_steps_commits_the_adoption(git_repo: Repo) -> None:
    from test_adoption import follow

    seed(git_repo)
    init = git_repo.mj("init", "--import")
    steps = follow(git_repo, init.out)
    assert [step.split()[0:2] for step, _ in steps] == [
        ["majordomus", "update"],
        ["majordomus", "doctor"],
        ["git", "add"],
        ["git", "commit"],
    ]
    assert git_repo.git("status", "--porcelain").strip() == ""  # removals committed too
    assert ".cursorrules" not in git_repo.git("ls-files")
    assert git_repo.mj("doctor").code == 0


def test_text_the_budget_would_turn_into_a_pointer_stops_the_hand_over(imported: Repo) -> None:
    """Codex read AGENTS.md whole; past the always-loaded budget a rule is only a pointer in
    the projection, so the file is not handed over until the budget holds it (or --force)."""
    policy = imported.root / ".ai/repo/policy.yaml"
    text = policy.read_text()
    policy.write_text(
        text.replace("always_loaded_budget_lines: 150", "always_loaded_budget_lines: 100")
    )
    before = outside_ai(imported)
    refused = imported.mj("update")
    assert refused.code == 15, refused
    assert re.search(
        r"AGENTS.md: lines [0-9, -]+ would reach codex, opencode only as a pointer", refused.err
    )
    assert outside_ai(imported) == before
    policy.write_text(text)
    assert imported.mj("update").code == 0
