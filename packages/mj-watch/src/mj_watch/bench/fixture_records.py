"""Skills and decision records of realistic shape for measuring `skills check` and `adr check`.

`skills(root, n)`: n skills, each with the three sections, tags, one to three `related` ids of
earlier skills and, for one in four, an example. `adrs(root, n)`: n records, one in six
superseding an earlier one (both sides written, the older one `superseded`), one in five
extracted with evidence, each relating to a file of `src/` that exists. Deterministic: the same
sizes give the same files; every file is one the tool accepts, so a check measures judging.
"""

from __future__ import annotations

import random

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

SKILL = """---
schema: skill/v1
id: skill-{i:04d}
version: {version}
title: Procedure {i}
description: Carries out procedure {i} for area {area} and reports what it found.
status: {status}
tags: [area-{area}, bench]
related: [{related}]
inputs:
  - a checkout of the repository with git history available
outputs:
  - findings, each with severity, evidence and location
---
# Purpose
Procedure {i} exists so that area {area} is checked the same way every time.

# Procedure
1. Read the files of area {area}.
2. Compare them with what the rules of the repository require.
3. Write down every difference, with the line it is on.

# Output
A list of findings, most severe first.
"""
ADR = """---
schema: adr/v1
id: adr-{i:04d}
kind: adr
title: Decision {i} on area {area}
status: {status}
date: "2026-{month:02d}-{day:02d}"
tags: [area-{area}]
{links}related:
  - file:src/area_{area:02d}.py
{provenance}---
## Context

Area {area} needed a decision ({i}).

## Decision

Decision {i} is taken for area {area}.

## Consequences

Area {area} is built on decision {i}.
"""


def skills(root: Path, count: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    base = root / ".ai" / "repo" / "skills"
    for i in range(1, count + 1):
        folder = base / f"skill-{i:04d}"
        (folder / "examples").mkdir(parents=True, exist_ok=True)
        earlier = rng.sample(range(1, i), min(i - 1, rng.randint(1, 3)))
        text = SKILL.format(i=i, area=i % 17, version=rng.randint(1, 4),
                            status=rng.choice(("active", "active", "draft", "deprecated")),
                            related=", ".join(f"skill-{e:04d}" for e in sorted(earlier)),
                            )  # fmt: skip
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
        if i % 4 == 0:
            (folder / "examples" / "one.md").write_text(f"# Example {i}\nA run.\n")


def adrs(root: Path, count: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    base = root / ".ai" / "repo" / "adrs"
    base.mkdir(parents=True, exist_ok=True)
    (root / "src").mkdir(exist_ok=True)
    for area in range(20):
        (root / "src" / f"area_{area:02d}.py").write_text(f"AREA = {area}\n", encoding="utf-8")
    superseded: dict[int, int] = {}  # old → new
    newer: dict[int, int] = {}  # new → old
    for i in range(7, count + 1, 6):
        old = rng.randrange(1, i)
        if old not in superseded and old not in newer:
            superseded[old], newer[i] = i, old
    for i in range(1, count + 1):
        links = ""
        if i in newer:
            links += f"supersedes: [adr-{newer[i]:04d}]\n"
        if i in superseded:
            links += f"superseded_by: [adr-{superseded[i]:04d}]\n"
        status = "superseded" if i in superseded else rng.choice(("accepted", "proposed"))
        provenance = ""
        if i % 5 == 0:
            evidence = f"    - file:src/area_{i % 20:02d}.py\n"  # resolves once it is added
            provenance = f"provenance:\n  origin: extracted\n  derived_from:\n{evidence}"
            status = "superseded" if i in superseded else "proposed"
        text = ADR.format(i=i, area=i % 20, status=status, month=1 + i % 12, day=1 + i % 28,
                          links=links, provenance=provenance)  # fmt: skip
        (base / f"{i:04d}-decision-{i}.md").write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """`python -m mj_watch.bench.fixture_records <dir> [skills] [adrs]`: a fresh repository
    there, adopted by the real `majordomus init`, with the skills and records, committed."""
    import subprocess
    import sys
    from pathlib import Path

    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0])
    counts = [int(a) for a in args[1:3]] + [200, 500][len(args[1:3]) :]
    root.mkdir(parents=True)
    steps = (("git", "init", "-q", "-b", "main"), (str(Path(sys.executable).parent / "majordomus"),
             "init"))  # fmt: skip
    for argv_ in steps:
        subprocess.run(argv_, cwd=root, check=True, capture_output=True)
    skills(root, counts[0])
    adrs(root, counts[1])
    subprocess.run(("git", "add", "-A"), cwd=root, check=True)
    subprocess.run(("git", "commit", "-qm", "fixture", "--no-verify"), cwd=root, check=True)
    print(root)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
