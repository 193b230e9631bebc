"""A repository of realistic shape for measuring `knowledge`: 5,000 tracked Markdown and YAML
files stating 20,000 references (Markdown links and the plan's declared fields).

4,000 documents under `docs/` (a `document` class added to the layer's sources), 40 per
directory, each with four relative links to other documents (one in twenty also to a file
that is not there, one in ten with a link inside a code fence, which states nothing), and the
first 100 with a fifth; a plan of 25 milestones and 975 issues, each issue part of its
milestone and depending on three earlier issues. Deterministic: one layout, one set of links.

`python -m mj_watch.bench.fixture_knowledge <directory>` writes it into a fresh repository
(`git init`, `majordomus init`, committed) and prints the directory.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

DOCS = 4000
PER_DIRECTORY = 40
MILESTONES = 25
ISSUES = 975
SOURCES = """  - id: document
    kind: document
    discovery: vcs
    pathspec: ":(glob)docs/**/*.md"
    required: false
"""
MILESTONE = """id: M{m:03d}
title: Outcome {m}
slug: outcome-{m}
order: {m}
priority: p1
problem: "Outcome {m} is not there."
outcome: "Outcome {m} holds."
current_state: "Partly built."
desired_state: "Built."
scope: [docs/d{m:03d}]
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
priority: p1
profile: implementation
parallel_safe: true
objective: "Build part {i}."
why: "Outcome {m} needs it."
current_state: "Absent."
desired_state: "Present and tested."
scope: [docs/d{m:03d}/doc_{i:05d}.md]
non_scope: []
depends_on: [{deps}]
acceptance_criteria: ["part {i} works"]
validation: ["make test"]
evidence_required: []
risk: "low"
"""


def _doc(index: int) -> str:
    return f"docs/d{index // PER_DIRECTORY:03d}/doc_{index:05d}.md"


def _relative(source: int, target: int) -> str:
    if source // PER_DIRECTORY == target // PER_DIRECTORY:
        return f"doc_{target:05d}.md"
    return f"../d{target // PER_DIRECTORY:03d}/doc_{target:05d}.md"


def document(index: int, rng: random.Random) -> str:
    lines = [f"# Document {index}", "", f"Part of the corpus, number {index}.", ""]
    count = 5 if index < 100 else 4
    for number in range(count):
        target = rng.randrange(DOCS)
        shown = _relative(index, target)
        if number == 0 and index % 20 == 0:
            shown = f"missing_{index}.md"
        lines.append(f"- See [item {number}]({shown}#part-{number}) for more.")
    if index % 10 == 0:
        lines += ["", "```", "[not a link](nowhere.md)", "```"]
    return "\n".join(lines) + "\n"


def write(root: Path, seed: int = 1) -> None:
    rng = random.Random(seed)
    for index in range(DOCS):
        path = root / _doc(index)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(document(index, rng), encoding="utf-8")
    base = root / ".ai" / "repo" / "project"
    for folder in ("milestones", "issues"):
        (base / folder).mkdir(parents=True, exist_ok=True)
    (base / "project.yaml").write_text(
        "schema_version: 1\nname: Fixture\nrepository: fixture/fixture\ndefault_branch: main\n",
        encoding="utf-8",
    )
    for m in range(MILESTONES):
        (base / "milestones" / f"M{m:03d}.yaml").write_text(MILESTONE.format(m=m), "utf-8")
    for i in range(ISSUES):
        earlier = sorted({rng.randrange(i) for _ in range(3)}) if i >= 3 else []
        while i >= 3 and len(earlier) < 3:
            earlier = sorted(set(earlier) | {rng.randrange(i)})
        deps = ", ".join(f"I{d:04d}" for d in earlier)
        text = ISSUE.format(i=i, m=i * MILESTONES // ISSUES, deps=deps)
        (base / "issues" / f"I{i:04d}.yaml").write_text(text, "utf-8")
    sources = root / ".ai" / "repo" / "knowledge" / "sources.yaml"
    sources.write_text(sources.read_text("utf-8") + SOURCES, "utf-8")


def main(argv: list[str]) -> int:
    root = Path(argv[0])
    root.mkdir(parents=True)
    bin_dir = Path(sys.executable).parent
    for argv_ in (["git", "init", "-q", "-b", "main"], [str(bin_dir / "majordomus"), "init"]):
        subprocess.run(argv_, cwd=root, check=True, capture_output=True)
    write(root)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "knowledge fixture", "--no-verify"], cwd=root,
                   check=True)  # fmt: skip
    print(root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
