"""Every reference a decision record or a knowledge record makes resolves, or is 10 naming it
(SCHEMAS): a decision by its title in decisions.md (or the task it was recorded under), a
session by its record, open file or ledger line, a commit by git's object store, an issue by its
plan file, a file or test by git's index. `adr propose` refuses evidence that names nothing and
writes nothing; `adr check`, `knowledge check` and `doctor` FAIL a record that carries such a
reference; `doctor` runs the decision-record and skill checks."""

from __future__ import annotations

import json

from conftest import Repo
from conftest import failures

ADRS = ".ai/repo/adrs"
LEDGER = ".ai/local/state/ledger.jsonl"
BODY = "\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n\n## Consequences\n\nCost.\n"
SKILL_BODY = "# Purpose\n\nP.\n\n# Procedure\n\nQ.\n\n# Output\n\nR.\n"


def adr(extra: str = "", status: str = "accepted") -> str:
    return (
        "---\nschema: adr/v1\nid: adr-0001\nkind: adr\ntitle: One\n"
        f'status: {status}\ndate: "2026-09-05"\n{extra}---\n{BODY}'
    )


def knowledge(derived: list[str], relations: str = "") -> str:
    listed = "".join(f"    - {d}\n" for d in derived)
    return (
        "---\nschema: knowledge/v1\nid: k-one\nkind: knowledge\nclass: convention\n"
        "title: One\ndescription: A fact.\nstatus: candidate\nepistemics: decided\n"
        f'date: "2026-09-12"\nprovenance:\n  origin: extracted\n  derived_from:\n{listed}'
        f"{relations}---\n\n# One\n\nA fact.\n"
    )


def _files(repo: Repo) -> list[str]:
    folder = repo.root / ADRS
    return sorted(p.name for p in folder.glob("*.md"))


def test_propose_refuses_evidence_that_names_nothing_and_writes_nothing(layer_repo: Repo) -> None:
    before = (layer_repo.root / LEDGER).read_bytes() if (layer_repo.root / LEDGER).exists() else b""
    for ref, said in (
        ("decision:zzz", "no decision zzz"),
        ("session:s-nope", "no session s-nope"),
        ("commit:deadbeef", "no commit deadbeef"),
        ("issue:I0404", "no issue I0404"),
        ("file:nope.py", "no nope.py in git's index"),
        ("test:t.py", "no t.py in git's index"),
    ):
        result = layer_repo.mj("adr", "propose", "Use X", "--from", ref)
        assert result.code == 10, (ref, result)
        assert ref in result.err and said in result.err and result.err.count("\n") == 1, result
        assert "Traceback" not in result.err
    assert _files(layer_repo) == []
    now = (layer_repo.root / LEDGER).read_bytes() if (layer_repo.root / LEDGER).exists() else b""
    assert now == before


def test_propose_takes_evidence_that_resolves_and_keeps_the_commit_not_the_ref(
    layer_repo: Repo,
) -> None:
    layer_repo.write("src/a.py", "a\n")
    head = layer_repo.commit("a file")
    decided = layer_repo.mj("decision", "add", "Keep spaces", "--why", "readable")
    assert decided.code == 0, decided
    opened = layer_repo.mj("session", "start", "--owner", "me")
    assert opened.code == 0, opened
    session = json.loads(layer_repo.mj("session", "status", "--json").out.splitlines()[0])
    ident = session.get("session_id") or session.get("id")
    assert ident and ident.startswith("s-"), session
    done = layer_repo.mj("adr", "propose", "From code", "--from", "file:src/a.py",
                         "--from", "decision:Keep spaces", "--from", f"session:{ident}",
                         "--from", "commit:HEAD")  # fmt: skip
    assert done.code == 0, done
    text = (layer_repo.root / ADRS / "0001-from-code.md").read_text()
    assert f"- commit:{head}\n" in text and "commit:HEAD" not in text
    assert layer_repo.mj("adr", "check").code == 0


