"""`rules list` and `context --for` say what the load receipt says (`majordomus receipt`): where
a rule reaches each declared client is read off the client's receipt (also through the files of
other providers it loads), and the `context --for` header names the provider's file and what its
client puts into every conversation with it, hand-written files included.

One repository: Claude Code, Codex CLI, Cursor and GitHub Copilot declared (Cursor and Copilot
also load AGENTS.md; Copilot also CLAUDE.md and Claude Code's rule files), a rule always loaded,
one scoped to `src/api/**`, and a rule file Claude Code loads that `update` does not write.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Repo
from test_providers import ALWAYS_RULE
from test_providers import SCOPED_RULE
from test_shared_targets import declare

DECLARED = [
    ("claude-code", "CLAUDE.md"),
    ("codex", "AGENTS.md"),
    ("cursor", ".cursor/rules/majordomus.mdc"),
    ("copilot", ".github/copilot-instructions.md"),
]
HAND = ".claude/rules/team.md"


@pytest.fixture
def repo(layer_repo: Repo) -> Repo:
    layer_repo.write(".ai/repo/rules/project/no-print.md", ALWAYS_RULE)
    layer_repo.write(".ai/repo/rules/project/api-errors.md", SCOPED_RULE)
    declare(layer_repo, DECLARED)
    assert layer_repo.mj("update").code == 0
    layer_repo.write(HAND, "# Team\n\nReviews are done daily.\n")
    layer_repo.commit("four clients")
    return layer_repo


def receipt(repo: Repo, provider: str) -> list[dict[str, Any]]:
    done = repo.mj("receipt", "--json", "--for", provider)
    assert done.code == 0, done
    found = [json.loads(line) for line in done.out.splitlines()]
    return [r for r in found if r["kind"] == "load"]


def test_rules_list_lands_a_rule_where_each_client_s_receipt_carries_it(repo: Repo) -> None:
    listed = repo.mj("rules", "list", "--json")
    assert listed.code == 0, listed
    records = [json.loads(line) for line in listed.out.splitlines()]
    lands = {r["id"]: r["lands"] for r in records if r["kind"] == "rule"}
    # Cursor and Copilot load AGENTS.md, which carries both rules in full; Copilot loads
    # Claude Code's rule files, honouring their paths
    always = lands["project.no-print"]
    assert {"provider": "cursor", "target": "AGENTS.md", "as": "inline"} in always
    assert {"provider": "copilot", "target": "AGENTS.md", "as": "inline"} in always
    own = {"provider": "copilot", "target": ".claude/rules/project-no-print.md", "as": "always"}
    assert own in always
    scoped = {
        "provider": "copilot",
        "target": ".claude/rules/project-api-errors.md",
        "as": "scoped",
    }
    assert scoped in lands["project.api-errors"]
    for provider, _ in DECLARED:  # every landing is a file on that client's receipt
        on = {r["path"] for r in receipt(repo, provider)}
        for found in lands.values():
            assert {e["target"] for e in found if e["provider"] == provider} <= on, provider
    text = repo.mj("rules", "list").out
    assert "    cursor: AGENTS.md — inside it, in full\n" in text


def test_context_for_names_what_the_client_loads_as_its_receipt_does(repo: Repo) -> None:
    for provider, target in DECLARED:
        items = receipt(repo, provider)
        loads = [r["path"] for r in items if r["loaded"] and r["why"] in ("always", "import")]
        also = ", ".join(p for p in loads if p != target)
        first = repo.mj("context", "--for", provider).out.split("\n", 1)[0]
        said = f"# for {provider} — its file {target} (always loaded)"
        assert first == said + (f"; its client also loads {also}" if also else ""), first
        document = json.loads(repo.mj("context", "--for", provider, "--json").out)
        assert document["for"]["loads"] == loads
    copilot = repo.mj("context", "--for", "copilot").out.split("\n", 1)[0]
    assert copilot.endswith(
        f"its client also loads AGENTS.md, CLAUDE.md, .claude/rules/project-no-print.md, {HAND}"
    ), copilot
    claude = repo.mj("context", "--for", "claude-code").out.split("\n", 1)[0]
    assert claude.endswith(f"also loads .claude/rules/project-no-print.md, {HAND}"), claude


def test_context_for_says_when_the_provider_s_file_is_not_on_disk(repo: Repo) -> None:
    (repo.root / ".github/copilot-instructions.md").unlink()
    first = repo.mj("context", "--for", "copilot").out.split("\n", 1)[0]
    assert first.startswith(
        "# for copilot — its file .github/copilot-instructions.md (not on disk: "
        "`majordomus update` writes it); its client also loads AGENTS.md"
    ), first
