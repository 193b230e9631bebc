"""Context documents: discovery, every validation class, and the chain for a path."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from mj_core import share
from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.yaml.strict import Document
from mj_policy.context import chain as contextchain
from mj_policy.context import docs as contextdocs
from mj_policy.context import stages as contextstages

ROOT_DOC = """\
---
schema: context/v1
id: ai.layer
kind: context
title: The AI layer
description: How this repository's AI layer is organised.
status: active
scope: subtree
providers: ["*"]
audience: [human, agent]
composition: extend
order: 0
---
# The layer
"""


def doc(ident: str, **over: str) -> str:
    fields = {
        "schema": "context/v1",
        "id": ident,
        "kind": "context",
        "title": "A title",
        "description": "One sentence.",
        "status": "active",
        "scope": "subtree",
        "providers": '["*"]',
        "audience": "[human, agent]",
        "composition": "extend",
        "order": "100",
        **over,
    }
    lines = [f"{k}: {v}" for k, v in fields.items() if v != "DROP"]
    return "---\n" + "\n".join(lines) + "\n---\nbody\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main", str(tmp_path)], check=True)
    shutil.copytree(share.path("skeleton", "ai"), tmp_path / ".ai", dirs_exist_ok=True)
    (tmp_path / ".ai" / "README.md").write_text(ROOT_DOC)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "a").write_text("x\n")
    return tmp_path


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def classes(root: Path) -> list[str]:
    return [p.cls for p in contextstages.tree(root).problems]


def test_the_skeleton_with_a_root_document_validates(root: Path) -> None:
    found = contextstages.tree(root)
    assert found.problems == []
    ids = [d.id for d in found.docs]
    assert "ai.layer" in ids
    assert all(not d.path.startswith(".ai/local") for d in found.docs)


def test_vendor_and_local_are_not_part_of_the_tree(root: Path) -> None:
    write(root, ".ai/repo/rules/vendor/majordomus/README.md", "no front matter\n")
    write(root, ".ai/local/README.md", "---\nbroken: [\n---\n")
    assert classes(root) == []


@pytest.mark.parametrize(
    ("over", "cls"),
    [
        ({"schema": "context/v2"}, "unsupported-schema"),
        ({"colour": "red"}, "unknown-key"),
        ({"order": "DROP"}, "invalid-front-matter"),
        ({"scope": "everywhere"}, "invalid-front-matter"),
        ({"composition": "merge"}, "invalid-front-matter"),
        ({"audience": "[robots]"}, "invalid-front-matter"),
        ({"providers": "[nobody]"}, "unknown-provider"),
        ({"id": "Bad_Id"}, "invalid-front-matter"),
        ({"scope": "explicit"}, "invalid-front-matter"),
        ({"scope": "explicit", "paths": "[nowhere]"}, "broken-reference"),
        ({"supersedes": "[ai.layer]"}, "illegal-override"),
        ({"composition": "replace", "supersedes": "[ai.nothing]"}, "broken-reference"),
        ({"composition": "replace", "supersedes": "[ai.x]"}, "cycle"),
        ({"scope": "directory", "children": "DROP", "paths": "[lib]"}, "invalid-front-matter"),
    ],
)
def test_each_defect_has_its_class(root: Path, over: dict[str, str], cls: str) -> None:
    write(root, ".ai/repo/x/README.md", doc("ai.x", **over))
    assert cls in classes(root)


def test_broken_yaml_is_invalid_front_matter(root: Path) -> None:
    write(root, ".ai/repo/x/README.md", "---\nid: [unclosed\n---\n")
    problems = contextstages.tree(root).problems
    assert [p.cls for p in problems] == ["invalid-front-matter"]
    assert problems[0].where.startswith(".ai/repo/x/README.md:")


def test_duplicate_ids_name_the_first(root: Path) -> None:
    write(root, ".ai/repo/x/README.md", doc("ai.layer"))
    problems = contextstages.tree(root).problems
    assert [p.cls for p in problems] == ["duplicate-id"]
    assert ".ai/README.md" in problems[0].message


def test_a_final_document_cannot_be_superseded(root: Path) -> None:
    write(root, ".ai/repo/x/README.md", doc("ai.x", composition="final"))
    write(root, ".ai/repo/x/y/README.md", doc("ai.y", composition="replace", supersedes="[ai.x]"))
    assert classes(root) == ["illegal-override"]


def test_supersedes_must_name_the_ancestor_chain(root: Path) -> None:
    write(root, ".ai/repo/x/README.md", doc("ai.x"))
    write(root, ".ai/repo/z/README.md", doc("ai.z", composition="replace", supersedes="[ai.x]"))
    assert classes(root) == ["illegal-override"]


def test_a_directory_owes_a_contract_unless_waived(root: Path) -> None:
    root_doc = ROOT_DOC.replace("order: 0\n", "order: 0\nchildren:\n  require_contract: true\n")
    (root / ".ai" / "README.md").write_text(root_doc)
    write(root, ".ai/notes/x.txt", "x\n")
    assert "missing-contract" in classes(root)
    write(root, ".ai/notes/README.md", "# plain readme\n")
    assert "invalid-front-matter" in classes(root)
    exempt = root_doc.replace("true\n", "true\n  exempt: [notes]\n")
    (root / ".ai" / "README.md").write_text(exempt)
    assert "invalid-front-matter" not in classes(root)


def test_replace_removes_what_it_supersedes(root: Path) -> None:
    write(root, ".ai/repo/x/README.md", doc("ai.x", order="5"))
    replace = doc("ai.y", composition="replace", supersedes="[ai.x]")
    write(root, ".ai/repo/x/y/README.md", replace)
    found = contextstages.tree(root)
    assert found.problems == []
    chain = contextchain.resolve(found, ".ai/repo/x/y", True)
    assert [e["id"] for e in chain] == ["ai.layer", "ai.repo", "ai.y"]
    explained = {e["id"]: e for e in contextchain.explain(found, ".ai/repo/x/y", True)}
    assert "superseded by ai.y" in explained["ai.x"]["reason"]


def test_order_within_a_depth_then_path(root: Path) -> None:
    write(root, ".ai/repo/b/README.md", doc("ai.b", scope="explicit", paths="[lib]", order="1"))
    write(root, ".ai/repo/a/README.md", doc("ai.a", scope="explicit", paths="[lib]", order="1"))
    write(root, ".ai/repo/c/README.md", doc("ai.c", scope="explicit", paths="[lib]", order="0"))
    chain = contextchain.resolve(contextstages.tree(root), "lib", True)
    assert [e["id"] for e in chain] == ["ai.layer", "ai.c", "ai.a", "ai.b"]


def test_filters_by_provider_audience_and_status(root: Path) -> None:
    write(
        root,
        ".ai/repo/x/README.md",
        doc("ai.x", scope="explicit", paths="[lib]", providers="[codex]", audience="[human]"),
    )
    write(
        root,
        ".ai/repo/y/README.md",
        doc("ai.y", scope="explicit", paths="[lib]", status="deprecated"),
    )
    found = contextstages.tree(root)
    assert [e["id"] for e in contextchain.resolve(found, "lib", True)] == ["ai.layer", "ai.x"]
    only = contextchain.resolve(found, "lib", True, provider="claude-code")
    assert [e["id"] for e in only] == ["ai.layer"]
    assert [e["id"] for e in contextchain.resolve(found, "lib", True, audience="agent")] == [
        "ai.layer"
    ]


def test_an_invalid_tree_resolves_nothing(root: Path) -> None:
    write(root, ".ai/repo/x/README.md", doc("ai.x", colour="red"))
    with pytest.raises(ContractUnmet, match="resolves nothing"):
        contextchain.resolve(contextstages.tree(root), "lib", True)


def test_targets_outside_absent_or_through_a_symlink_are_refused(root: Path) -> None:
    assert contextchain.target(root, "lib", root) == ("lib", True)
    assert contextchain.target(root, "lib/a", root) == ("lib/a", False)
    os.symlink(root / "lib", root / "link")
    for bad in ("../", "/etc", "nowhere", "link", "link/a"):
        with pytest.raises(Refused, match="refused-path"):
            contextchain.target(root, bad, root)


def test_hand_checks_agree_with_the_schema(root: Path) -> None:
    from mj_core.schema import full as schema

    samples = [
        doc("ai.x"),
        doc("ai.x", order="high"),
        doc("ai.x", scope="explicit"),
        doc("ai.x", title='""'),
        doc("ai.x", providers="[]"),
    ]
    for text in samples:
        write(root, ".ai/repo/x/README.md", text)
        item, problems = contextdocs.read(root, ".ai/repo/x/README.md")
        assert item is not None
        by_schema = schema.violations(Document(item.doc.name, item.data, item.doc.marks), "context")
        assert bool(problems) == bool(by_schema), text


def test_document_records_validate_against_the_pipeline_schema(root: Path) -> None:
    import json

    import jsonschema

    schema = json.loads(share.read_text("schemas", "pipeline", "document.json"))
    write(root, ".ai/repo/x/README.md", doc("ai.x", scope="explicit", paths="[lib]"))
    for entry in contextchain.explain(contextstages.tree(root), "lib", True):
        jsonschema.Draft202012Validator(schema).validate(entry)
