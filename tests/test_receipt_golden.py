"""The load receipt of every provider of the table, for one repository: a rule always loaded,
a rule scoped to `lib/**`, nested files (one `update` writes, some written by hand), rule
files written by hand, an `@path` import, a skill and MCP configurations — against a golden
copy per provider (tests/golden/receipt/<provider>.jsonl).

A golden copy holds what a person checks by eye: each item's path, why, whether it is loaded,
the glob, the importing file, whether `majordomus update` writes it, the note and the budget
(sizes and hashes change with every template; they are checked against the files here). A
golden copy changes only on purpose: `MJ_REGOLD=1 pytest tests/test_receipt_golden.py`
rewrites them, and a missing one fails.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from conftest import Repo
from test_providers import ALWAYS_RULE
from test_providers import PROVIDERS
from test_providers import SCOPED_RULE
from test_providers import add_skills
from test_providers import table
from test_shared_targets import declare

GOLDEN = Path(__file__).parent / "golden" / "receipt"
KEPT = ("path", "why", "loaded", "glob", "from", "projected", "budget", "note")
ASKED = "lib/core.py"
VENDOR = ".ai/repo/rules/vendor/"

HAND = {
    # nested files written by hand, for the clients that load them from subdirectories
    "lib/CLAUDE.md": "# lib\n\nClaude Code reads this beside lib/ code.\n",
    "lib/GEMINI.md": "# lib\n\nGemini CLI reads this in lib/.\n\n@../docs/conventions.md\n",
    "lib/sub/AGENTS.md": "# lib/sub\n\nCodex reads this under lib/sub.\n",
    # rule files written by hand into the directories the clients read rules from
    ".claude/rules/team.md": "# Team\n\nReviews are done daily.\n\n@../../docs/conventions.md\n",
    ".cursor/rules/team.mdc": "---\ndescription: team habits\nalwaysApply: false\n---\n# Team\n",
    ".github/instructions/team.instructions.md": '---\napplyTo: "lib/**"\n---\n# Team\n',
    ".windsurf/rules/team.md": "---\ntrigger: glob\nglobs: docs/**\n---\n# Team\n",
    ".kiro/steering/team.md": "---\ninclusion: manual\n---\n# Team\n",
    "docs/conventions.md": "# Conventions\n\nNames say what a thing is.\n",
    # MCP configurations
    ".mcp.json": '{"mcpServers": {}}\n',
    ".gemini/settings.json": '{"mcpServers": {}}\n',
    ".cursor/mcp.json": '{"mcpServers": {}}\n',
    ".codex/config.toml": "[mcp_servers]\n",
    "lib/core.py": "VALUE = 1\n",
    "lib/sub/deep.py": "VALUE = 2\n",
}


@pytest.fixture(scope="module")
def fixture(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    from conftest import make_repo

    base = tmp_path_factory.mktemp("receipt")
    repo = make_repo(base / "repo", base / "home")
    assert repo.mj("init").code == 0
    repo.write(".ai/repo/rules/project/no-print.md", ALWAYS_RULE)
    repo.write(".ai/repo/rules/project/lib-errors.md", scoped_to_lib())
    add_skills(repo)
    for name, text in HAND.items():
        repo.write(name, text)
    entries = [(name, str(row["target"])) for name, row in table().items()]
    declare(repo, entries)
    path = repo.root / ".ai/repo/policy.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("target: README.md\n", "target: README.md\n    mode: region\n"))
    updated = repo.mj("update")
    assert updated.code == 0, updated
    return repo


def scoped_to_lib() -> str:
    text = SCOPED_RULE.replace("src/api/**", "lib/**").replace(
        "project.api-errors", "project.lib-errors"
    )
    return text.replace("Errors from src/api are", "Errors from lib are")


def receipt(repo: Repo, provider: str) -> list[dict[str, object]]:
    result = repo.mj("receipt", "--json", "--for", provider, "--path", ASKED)
    assert result.code == 0, result
    records = [json.loads(line) for line in result.out.splitlines()]
    return [r for r in records if r["kind"] == "load"]


def received(data: bytes, provider: str, why: str) -> bytes:
    """The text the client hands the model, as the table's `text` says (checked against the
    real clients in test_real_client_receipt.py)."""
    spec = table()[provider].get("text") or {}
    if why == "import" and spec.get("inlines_imports"):
        return data
    text = data.decode()
    if "front-matter" in spec.get("strips", []) and text.startswith("---\n"):
        text = text[text.index("\n---\n", 3) + 5 :]
    if "html-comments" in spec.get("strips", []):
        lines = text.split("\n")
        text = "\n".join(x for x in lines if not (x.startswith("<!--") and x.endswith("-->")))
    trims = spec.get("trims") or (spec.get("trims_read") and why in ("nested", "scoped"))
    return (text.strip() if trims else text).encode()


@pytest.mark.parametrize("provider", PROVIDERS)
def test_each_providers_receipt_is_its_golden_copy(fixture: Repo, provider: str) -> None:
    found = receipt(fixture, provider)
    assert found and {r["provider"] for r in found} == {provider}
    for record in found:
        if record["sha256"] is None:
            continue
        data = (fixture.root / str(record["path"])).read_bytes()
        assert record["bytes"] == len(data), record
        assert (
            record["sha256"]
            == hashlib.sha256(received(data, provider, str(record["why"]))).hexdigest()
        ), record
    shown = [
        json.dumps({k: r[k] for k in KEPT}, ensure_ascii=False)
        for r in found
        if not str(r["path"]).startswith(VENDOR)
    ]
    golden = GOLDEN / f"{provider}.jsonl"
    if os.environ.get("MJ_REGOLD") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text("\n".join(shown) + "\n", encoding="utf-8")
    assert golden.is_file(), f"no golden copy {golden}: MJ_REGOLD=1 writes it"
    assert golden.read_text(encoding="utf-8").splitlines() == shown


def test_hand_written_files_are_on_the_receipt_and_marked_as_not_projected(fixture: Repo) -> None:
    by = {r["path"]: r for r in receipt(fixture, "claude-code")}
    assert (by["lib/CLAUDE.md"]["why"], by["lib/CLAUDE.md"]["loaded"]) == ("nested", True)
    assert (by[".claude/rules/team.md"]["why"], by[".claude/rules/team.md"]["loaded"]) == (
        "always",
        True,
    )
    assert by["docs/conventions.md"]["from"] == ".claude/rules/team.md"
    assert not any(by[p]["projected"] for p in ("lib/CLAUDE.md", ".claude/rules/team.md"))
    assert by[".claude/rules/project-lib-errors.md"]["projected"] is True
    codex = {r["path"]: r for r in receipt(fixture, "codex")}
    assert codex["lib/sub/AGENTS.md"]["loaded"] is False  # lib/core.py is not under lib/sub
    cursor = {r["path"]: r for r in receipt(fixture, "cursor")}
    assert (
        cursor[".cursor/rules/team.mdc"]["why"],
        cursor[".cursor/rules/team.mdc"]["loaded"],
    ) == (
        "on-request",
        False,
    )
    shown = fixture.mj("receipt", "--for", "claude-code", "--path", ASKED)
    row = next(line for line in shown.out.splitlines() if "lib/CLAUDE.md" in line)
    assert row.endswith("(hand-written; a path asked about is under lib/)"), shown.out
