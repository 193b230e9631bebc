"""`majordomus mcp` serves the declarations, the skills, the ADRs and the knowledge nodes.

Driven by the MCP Python SDK's own stdio client (`test_mcp._session`): each of these kinds is in
resources/list and `list`, each resource reads back as its file, a knowledge node (whose id may
hold a path) by its percent-encoded URI; a path-shaped id of any of them is refused, a node the
graph's cache lists for a file git does not track is not served, and nothing is written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Repo
from test_declarations import DEP
from test_declarations import DEPLOYMENT
from test_declarations import WORKSPACE
from test_declarations import WS
from test_mcp import _session
from test_mcp import _text
from test_mcp import _tree

pytest.importorskip("mcp")
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError

SKILL = ".ai/repo/skills/ringing/SKILL.md"
ADR = ".ai/repo/adrs/0001-ring-the-birds.md"
NOTE = ".ai/repo/knowledge/curated/nests.md"
OLD = ".ai/repo/knowledge/curated/old notes.md"  # no id: its node id is its path, space and all
FILES = {
    "majordomus://workspace/chatgpt-design": WS,
    "majordomus://deployment/service": DEP,
    "majordomus://skill/ringing": SKILL,
    "majordomus://adr/adr-0001": ADR,
    "majordomus://knowledge/knowledge:nests": NOTE,
    f"majordomus://knowledge/document:{ADR}": ADR,
    "majordomus://knowledge/document:.ai/repo/knowledge/curated/old%20notes.md": OLD,
}


@pytest.fixture
def declared(layer_repo: Repo) -> Repo:
    repo = layer_repo
    repo.write(WS, WORKSPACE)
    repo.write(DEP, DEPLOYMENT)
    repo.write(SKILL, "---\nschema: skill/v1\nid: ringing\n---\n\n# Purpose\nRing birds.\n")
    repo.write(ADR, "# 1. Ring the birds\n\nWith care.\n")
    repo.write(NOTE, "---\nid: nests\ntitle: Where the birds nest\n---\n\nIn hedges.\n")
    repo.write(OLD, "# Old notes on birds\n")
    repo.commit("declarations, a skill, an ADR, a note")
    return repo


async def _every(session: ClientSession) -> list[Any]:
    from mcp.types import PaginatedRequestParams

    found, cursor = [], None
    while True:
        params = PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_resources(params=params)
        found += page.resources
        cursor = page.next_cursor
        if not cursor:
            return found


def test_each_kind_is_listed_and_reads_as_its_file(declared: Repo) -> None:
    async def body(session: ClientSession) -> Any:
        listed = await _every(session)
        read = {uri: await session.read_resource(uri) for uri in FILES}
        nodes = await session.call_tool("list", {"kind": "knowledge"})
        got = await session.call_tool("get", {"uri": f"majordomus://knowledge/document:{OLD}"})
        return listed, read, nodes, got

    listed, read, nodes, got = _session(declared, body)
    uris = {resource.uri: resource for resource in listed}
    assert set(FILES) <= set(uris), sorted(uris)
    for uri, path in FILES.items():
        assert read[uri].contents[0].text == (declared.root / path).read_text()
        assert read[uri].contents[0].uri == uri
    assert uris["majordomus://knowledge/knowledge:nests"].title == "Where the birds nest"
    assert uris["majordomus://workspace/chatgpt-design"].mime_type == "application/yaml"
    assert uris["majordomus://knowledge/knowledge:nests"].mime_type == "text/markdown"
    assert "majordomus://knowledge/knowledge:nests  Where the birds nest" in _text(nodes)
    assert not got.is_error and _text(got) == "# Old notes on birds\n"  # the id unencoded too


@pytest.mark.parametrize(
    "uri",
    [
        "majordomus://workspace/../../../etc/passwd",
        "majordomus://deployment/..",
        "majordomus://skill/../../policy.yaml",
        "majordomus://adr/..%2F..%2Fpolicy",
        "majordomus://knowledge/document:../../etc/passwd",
        "majordomus://knowledge/document:/etc/passwd",
        "majordomus://knowledge/document:.ai/repo/../../../etc/passwd",
        "majordomus://knowledge/document:%2e%2e/%2e%2e/etc/passwd",
        "majordomus://knowledge/../etc/passwd",
    ],
)
def test_a_path_escape_is_refused(declared: Repo, uri: str) -> None:
    async def body(session: ClientSession) -> Any:
        with pytest.raises(MCPError) as refused:
            await session.read_resource(uri)
        as_tool = await session.call_tool("get", {"uri": uri})
        return refused.value, as_tool

    refused, as_tool = _session(declared, body)
    assert "path escape is refused" in refused.message
    assert as_tool.is_error and "path escape is refused" in _text(as_tool)


def test_a_node_the_cache_lists_for_an_untracked_file_is_not_served(declared: Repo) -> None:
    declared.write("untracked.md", "# not tracked\n")
    assert declared.mj("knowledge", "nodes").code == 0  # leaves the graph's cache
    cache = declared.root / ".ai/local/cache/knowledge-nodes.json"
    body = json.loads(cache.read_text())
    body["nodes"].append(["document:untracked.md", "document", "untracked.md", "x", "x", "x"])
    cache.write_text(json.dumps(body))
    before = _tree(declared.root)

    async def calls(session: ClientSession) -> Any:
        listed = await _every(session)
        with pytest.raises(MCPError) as unknown:
            await session.read_resource("majordomus://knowledge/document:untracked.md")
        found = await session.call_tool("search", {"text": "birds", "kind": ["knowledge"]})
        return listed, unknown.value, found

    listed, unknown, found = _session(declared, calls)
    assert not any("untracked" in resource.uri for resource in listed)
    assert "no such knowledge" in unknown.message
    lines = _text(found).splitlines()
    assert lines[-1] == "search: 3 match(es)"
    assert all(line.startswith("knowledge") for line in lines[:-1])
    assert _tree(declared.root) == before  # the session wrote nothing


def test_a_graph_that_cannot_be_read_leaves_the_rest_served(declared: Repo) -> None:
    sources = Path(declared.root / ".ai/repo/knowledge/sources.yaml")
    sources.write_text(sources.read_text() + "colour: blue\n")

    async def body(session: ClientSession) -> Any:
        listed = await _every(session)
        nodes = await session.call_tool("list", {"kind": "knowledge"})
        return listed, nodes

    listed, nodes = _session(declared, body)
    kinds = {resource.uri.split("/")[2] for resource in listed}
    assert {"workspace", "deployment", "skill", "adr"} <= kinds and "knowledge" not in kinds
    assert nodes.is_error and "colour" in _text(nodes)


def test_a_session_sees_the_index_change_between_calls(declared: Repo) -> None:
    async def body(session: ClientSession) -> Any:
        said = []
        for step in range(4):
            if step == 2:  # a new note, committed while the server runs
                declared.write(
                    ".ai/repo/knowledge/curated/firs.md", "---\nid: firs\ntitle: Fir birds\n---\n"
                )
                declared.commit("a note")
            if step == 3:  # the class of notes dropped from the sources file
                sources = declared.root / ".ai/repo/knowledge/sources.yaml"
                text = sources.read_text()
                start = text.index("  - id: curated")
                sources.write_text(text[:start] + text[text.index("  - id: milestone") :])
            found = await session.call_tool("search", {"text": "birds", "kind": ["knowledge"]})
            said.append(_text(found).splitlines())
        return said

    said = _session(declared, body)
    assert said[0] == said[1] and said[0][-1] == "search: 3 match(es)"
    assert said[2][-1] == "search: 4 match(es)"
    assert any(".ai/repo/knowledge/curated/firs.md:3  title: Fir birds" in line for line in said[2])
    assert said[3][-1] == "search: 1 match(es)" and said[3][0].startswith(
        "knowledge   .ai/repo/adrs/"
    )