def test_adr_check_names_each_reference_that_names_nothing(layer_repo: Repo) -> None:
    extra = (
        "related:\n  - file:README.md\n  - rule:majordomus.scope-integrity\n  - rule:nope\n"
        "  - claim:whatever\nprovenance:\n  origin: extracted\n  derived_from:\n"
        "    - decision:zzz\n    - session:s-20260101000000-abcd\n    - commit:deadbeef\n"
    )
    layer_repo.write(f"{ADRS}/0001-one.md", adr(extra))
    result = layer_repo.mj("adr", "check")
    assert result.code == 10, result
    found = failures(result.out)
    messages = " | ".join(f[2] for f in found)
    assert len(found) == 5, result.out
    for ref in ("rule:nope", "claim:whatever", "decision:zzz", "session:s-20260101000000-abcd",
                "commit:deadbeef"):  # fmt: skip
        assert f"{ref}: dangling" in messages, (ref, result.out)
    assert all(f[1].startswith(f"{ADRS}/0001-one.md:") for f in found), found
    assert "1 valid" not in result.out
    doctor = layer_repo.mj("doctor")
    assert doctor.code == 10 and "decision:zzz: dangling" in doctor.out, doctor.out


def _categories(result: object) -> set[str]:
    return {f[0] for f in failures(result.out)}  # type: ignore[attr-defined]


def test_doctor_runs_the_adr_and_skill_checks(layer_repo: Repo) -> None:
    before = layer_repo.mj("doctor")
    assert not {"adr", "skill"} & _categories(before), before.out
    layer_repo.write(f"{ADRS}/0001-one.md", adr(status="bogus"))
    result = layer_repo.mj("doctor")
    assert result.code == 10, result.out
    assert any(f[0] == "adr" and "0001-one.md" in f[1] for f in failures(result.out)), result.out
    (layer_repo.root / ADRS / "0001-one.md").unlink()
    assert "adr" not in _categories(layer_repo.mj("doctor"))
    layer_repo.write(
        ".ai/repo/skills/review/SKILL.md",
        "---\nschema: skill/v1\nid: review\nversion: 1\ntitle: Review\n"
        "description: Review it.\nstatus: active\n---\n# Purpose\n\nP.\n",
    )
    result = layer_repo.mj("doctor")
    assert result.code == 10, result.out
    assert "skill" in _categories(result), result.out
    layer_repo.write(
        ".ai/repo/skills/review/SKILL.md",
        "---\nschema: skill/v1\nid: review\nversion: 1\ntitle: Review\n"
        f"description: Review it.\nstatus: active\n---\n{SKILL_BODY}",
    )
    assert "skill" not in _categories(layer_repo.mj("doctor"))


def test_knowledge_references_resolve_or_fail_check_and_doctor(layer_repo: Repo) -> None:
    head = layer_repo.git("rev-parse", "HEAD").strip()
    path = ".ai/repo/knowledge/candidates/k-one.md"
    layer_repo.write(path, knowledge([f"commit:{head}", "file:README.md"]))
    layer_repo.commit("a record")
    assert layer_repo.mj("knowledge", "check").code == 0
    relation = "relations:\n  - type: references\n    target: session:s-20260101000000-abcd\n"
    layer_repo.write(path, knowledge(["decision:zzz", "commit:deadbeef"], relation))
    layer_repo.commit("a bad record")
    result = layer_repo.mj("knowledge", "check")
    assert result.code == 10, result
    messages = " | ".join(f[2] for f in failures(result.out))
    for ref in ("decision:zzz", "commit:deadbeef", "session:s-20260101000000-abcd"):
        assert f"{ref}: dangling" in messages, (ref, result.out)
    assert "is not a node" not in messages  # the ledger's and git's are not the graph's
    doctor = layer_repo.mj("doctor")
    assert doctor.code == 10 and "commit:deadbeef: dangling" in doctor.out, doctor.out
