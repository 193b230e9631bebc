"""When a generated file is current: its text and the inputs that produced that text, never
the whole policy. A policy edit that changes no projected text leaves every generated file as
it was; doctor judges each projection with the function `update --check` uses, so the commit
gate and CI cannot disagree."""

from __future__ import annotations

import json

from conftest import Repo
from test_providers import add_rules
from test_providers import add_skills
from test_providers import table
from test_shared_targets import declare

POLICY = ".ai/repo/policy.yaml"
ALWAYS_RULE = """---
id: project.no-print
version: 1
kind: rule
title: No print in library code
description: Library code logs, it does not print.
statement: Library code never calls print(); it uses the logging module.
status: active
class: advisory
depends_on: []
tags: []
always_loaded: true
---
"""


def edit(repo: Repo, relative: str, old: str, new: str) -> None:
    path = repo.root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, (relative, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def generated(repo: Repo) -> dict[str, bytes]:
    """Every file `update` wrote, by target, as it is on disk."""
    result = repo.mj("update", "--check", "--json")
    targets = [r["subject"] for r in _records(result.out) if r.get("category") == "projection"]
    return {t: (repo.root / t).read_bytes() for t in targets if (repo.root / t).exists()}


def _records(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def levels(output: str, targets: set[str]) -> dict[str, str]:
    """The verdict on each of `targets`: FAIL when a projection finding about it fails, else OK
    (doctor also says whether README.md names AGENTS.md, under the same subject)."""
    found: dict[str, str] = {}
    for record in _records(output):
        subject = str(record.get("subject"))
        about = record.get("kind") == "finding" and record.get("category") == "projection"
        if about and subject in targets and found.get(subject) != "FAIL":
            found[subject] = "FAIL" if record["level"] == "FAIL" else "OK"
    return found


def test_a_policy_edit_that_changes_no_projected_text_rewrites_nothing(layer_repo: Repo) -> None:
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("projections")
    before = generated(layer_repo)
    assert len(before) >= 5
    edit(layer_repo, POLICY, "retention_max_lines: 5000", "retention_max_lines: 6000")
    result = layer_repo.mj("update")
    assert result.code == 0, result
    assert "wrote" not in result.out and "nothing to change" in result.out
    assert generated(layer_repo) == before
    assert layer_repo.mj("update", "--check").code == 0
    doctor = layer_repo.mj("doctor", "--json")
    assert set(levels(doctor.out, set(before)).values()) == {"OK"}, doctor.out
    assert layer_repo.git("status", "--porcelain") == " M .ai/repo/policy.yaml\n"


def test_doctor_judges_every_projection_as_update_check_does(layer_repo: Repo) -> None:
    """Over a series of edits, doctor's verdict on each projection is `update --check`'s."""
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("projections")
    targets = set(generated(layer_repo))

    def agree(step: str) -> dict[str, str]:
        check = layer_repo.mj("update", "--check", "--json")
        doctor = layer_repo.mj("doctor", "--json")
        told, judged = levels(check.out, targets), levels(doctor.out, targets)
        assert told == judged, (step, told, judged)
        assert set(told) == targets, (step, told)
        return told

    assert set(agree("as written").values()) == {"OK"}
    edit(layer_repo, POLICY, "retention_max_lines: 5000", "retention_max_lines: 6000")
    assert set(agree("an edit no projection shows").values()) == {"OK"}
    edit(layer_repo, POLICY, "default: implementation", "default: debugging")
    stale = agree("the default profile, which every bootstrap names")
    assert stale["AGENTS.md"] == "FAIL" and stale["GEMINI.md"] == "FAIL"
    assert layer_repo.mj("update").code == 0
    assert set(agree("updated").values()) == {"OK"}
    layer_repo.write(".ai/repo/rules/project/no-print.md", ALWAYS_RULE)
    carried = agree("a rule every provider carries")
    assert carried["AGENTS.md"] == "FAIL"
    assert layer_repo.mj("update").code == 0
    targets = set(generated(layer_repo))
    assert set(agree("updated again").values()) == {"OK"}
    with (layer_repo.root / "GEMINI.md").open("a", encoding="utf-8") as handle:
        handle.write("A line by hand.\n")
    (layer_repo.root / "docs/AI_INSTRUCTIONS.md").unlink()
    broken = agree("a hand edit and a missing file")
    assert broken["GEMINI.md"] == "FAIL" and broken["docs/AI_INSTRUCTIONS.md"] == "FAIL"
    assert broken["AGENTS.md"] == "OK"
    assert layer_repo.mj("update", "--force").code == 0
    assert set(agree("forced").values()) == {"OK"}


def test_doctor_fails_a_projection_the_policy_no_longer_gives(layer_repo: Repo) -> None:
    """The commit gate refuses what CI would: a policy edit committed without `update`."""
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("projections")
    edit(layer_repo, POLICY, "default: implementation", "default: debugging")
    doctor = layer_repo.mj("doctor")
    assert doctor.code == 10, doctor
    assert "AGENTS.md — would change (stale)" in doctor.out
    assert "[reproduce: majordomus update --diff AGENTS.md]" in doctor.out
    shown = layer_repo.shell("majordomus update --diff AGENTS.md")
    assert "+- The default profile is `debugging`" in shown.out


def test_watch_reports_policy_drift_only_where_the_policy_changes_a_projection(
    layer_repo: Repo,
) -> None:
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("projections")
    edit(layer_repo, POLICY, "retention_max_lines: 5000", "retention_max_lines: 6000")
    quiet = layer_repo.mj("watch", "--json")
    drifts = [r for r in _records(quiet.out) if r.get("category") == "policy"]
    assert all(r["level"] == "OK" for r in drifts), quiet.out
    edit(layer_repo, POLICY, "default: implementation", "default: debugging")
    loud = layer_repo.mj("watch", "--json")
    assert loud.code == 11, loud
    drifted = {r["subject"] for r in _records(loud.out) if r.get("level") == "DRIFT"}
    assert {"AGENTS.md", "GEMINI.md"} <= drifted
    for record in _records(loud.out):
        if record.get("level") == "DRIFT" and record.get("category") == "policy":
            shown = layer_repo.shell(str(record["reproduce"]))
            assert "`debugging`" in shown.out, (record, shown)


def test_with_every_provider_rules_and_skills_an_edit_no_text_shows_rewrites_no_file(
    layer_repo: Repo,
) -> None:
    """Every client of the table at once, with a scoped and an always-loaded rule and a skill
    (bootstraps, rule files, skill files, the shared AGENTS.md): a policy edit that changes no
    generated text leaves every one of them as it was, and the commit gate (doctor) and CI
    (`update --check`) both pass."""
    add_rules(layer_repo)
    add_skills(layer_repo)
    layer_repo.write("src/api/handler.py", "def handle():\n    return None\n")
    layer_repo.write("README.md", "# scratch\n\nAI workers: read AGENTS.md.\n")
    entries = [(name, row["target"]) for name, row in table().items() if name != "readme"]
    declare(layer_repo, entries, budget=400)
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("projections")
    before = generated(layer_repo)
    assert len(before) >= 15, sorted(before)
    edit(layer_repo, POLICY, "retention_max_lines: 5000", "retention_max_lines: 6000")
    result = layer_repo.mj("update")
    assert result.code == 0 and "wrote" not in result.out, result
    assert generated(layer_repo) == before
    assert layer_repo.git("status", "--porcelain") == " M .ai/repo/policy.yaml\n"
    check = layer_repo.mj("update", "--check")
    assert check.code == 0, check
    doctor = layer_repo.mj("doctor", "--json")
    assert set(levels(doctor.out, set(before)).values()) == {"OK"}, doctor.out
