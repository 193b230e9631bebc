"""`majordomus receipt`: which instruction files each provider's client loads for a path, why,
with each file's size and hash, and what it does not load and why."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from conftest import Repo
from test_providers import add_rules
from test_providers import add_skills
from test_shared_targets import declare

POLICY = ".ai/repo/policy.yaml"
HANDLER = "src/api/handler.py"


@pytest.fixture
def receipted(layer_repo: Repo) -> Repo:
    """Claude Code importing AGENTS.md, Codex, Gemini CLI and Copilot; a scoped and an
    always-loaded rule, a skill and Claude Code's MCP configuration."""
    add_rules(layer_repo)
    add_skills(layer_repo)
    layer_repo.write(HANDLER, "def handle():\n    return None\n")
    layer_repo.write(".mcp.json", '{"mcpServers": {}}\n')
    declare(
        layer_repo,
        [
            ("codex", "AGENTS.md"),
            ("claude-code", "CLAUDE.md"),
            ("gemini", "GEMINI.md"),
            ("copilot", ".github/copilot-instructions.md"),
        ],
    )
    path = layer_repo.root / POLICY
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("    target: CLAUDE.md\n", "    target: CLAUDE.md\n    imports: AGENTS.md\n"),
        encoding="utf-8",
    )
    assert layer_repo.mj("update").code == 0
    return layer_repo


def loads(repo: Repo, *args: str) -> list[dict[str, object]]:
    result = repo.mj("receipt", "--json", *args)
    assert result.code == 0, result
    records = [json.loads(line) for line in result.out.splitlines()]
    assert records[-1]["kind"] == "summary"
    return [r for r in records if r["kind"] == "load"]


def as_claude_sends(data: bytes) -> bytes:
    text = data.decode()
    if text.startswith("---\n"):
        text = text[text.index("\n---\n", 3) + 5 :]
    kept = [line for line in text.split("\n") if not re.fullmatch(r"\s*<!--.*-->\s*", line)]
    return "\n".join(kept).strip().encode()


