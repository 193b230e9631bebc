"""`majordomus rules`: the effective rule set, one rule, and the vendored baseline."""

from __future__ import annotations

import json
import re

import pytest
from conftest import Repo

VENDOR = ".ai/repo/rules/vendor/majordomus"
PROJECT = ".ai/repo/rules/project"


def rule(rule_id: str, *, depends: str = "[]", status: str = "active", extra: str = "") -> str:
    return (
        f"---\nid: {rule_id}\nversion: 1\nkind: rule\ntitle: A project rule\n"
        "description: One sentence.\nstatement: One statement.\n"
        f"status: {status}\nclass: advisory\ndepends_on: {depends}\ntags: []\n{extra}---\n\n"
        "# Rationale\n\nBecause.\n"
    )


def test_list_is_resolved_with_class_provenance_and_enforcement(layer_repo: Repo) -> None:
    layer_repo.write(f"{PROJECT}/b-second.md", rule("project.second", depends="[project.first@1]"))
    layer_repo.write(f"{PROJECT}/a-first.md", rule("project.first"))
    result = layer_repo.mj("rules", "list")
    assert result.code == 0, result
    ids = [line.split()[0] for line in result.out.splitlines()]
    assert ids.index("majordomus.layer-integrity@1") < ids.index("majordomus.policy-schema@1")
    assert ids[-2:] == ["project.first@1", "project.second@1"]
    assert re.search(
        r"^majordomus\.enforcement-wiring@1\s+blocking\s+vendor:majordomus\s+"
        r"enforced by doctor$",
        result.out,
        re.M,
    )
    assert re.search(r"^project\.first@1\s+advisory\s+project\s+no validator", result.out, re.M)
    *lines, summary = layer_repo.mj("rules", "list", "--json").out.splitlines()
    records = [json.loads(line) for line in lines]
    assert [f"{r['id']}@{r['version']}" for r in records] == ids
    assert json.loads(summary)["kind"] == "summary" and json.loads(summary)["exit"] == 0
    assert layer_repo.mj("rules").out == result.out  # `rules` alone lists


def test_show_prints_the_path_then_the_file(layer_repo: Repo) -> None:
    result = layer_repo.mj("rules", "show", "majordomus.context-budget")
    assert result.code == 0
    path = f"{VENDOR}/rules/context-budget.v1.md"
    assert result.out == f"{path}\n" + (layer_repo.root / path).read_text()
    assert layer_repo.mj("rules", "show", "majordomus.context-budget@1").out == result.out
    missing = layer_repo.mj("rules", "show", "project.nothing")
    assert missing.code == 12 and missing.err.count("\n") == 1
    assert layer_repo.mj("rules", "show").code == 2
    assert layer_repo.mj("rules", "frobnicate").code == 2


@pytest.mark.parametrize(
    ("name", "files", "words"),
    [
        ("reserved namespace", {"x.md": rule("majordomus.mine")}, "reserved"),
        ("missing dependency", {"x.md": rule("project.x", depends="[project.gone@1]")}, "no rule"),
        (
            "deprecated dependency",
            {
                "a.md": rule("project.old", status="deprecated"),
                "b.md": rule("project.new", depends="[project.old@1]"),
            },
            "deprecated",
        ),
        (
            "cycle",
            {
                "a.md": rule("project.a", depends="[project.b@1]"),
                "b.md": rule("project.b", depends="[project.a@1]"),
            },
            "cycle",
        ),
        (
            "duplicate",
            {"a.md": rule("project.same"), "b.md": rule("project.same")},
            "also declared",
        ),
        ("unknown key", {"x.md": rule("project.x", extra="colour: red\n")}, "unknown key"),
        ("incomplete", {"x.md": "---\nid: project.x\nversion: 1\n---\n"}, "missing key"),
        ("no front matter", {"x.md": "# just prose\n"}, "no front matter"),
    ],
)
def test_resolution_fails_closed(
    layer_repo: Repo, name: str, files: dict[str, str], words: str
) -> None:
    for file, text in files.items():
        layer_repo.write(f"{PROJECT}/{file}", text)
    result = layer_repo.mj("rules", "list")
    assert result.code == 10, (name, result)
    assert result.out == "" and result.err.count("\n") == 1 and words in result.err, name
    assert "Traceback" not in result.err


def test_vendor_status_same_different_and_broken(layer_repo: Repo) -> None:
    same = layer_repo.mj("rules", "vendor", "status")
    assert same.code == 0 and "same as the shipped package" in same.out
    assert layer_repo.mj("rules", "vendor", "diff").out == ""
    # an older package: one rule fewer, manifest consistent with it
    manifest = layer_repo.root / VENDOR / "manifest.yaml"
    text = manifest.read_text()
    entry = re.search(r"  - id: majordomus\.retention-caps\n(    .*\n){3}", text)
    assert entry
    manifest.write_text(text.replace(entry.group(0), ""))
    (layer_repo.root / VENDOR / "rules/retention-caps.v1.md").unlink()
    older = layer_repo.mj("rules", "vendor", "status")
    assert older.code == 11 and "rules/retention-caps.v1.md" in older.out
    reproduce = re.search(r"\[reproduce: (.*)\]", older.out)
    assert (
        reproduce and "+id: majordomus.retention-caps" in layer_repo.shell(reproduce.group(1)).out
    )
    # a hand edit: the copy no longer matches its own manifest
    edited = layer_repo.root / VENDOR / "rules/context-budget.v1.md"
    edited.write_text(edited.read_text() + "\nA local tweak.\n")
    broken = layer_repo.mj("rules", "vendor", "status")
    assert broken.code == 10 and "sha256 differs" in broken.out
    assert layer_repo.mj("rules", "list").code == 10


def test_vendor_update_refuses_hand_edits_and_never_touches_project(layer_repo: Repo) -> None:
    layer_repo.write(f"{PROJECT}/mine.md", rule("project.mine"))
    mine = (layer_repo.root / PROJECT / "mine.md").read_bytes()
    edited = layer_repo.root / VENDOR / "rules/context-budget.v1.md"
    edited.write_text(edited.read_text() + "\nA local tweak.\n")
    refused = layer_repo.mj("rules", "vendor", "update")
    assert refused.code == 15 and "--force" in refused.err and refused.err.count("\n") == 1
    assert "A local tweak." in edited.read_text()
    forced = layer_repo.mj("rules", "vendor", "update", "--force")
    assert forced.code == 0 and "rules/context-budget.v1.md" in forced.out
    assert "A local tweak." not in edited.read_text()
    assert layer_repo.mj("rules", "vendor", "status").code == 0
    assert (layer_repo.root / PROJECT / "mine.md").read_bytes() == mine
    assert not list((layer_repo.root / VENDOR).parent.glob(".majordomus.*"))
    ledger = (layer_repo.root / ".ai/local/state/ledger.jsonl").read_text()
    assert '"event":"rules.vendored"' in ledger
    again = layer_repo.mj("rules", "vendor", "update")
    assert again.code == 0 and "nothing to do" in again.out


def test_nothing_vendored_is_a_missing_artifact(layer_repo: Repo) -> None:
    for path in sorted((layer_repo.root / VENDOR).rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    (layer_repo.root / VENDOR).rmdir()
    result = layer_repo.mj("rules", "vendor", "status")
    assert result.code == 12 and "nothing vendored" in result.err
    restored = layer_repo.mj("rules", "vendor", "update")
    assert restored.code == 0 and layer_repo.mj("rules", "vendor", "status").code == 0
