"""`majordomus knowledge sources|nodes|edges|check` (CLI-REFERENCE §2.21): the reference graph
of what the repository's own files state, discovered through git's index, every edge with
the file and line (and field) that states it; a declared reference to nothing is a FAIL (10),
a dead Markdown link a WARN (0); the graph cached by the index's blob ids."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest
from conftest import Repo
from conftest import failures

SOURCES = ".ai/repo/knowledge/sources.yaml"
ISSUE = """id: {id}
milestone: {milestone}
title: Issue {id}
slug: issue-{slug}
priority: p1
profile: implementation
parallel_safe: true
objective: "Do {id}."
why: "Because."
current_state: "Not done."
desired_state: "Done."
scope: [lib]
non_scope: []
depends_on: [{deps}]
acceptance_criteria: ["it works"]
validation: ["make test"]
evidence_required: []
risk: "low"
"""
MILESTONE = """id: M1
title: Outcome
slug: outcome
order: 1
priority: p0
problem: "Nothing works."
outcome: "It works."
current_state: "Broken."
desired_state: "Working."
scope: [lib]
non_scope: []
acceptance_criteria: ["the parser parses"]
validation: ["make test"]
evidence_required: []
risks: []
created_at: 2026-12-01
updated_at: 2026-12-01
"""
PROMPT = """# Debug a failure

