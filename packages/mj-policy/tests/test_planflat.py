"""A plan file read the short way (`plan.flat`) is the file read in full: the same data, the
same position for every key and item a problem can name, the same problems — for valid files
as written, and for files with a defect, which the short way leaves to the full reading."""

from __future__ import annotations

from pathlib import Path

import pytest
from mj_policy.plan import flat as planflat
from mj_policy.plan import model as planmodel

ISSUE = """id: I{i:04d}
milestone: M000
title: Issue {i}
slug: issue-{i}
priority: p{p}
profile: implementation
parallel_safe: true
objective: "Build part {i}."
why: "Outcome 0 needs it."
current_state: "Absent."
desired_state: "Present and tested."
scope: [src/pkg_000/mod_{i:05d}.py]
non_scope: []
depends_on: [{deps}]
acceptance_criteria: ["part {i} works"]
validation: ["make test"]
evidence_required: []
risk: "low"
{markers}"""
MILESTONE = """id: M000
title: Outcome 0
slug: outcome-0
order: 0
priority: p0
problem: "Outcome 0 is not there."
outcome: "Outcome 0 holds."
current_state: "Partly built."
desired_state: "Built."
scope: [src/pkg_000]
non_scope: []
acceptance_criteria: ["outcome 0 is demonstrated"]
validation: ["make test"]
evidence_required: []
risks: []
created_at: 2026-11-01
updated_at: 2026-11-01
"""
DONE = "started_at: 2026-11-02T10:00:00Z\ncompleted_at: 2026-11-03T10:00:00Z\n"


def write(root: Path, issues: int) -> None:
    base = root / ".ai/repo/project"
    (base / "issues").mkdir(parents=True)
    (base / "milestones").mkdir()
    (base / "milestones/M000.yaml").write_text(MILESTONE)
    for i in range(1, issues + 1):
        deps = ", ".join(f"I{d:04d}" for d in range(max(1, i - 2), i))
        text = ISSUE.format(i=i, p=i % 4, deps=deps, markers=DONE if i % 3 == 0 else "")
        (base / f"issues/I{i:04d}.yaml").write_text(text)


CHANGES = [
    "",
    "status: DONE\n",  # an unknown key
    "owner: ''\n",  # a string too short
    "started_at: yesterday\n",  # outside the pattern
    "order: 3\n",  # unknown for an issue
    "depends_on: [I0001]\n",  # a key written twice
    "notes:\n  - nested\n",  # a block: not flat
    "# a comment\n\n",
    "owner: a person  # who\n",  # a comment after a value, blanks before it
    "owner: 12\n",  # a number where a string is asked
    "owner: yes\n",  # a scalar YAML 1.1 and 1.2 read differently
    "owner: 'it''s'   \n",
]


def both(path: Path, kind: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    def read() -> tuple[object, list[tuple[str, str, str]], list[str]]:
        model = planmodel.Model("plan")
        item = planmodel._read(model, path, f"plan/{path.name}", kind)
        problems = [(p.cls, p.where, p.message) for p in model.problems]
        if item is None:
            return None, problems, []
        keys = [(k,) for k in item.data] + [("depends_on", 0), ("scope", 0), ("nowhere",)]
        return item.data, problems, [item.where(*k) for k in keys]

    short = read()
    with monkeypatch.context() as patched:
        patched.setattr(planflat, "data", lambda *_: None)
        full = read()
    return short, full


@pytest.mark.parametrize("change", CHANGES)
def test_the_short_reading_is_the_full_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    write(tmp_path, 12)
    base = tmp_path / ".ai/repo/project"
    for folder, kind in (("issues", "issue"), ("milestones", "milestone")):
        for path in sorted((base / folder).glob("*.yaml"))[:12]:
            path.write_text(path.read_text() + change)
            short, full = both(path, kind, monkeypatch)
            assert short == full, (path.name, change)


def test_a_flat_valid_file_is_taken_the_short_way(tmp_path: Path) -> None:
    write(tmp_path, 3)
    path = tmp_path / ".ai/repo/project/issues/I0002.yaml"
    item = planmodel._read(planmodel.Model("plan"), path, "plan/I0002.yaml", "issue")
    assert isinstance(item, planmodel.Flat) and item.where("depends_on", 0).endswith(":14:14")
