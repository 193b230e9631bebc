"""`majordomus mcp` names every object by its record's identity, percent-encoded, and `search`
reads the policy and the rules too.

A rule is `majordomus://rule/<id>` (its front matter's id, not its file's name), a closed
session `majordomus://session/<session_id>`, an ADR `majordomus://adr/adr-NNNN`; an id sent
percent-encoded names the same object; a rule file's old name names nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import Repo
from test_mcp import _session
from test_mcp import _text

pytest.importorskip("mcp")
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError

RULE = ".ai/repo/rules/project/signing-keys.v1.md"
RULE_TEXT = (
    "---\nid: project.signing-keys\nversion: 1\nkind: rule\ntitle: Keys are signed\n"
    "description: Release keys are signed twice.\nstatement: A release key is signed twice.\n"
    "status: active\nclass: advisory\n---\n\nSign every Guillemot key twice.\n"
)
ADR = ".ai/repo/adrs/0007-sign-the-keys.md"


@pytest.fixture
def named(layer_repo: Repo) -> Repo:
    repo = layer_repo
    repo.write(RULE, RULE_TEXT)
    repo.write(ADR, "# 7. Sign the keys\n\nTwice.\n")
    repo.commit("a project rule and an ADR")
    assert repo.mj("session", "start").code == 0
    closed = repo.mj("session", "close", "--outcome", "interrupted")
    assert closed.code == 0, closed
    return repo


def _session_id(repo: Repo) -> str:
    (record,) = (repo.root / ".ai/repo/sessions").glob("*.md")
    found = re.search(r"^session_id: (s-\S+)$", record.read_text(), flags=re.M)
    assert found
    return found.group(1)


def test_records_are_named_by_their_identity(named: Repo) -> None:
    session = _session_id(named)
    wanted = {
        "majordomus://rule/project.signing-keys": RULE,
        "majordomus://rule/majordomus.context-budget": (
            ".ai/repo/rules/vendor/majordomus/rules/context-budget.v1.md"
        ),
        f"majordomus://session/{session}": None,
        "majordomus://adr/adr-0007": ADR,
        # percent-encoded ids name the same objects
        "majordomus://rule/project%2Esigning-keys": RULE,
        "majordomus://rule/project.signing-keys%401": RULE,
    }

    async def body(session: ClientSession) -> Any:
        listed = await session.list_resources()
        read = {uri: await session.read_resource(uri) for uri in wanted}
        with pytest.raises(MCPError) as old:
            await session.read_resource("majordomus://rule/project.signing-keys.v1")
        rules = await session.call_tool("list", {"kind": "rule"})
        return listed, read, old.value, rules

    listed, read, old, rules = _session(named, body)
    uris = {resource.uri for resource in listed.resources}
    assert {uri for uri in wanted if "%" not in uri} <= uris, sorted(uris)
    for uri, path in wanted.items():
        text = read[uri].contents[0].text
        if path is None:
            assert f"session_id: {session}" in text
        else:
            assert text == (named.root / path).read_text()
    assert "no such rule" in old.message
    assert "majordomus://rule/project.signing-keys  " in _text(rules)


def test_search_reads_the_policy_and_the_rules(named: Repo) -> None:
    rule = named.mj("search", "guillemot")
    assert rule.code == 0, rule
    assert f"rule        {RULE}:12  Sign every Guillemot key twice." in rule.out
    policy = named.mj("search", "always_loaded_budget_lines", "--kind", "policy")
    assert policy.code == 0, policy
    assert policy.out.startswith("policy      .ai/repo/policy.yaml:"), policy.out
    vendored = named.mj("search", "thin bootstrap", "--kind", "rule")
    assert "rules/vendor/majordomus/rules/context-budget.v1.md" in vendored.out

    async def body(session: ClientSession) -> Any:
        return await session.call_tool("search", {"text": "guillemot", "kind": ["rule"]})

    assert "Sign every Guillemot key twice." in _text(_session(named, body))
