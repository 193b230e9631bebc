"""Generated repositories to measure on: `small` (a fresh layer) and `large` (a busy one)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from majordomus.benchmark import scenario as _scenario
from majordomus.benchmark.scenario import Scenario


def scenario(name: str, scale: int) -> Scenario:
    scratch = Path(tempfile.mkdtemp(prefix=f"mj-bench-{name}-"))
    root = scratch / "fixture" / name
    generate(root, name, scale)
    label = f"fixture {name}" + (f"×{scale}" if scale != 1 else "")
    return Scenario(label, root, scratch, _scenario.environment())


def generate(root: Path, name: str, scale: int) -> None:
    from mj_core.errors import UsageError

    raise UsageError(f"bench: --fixture {name}: the fixture generator is not part of this build")