def listed(records: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    """(path, why, loaded) of each item but the rules read on request."""
    return [(r["path"], r["why"], r["loaded"]) for r in records if r["why"] != "on-request"]


def test_claude_code_for_a_handler_lists_its_files_the_import_and_the_scoped_rule(
    receipted: Repo,
) -> None:
    found = loads(receipted, "--for", "claude-code", "--path", HANDLER)
    assert listed(found) == [
        ("CLAUDE.md", "always", True),
        ("AGENTS.md", "import", True),
        (".claude/rules/project-api-errors.md", "scoped", True),
        (".claude/skills/release-notes/SKILL.md", "skill-index", True),
        (".mcp.json", "mcp", True),
    ]
    by = {r["path"]: r for r in found}
    assert by["AGENTS.md"]["from"] == "CLAUDE.md"  # it carries the always-loaded rule
    assert "Library code never calls print()" in (receipted.root / "AGENTS.md").read_text()
    assert by[".claude/rules/project-api-errors.md"]["glob"] == "src/api/**"
    for record in found:
        data = (receipted.root / str(record["path"])).read_bytes()
        # Claude Code hands the model each file without its front matter and HTML comments
        # on lines of their own, trimmed; the receipt hashes that text
        assert record["sha256"] == hashlib.sha256(as_claude_sends(data)).hexdigest()
        assert record["bytes"] == len(data) and record["lines"] == data.count(b"\n")
        written = record["why"] != "on-request" and record["path"] != ".mcp.json"
        assert record["projected"] is written  # the rules' own files are not written by update
    assert (
        by["CLAUDE.md"]["sha256"]
        != hashlib.sha256((receipted.root / "CLAUDE.md").read_bytes()).hexdigest()
    )  # its stamp is an HTML comment the client drops
    assert by["CLAUDE.md"]["budget"] == by["AGENTS.md"]["budget"] is not None
    assert by[".claude/rules/project-api-errors.md"]["budget"] is None  # loaded where it applies
    asked = [r for r in found if r["why"] == "on-request"]
    assert asked and all(not r["loaded"] for r in asked)
    assert {str(r["path"]).split("/")[3] for r in asked} <= {"vendor", "project"}


def test_a_path_the_rule_is_not_scoped_to_leaves_it_unloaded_and_says_why(
    receipted: Repo,
) -> None:
    found = loads(receipted, "--for", "claude-code", "--path", "README.md")
    [scoped] = [r for r in found if r["why"] == "scoped"]
    assert scoped["path"] == ".claude/rules/project-api-errors.md" and scoped["loaded"] is False
    assert scoped["note"] == "scoped to src/api/**; no path asked about matches"
    assert scoped["sha256"] is None


def test_codex_loads_the_nested_file_of_the_directory_it_works_in(receipted: Repo) -> None:
    assert listed(loads(receipted, "--for", "codex")) == [
        ("AGENTS.md", "always", True),
        (".agents/skills/release-notes/SKILL.md", "skill-index", True),
        ("src/api/AGENTS.md", "nested", False),  # on the receipt, not loaded from the root
    ]
    assert listed(loads(receipted, "--for", "codex", "--path", HANDLER))[1] == (
        "src/api/AGENTS.md",
        "nested",
        True,
    )


def test_copilot_loads_the_other_providers_files_each_once(receipted: Repo) -> None:
    found = listed(loads(receipted, "--for", "copilot", "--path", HANDLER))
    assert found[:4] == [
        (".github/copilot-instructions.md", "always", True),
        ("AGENTS.md", "always", True),
        ("CLAUDE.md", "always", True),
        ("GEMINI.md", "always", True),
    ]
    assert (".claude/rules/project-api-errors.md", "scoped", True) in found
    assert (".github/instructions/project-api-errors.instructions.md", "scoped", True) in found
    # the `@AGENTS.md` line of CLAUDE.md, which Copilot CLI expands, names a file it loads
    # already: no item of its own
    assert not [f for f in found if f[1] == "import"]


def test_every_declared_provider_is_listed_and_the_text_is_a_short_table(
    receipted: Repo,
) -> None:
    assert list(dict.fromkeys(r["provider"] for r in loads(receipted))) == [
        "claude-code",
        "codex",
        "gemini",
        "copilot",
    ]
    shown = receipted.mj("receipt", "--for", "claude-code", "--path", HANDLER)
    assert shown.code == 0, shown
    lines = shown.out.splitlines()
    assert lines[0].startswith("claude-code: ") and "lines in every conversation" in lines[0]
    assert len(lines) == 7, shown.out  # the rules read on request: one line
    assert "scoped" in lines[3] and ".claude/rules/project-api-errors.md" in lines[3]
    counted = sum(
        (receipted.root / name).read_bytes().count(b"\n") for name in ("CLAUDE.md", "AGENTS.md")
    )
    assert lines[0].startswith(f"claude-code: {counted} lines")  # not the scoped rule


def test_an_unknown_provider_is_2_and_a_path_outside_is_refused(receipted: Repo) -> None:
    unknown = receipted.mj("receipt", "--for", "claude")
    assert unknown.code == 2 and len(unknown.err.splitlines()) == 1, unknown
    assert "--for claude: unknown provider" in unknown.err
    outside = receipted.mj("receipt", "--path", "../elsewhere.py")
    assert outside.code == 15 and "outside the repository" in outside.err, outside


def test_the_table_reads_only_what_it_shows(receipted: Repo) -> None:
    """Without --json the receipt's stage runs in its text form: the files the table lists are
    measured, none is hashed, and the rule files read only on request are counted unread."""
    piped = receipted.mj("receipt", "--for", "claude-code", "--pipeline")
    assert piped.out.strip() == "mj-policy receipt --format text --for claude-code", piped
    said = {}
    for form in ("text", "json"):
        done = receipted.run("mj-policy", "receipt", "--format", form, "--for", "claude-code")
        assert done.code == 0, done
        found = [json.loads(line) for line in done.out.splitlines()]
        said[form] = [r for r in found if r["kind"] == "load"]
    text, full = said["text"], said["json"]
    assert [r["path"] for r in text] == [r["path"] for r in full]
    assert all(r["sha256"] is None for r in text)
    assert all(r["sha256"] for r in full if r["loaded"] or r["why"] == "on-request")
    for shown, whole in zip(text, full, strict=True):
        if whole["why"] == "on-request" and str(whole["path"]).startswith(".ai/repo/rules/"):
            assert shown["lines"] is None and whole["lines"], whole["path"]
        else:
            assert shown["lines"] == whole["lines"], whole["path"]
