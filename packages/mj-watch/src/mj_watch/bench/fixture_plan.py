"""A plan of realistic shape for measuring `plan`: milestones of 40 issues each, every issue
depending on one to three earlier issues, mostly of its own milestone and now and then of the
one before (a chain across milestones), a few done, a few under way, one in ten not
parallel-safe. Deterministic: the same sizes give the same files."""

from __future__ import annotations

import random

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

PER_MILESTONE = 40
PROJECT = "schema_version: 1\nname: Fixture\nrepository: fixture/fixture\ndefault_branch: main\n"
MILESTONE = """id: M{m:03d}
title: Outcome {m}
slug: outcome-{m}
order: {m}
priority: p{p}
problem: "Outcome {m} is not there."
outcome: "Outcome {m} holds."
current_state: "Partly built."
desired_state: "Built."
scope: [src/pkg_{m:03d}]
non_scope: []
acceptance_criteria: ["outcome {m} is demonstrated"]
validation: ["make test"]
evidence_required: []
risks: []
created_at: 2026-11-01
updated_at: 2026-11-01
"""
ISSUE = """id: I{i:04d}
milestone: M{m:03d}
title: Issue {i}
slug: issue-{i}
priority: p{p}
profile: implementation
parallel_safe: {parallel}
objective: "Build part {i}."
why: "Outcome {m} needs it."
current_state: "Absent."
desired_state: "Present and tested."
scope: [src/pkg_{m:03d}/mod_{i:05d}.py]
non_scope: []
depends_on: [{deps}]
acceptance_criteria: ["part {i} works"]
validation: ["make test"]
evidence_required: []
risk: "low"
{markers}"""
DONE = "started_at: 2026-11-02T10:00:00Z\ncompleted_at: 2026-11-03T10:00:00Z\n"
STARTED = "started_at: 2026-11-04T10:00:00Z\n"


def write(root: Path, issues: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    base = root / ".ai" / "repo" / "project"
    (base / "milestones").mkdir(parents=True, exist_ok=True)
    (base / "issues").mkdir(parents=True, exist_ok=True)
    (base / "project.yaml").write_text(PROJECT, encoding="utf-8")
    milestones = max(1, -(-issues // PER_MILESTONE))
    for m in range(milestones):
        text = MILESTONE.format(m=m, p=min(m, 3))
        (base / "milestones" / f"M{m:03d}.yaml").write_text(text, encoding="utf-8")
    done_until = issues // 10  # the first tenth is done, so the next ones are under way or ready
    for i in range(1, issues + 1):
        m = (i - 1) // PER_MILESTONE
        first = m * PER_MILESTONE + 1
        pool = list(range(max(1, first - PER_MILESTONE // 2), i))
        deps = sorted(rng.sample(pool, min(len(pool), rng.randint(1, 3)))) if pool else []
        if i <= done_until:
            markers = DONE
        elif all(d <= done_until for d in deps) and rng.random() < 0.2:
            markers = STARTED
        else:
            markers = ""
        text = ISSUE.format(i=i, m=m, p=rng.randint(0, 3), markers=markers,
                            parallel="false" if rng.random() < 0.1 else "true",
                            deps=", ".join(f"I{d:04d}" for d in deps))  # fmt: skip
        (base / "issues" / f"I{i:04d}.yaml").write_text(text, encoding="utf-8")