See [the rules](../rules/README.md#top) and [policy](../policy.yaml).
Also <https://example.invalid/x> and [web](https://example.invalid/y) and [abs](/etc/x).

```
[in a fence](../nowhere.md)
```

Inline `[code](../nowhere.md)` states nothing.
[gone](../missing.md)
"""


def records(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def of_kind(out: str, kind: str) -> list[dict[str, object]]:
    return [r for r in records(out) if r["kind"] == kind]


def plan(repo: Repo, deps: str = "I1") -> None:
    repo.write(".ai/repo/project/project.yaml", "schema_version: 1\nname: Demo\n")
    repo.write(".ai/repo/project/milestones/M1.yaml", MILESTONE)
    for ident, slug, needs in (("I1", "one", ""), ("I2", "two", deps)):
        text = ISSUE.format(id=ident, milestone="M1", slug=slug, deps=needs)
        repo.write(f".ai/repo/project/issues/{ident}.yaml", text)


def test_sources_are_what_each_pathspec_finds_in_gits_index(layer_repo: Repo) -> None:
    layer_repo.write(".ai/repo/prompts/untracked.md", "# not in the index\n")
    result = layer_repo.mj("knowledge", "sources")
    assert result.code == 0, result
    lines = result.out.splitlines()
    assert lines[-1] == f"knowledge sources: {len(lines) - 1} file(s) in scope all"
    listed = {line.split()[-1]: line.split() for line in lines[:-1]}
    assert ".ai/repo/prompts/untracked.md" not in listed
    declared = records(layer_repo.mj("--json", "knowledge", "sources").out)
    for item in [r for r in declared if r["kind"] == "source"]:
        assert listed[str(item["path"])][:3] == [item["class"], item["scope"], item["node_kind"]]
    # each class lists exactly what git's own `:(glob)` pathspec matching gives
    text = (layer_repo.root / SOURCES).read_text()
    for pathspec in [line.split('"')[1] for line in text.splitlines() if "pathspec:" in line]:
        expected = set(layer_repo.git("ls-files", "-z", "--", pathspec).split("\0")) - {""}
        found = {str(item["path"]) for item in declared if item.get("kind") == "source"
                 and listed[str(item["path"])][0] == _class_of(text, pathspec)}  # fmt: skip
        assert found == expected, pathspec


def _class_of(text: str, pathspec: str) -> str:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if pathspec in line)
    return next(line.split(":")[1].split("#")[0].strip() for line in reversed(lines[:at])
                if line.strip().startswith("- id:"))  # fmt: skip


def test_scope_operational_finds_nothing_the_index_does_not_track(layer_repo: Repo) -> None:
    result = layer_repo.mj("knowledge", "sources", "--scope", "operational")
    assert result.code == 0, result
    assert result.out == "knowledge sources: 0 file(s) in scope operational\n"


def test_an_unknown_key_in_sources_is_10_naming_file_line_and_key(layer_repo: Repo) -> None:
    path = layer_repo.root / SOURCES
    path.write_text(path.read_text().replace("    required: true", "    required: true\n"
                                             "    weight: 3", 1))  # fmt: skip
    for sub in ("sources", "nodes", "edges", "check"):
        result = layer_repo.mj("knowledge", sub)
        assert result.code == 10, (sub, result)
        assert "Traceback" not in result.err and result.err.count("\n") == 1
        assert f"{SOURCES}:" in result.err and "unknown key 'sources[].weight'" in result.err


def test_a_pathspec_without_glob_magic_and_a_class_declared_twice_are_10(
    layer_repo: Repo,
) -> None:
    path = layer_repo.root / SOURCES
    original = path.read_text()
    path.write_text(original.replace('":(glob).ai/repo/policy.yaml"', '".ai/repo/policy.yaml"'))
    result = layer_repo.mj("knowledge", "sources")
    assert result.code == 10 and "pathspec" in result.err, result
    path.write_text(original.replace("  - id: prompt\n", "  - id: profile\n"))
    result = layer_repo.mj("knowledge", "nodes")
    assert result.code == 10 and "class 'profile' is already declared at" in result.err, result


def test_no_sources_file_is_12(git_repo: Repo) -> None:
    result = git_repo.mj("knowledge", "edges")
    assert result.code == 12 and SOURCES in result.err, result


def test_a_usage_error_is_2(layer_repo: Repo) -> None:
    assert layer_repo.mj("knowledge", "edges", "--type", "relates_to").code == 2
    assert layer_repo.mj("knowledge", "nodes", "--scope", "everywhere").code == 2
    assert layer_repo.mj("knowledge", "sideways").code == 2


def test_nodes_have_canonical_ids_kinds_and_titles(layer_repo: Repo) -> None:
    plan(layer_repo)
    layer_repo.commit("plan")
    result = layer_repo.mj("--json", "knowledge", "nodes")
    assert result.code == 0, result
    nodes = {str(n["id"]): n for n in of_kind(result.out, "node")}
    assert nodes["profile:debugging"]["node_kind"] == "profile"
    assert nodes["issue:I2"]["title"] == "Issue I2"
    assert nodes["milestone:M1"]["path"] == ".ai/repo/project/milestones/M1.yaml"
    assert nodes["prompt:debug"]["class"] == "prompt"
    assert any(i.startswith("rule:majordomus.") for i in nodes)
    assert all(not any(c.isdigit() for c in i.split(":", 1)[0]) for i in nodes)
    only = layer_repo.mj("knowledge", "nodes", "--kind", "issue")
    assert only.code == 0 and only.out.splitlines()[-1] == "knowledge nodes: 2 node(s) in scope all"


def test_a_duplicate_node_id_fails_nodes_and_edges_alike(layer_repo: Repo) -> None:
    plan(layer_repo)
    copy = (layer_repo.root / ".ai/repo/project/issues/I1.yaml").read_text()
    layer_repo.write(".ai/repo/project/issues/I9.yaml", copy)
    layer_repo.commit("a copy")
    for sub in ("nodes", "edges", "check"):
        result = layer_repo.mj("knowledge", sub)
        assert result.code == 10, (sub, result)
        failed = failures(result.out)
        assert failed and "duplicate node id issue:I1" in failed[0][2], result
        assert failed[0][3] == "majordomus knowledge check"


def test_edges_carry_their_provenance_and_markdown_rules(layer_repo: Repo) -> None:
    plan(layer_repo)
    layer_repo.write(".ai/repo/prompts/debug.md", PROMPT)
    layer_repo.commit("links")
    result = layer_repo.mj("--json", "knowledge", "edges")
    assert result.code == 0, result
    edges = of_kind(result.out, "edge")
    mine = [e for e in edges if e["source"] == "prompt:debug"]
    targets = {str(e["ref"]): e for e in mine}
    assert set(targets) == {"../rules/README.md#top", "../policy.yaml"}
    assert targets["../policy.yaml"]["target"] == "policy:policy"
    lines = PROMPT.split("\n")
    for edge in mine:
        where = edge["provenance"]
        assert where["path"] == ".ai/repo/prompts/debug.md"  # type: ignore[index]
        assert str(edge["ref"]) in lines[int(where["line"]) - 1]  # type: ignore[index]
    part = [e for e in edges if e["type"] == "part_of"]
    assert part and part[0]["source"] == "issue:I1" and part[0]["target"] == "milestone:M1"
    assert part[0]["provenance"] == {"path": ".ai/repo/project/issues/I1.yaml", "line": 2,
                                     "field": "milestone"}  # fmt: skip
    dep = [e for e in edges if e["type"] == "depends_on" and e["source"] == "issue:I2"]
    assert (
        dep
        and dep[0]["target"] == "issue:I1"
        and dep[0]["provenance"]["field"]
        == (  # type: ignore[index]
            "depends_on[0]"
        )
    )
    warned = [r for r in of_kind(result.out, "finding") if r["level"] == "WARN"]
    assert len(warned) == 1 and "dead link ../missing.md" in str(warned[0]["message"])
    assert warned[0]["subject"] == ".ai/repo/prompts/debug.md:11"
    typed = layer_repo.mj("knowledge", "edges", "--type", "part_of")
    assert typed.code == 0 and typed.out.startswith("issue:I1 part_of milestone:M1  ")
    assert typed.out.splitlines()[-1] == "knowledge edges: 2 edge(s) in scope all"


def test_a_declared_reference_to_nothing_fails_every_view(layer_repo: Repo) -> None:
    plan(layer_repo, deps="I7")
    note = "---\nid: tabs\nrelations:\n  - type: specified_by\n    target: file:docs/gone.md\n"
    note += "  - type: relates_to\n    target: rule:majordomus.policy-schema\n"
    layer_repo.write(".ai/repo/knowledge/curated/tabs.md", note + "---\n# Tabs\n")
    layer_repo.commit("dangling")
    for sub in ("nodes", "edges", "check"):
        result = layer_repo.mj("knowledge", sub)
        assert result.code == 10, (sub, result)
        said = {(s, m.split(",")[0]) for _, s, m, _ in failures(result.out)}
        assert (".ai/repo/project/issues/I2.yaml:14", "depends_on[0] names I7") in said, result
        assert (".ai/repo/knowledge/curated/tabs.md:5",
                "relations[0].target names file:docs/gone.md") in said, result  # fmt: skip
    warned = [line for line in result.out.splitlines() if line.startswith("WARN")]
    assert any("tabs.md:6 — relations[1]: type 'relates_to' is not one of" in w for w in warned)
    assert layer_repo.mj("knowledge", "sources").code == 0


def test_check_on_a_sound_graph_is_0_and_reads_nothing_but_the_index(layer_repo: Repo) -> None:
    result = layer_repo.mj("knowledge", "check")
    assert result.code == 0, result
    assert result.out.startswith("OK   knowledge   .ai/repo/knowledge/sources.yaml — ")
    assert result.out.splitlines()[-1].startswith("knowledge check: ok, 1 finding(s)")
    assert layer_repo.git("status", "--porcelain") == ""
    assert not list((layer_repo.root / ".ai/local").rglob("knowledge-*"))  # check writes nothing


def _timed(repo: Repo, *args: str) -> dict[str, int]:
    timed = Repo(repo.root, {**repo.env, "MJ_TIMING": "1"})
    result = timed.mj(*args)
    assert result.code == 0, result
    return {" ".join(line.split()[2:]): int(line.split()[1]) for line in result.err.splitlines()
            if line.startswith("count ")}  # fmt: skip


def test_an_unchanged_index_is_read_back_from_the_cache(layer_repo: Repo) -> None:
    cold = _timed(layer_repo, "knowledge", "edges")
    graph = layer_repo.root / ".ai/local/cache/knowledge-head"
    assert graph.is_file() and stat.S_IMODE(graph.stat().st_mode) & 0o077 == 0
    warm = _timed(layer_repo, "knowledge", "edges")
    # one `git ls-files -s` (the top level is found without git); no file read but sources.yaml
    assert warm["git"] == 1 and cold["git"] == 2, (cold, warm)
    assert warm.get("yaml", 0) == 0 and warm["files read"] == 1
    before = layer_repo.mj("--json", "knowledge", "edges").out
    layer_repo.write(".ai/repo/prompts/resume.md", "# Resume\n\n[the policy](../policy.yaml)\n")
    layer_repo.commit("a link")
    after = layer_repo.mj("--json", "knowledge", "edges").out
    assert after != before
    assert any(e["source"] == "prompt:resume" and e["target"] == "policy:policy"
               for e in of_kind(after, "edge"))  # fmt: skip
    graph.write_text("{not json")
    assert layer_repo.mj("--json", "knowledge", "edges").out == after


def test_a_blob_missing_from_the_object_store_is_13(layer_repo: Repo) -> None:
    layer_repo.write(".ai/repo/prompts/lost.md", "# Lost\n")
    layer_repo.git("add", ".ai/repo/prompts/lost.md")
    blob = layer_repo.git("ls-files", "-s", ".ai/repo/prompts/lost.md").split()[1]
    (layer_repo.root / ".git/objects" / blob[:2] / blob[2:]).unlink()
    result = layer_repo.mj("knowledge", "edges")
    assert result.code == 13 and blob in result.err and "Traceback" not in result.err, result


@pytest.mark.parametrize("sub", ["sources", "nodes", "edges", "check"])
def test_the_tool_pipeline_reads_a_saved_index_fact(
    layer_repo: Repo, sub: str, tmp_path: Path
) -> None:
    saved = tmp_path / "index.jsonl"
    index = layer_repo.run("mj-knowledge", "index")
    assert index.code == 0, index
    saved.write_text(index.out)
    piped = layer_repo.run("mj-knowledge", "graph", "--view", sub, str(saved))
    direct = layer_repo.mj("--json", "knowledge", sub)
    assert piped.code == direct.code == 0
    assert piped.out == direct.out
    empty = layer_repo.run("mj-knowledge", "graph", "--view", sub, stdin="")
    assert empty.code == 12, empty


@pytest.mark.parametrize("args", [(), ("--type", "depends_on"), ("--scope", "shared")])
def test_a_warm_listing_is_the_cold_one_byte_for_byte(
    layer_repo: Repo, args: tuple[str, ...]
) -> None:
    plan(layer_repo)
    layer_repo.write(".ai/repo/prompts/debug.md", PROMPT)
    layer_repo.commit("links")
    cache = layer_repo.root / ".ai/local/cache"
    for form in ((), ("--json",)):
        shutil.rmtree(cache, ignore_errors=True)
        cold = layer_repo.mj(*form, "knowledge", "edges", *args)
        assert (cache / "knowledge-listing.txt").is_file()
        warm = layer_repo.mj(*form, "knowledge", "edges", *args)
        assert cold.code == warm.code == 0 and cold.out == warm.out and cold.err == warm.err
        assert warm.out.count("depends_on") >= 1


def test_declared_workspaces_and_deployments_are_nodes_of_their_kind(layer_repo: Repo) -> None:
    from test_declarations import DEPLOYMENT
    from test_declarations import WORKSPACE

    layer_repo.write(".ai/repo/workspaces/chatgpt-design.yaml", WORKSPACE)
    layer_repo.write(".ai/repo/deployments/prod.yaml", DEPLOYMENT)
    layer_repo.commit("declarations")
    result = layer_repo.mj("--json", "knowledge", "nodes", "--kind", "workspace")
    assert result.code == 0, result
    [node] = of_kind(result.out, "node")
    assert node["id"] == "workspace:chatgpt-design" and node["title"] == "The design project"
    assert node["path"] == ".ai/repo/workspaces/chatgpt-design.yaml"
    deployed = layer_repo.mj("--json", "knowledge", "nodes", "--kind", "deployment")
    assert [n["node_kind"] for n in of_kind(deployed.out, "node")] == ["deployment"], deployed
