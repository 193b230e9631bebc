"""The governed fixture's layer: project rules and context documents, as a team writes them.

Rule `k` depends on rule `k-1` within runs of five, so resolution orders real chains; every
fifth rule is routed to the shipped `doctrine.context_budget` validator and names a test file, which
is written. Context document `k` lives at `.ai/repo/areas/a<k>/README.md` and tracks
`src/pkg_<k>`, the large fixture's packages.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

RULE = """---
id: project.rule-{k:02d}
version: 1
kind: rule
title: Rule {k}
description: What rule {k} asks.
statement: Code in area {k} keeps its public names documented.
status: active
class: advisory
depends_on: [{depends}]
tags: [fixture]
{routed}---

Rule {k} of the benchmark fixture.
"""
ROUTED = """x-majordomus:
  validator: context_budget
  category: budget
  enforced_by:
    - doctor
  exit_code: 10
  tests:
    - tests/test_rule_{k:02d}.py
"""
DOCUMENT = """---
schema: context/v1
id: ai.repo.areas.a{k:02d}
kind: context
title: Area {k}
description: What src/pkg_{k:03d} holds.
status: active
scope: subtree
providers:
  - "*"
audience:
  - agent
composition: extend
order: {order}
tracks:
  - src/pkg_{k:03d}
children:
  require_contract: false
  exempt: []
---

# Area {k}

The modules of `src/pkg_{k:03d}`.
"""


def write(root: Path, *, rules: int, documents: int) -> None:
    for k in range(rules):
        depends = f"project.rule-{k - 1:02d}@1" if k % 5 else ""
        routed = ROUTED.format(k=k) if k % 5 == 0 else ""
        _put(root / ".ai/repo/rules/project" / f"rule-{k:02d}.v1.md",
             RULE.format(k=k, depends=depends, routed=routed))  # fmt: skip
        if routed:
            _put(
                root / "tests" / f"test_rule_{k:02d}.py",
                f"def test_rule_{k:02d}() -> None:\n    pass\n",
            )
    for k in range(documents):
        _put(
            root / ".ai/repo/areas" / f"a{k:02d}" / "README.md", DOCUMENT.format(k=k, order=20 + k)
        )


def _put(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
