"""The `benchmark` section of the policy: the repository's own, else the shipped skeleton's.

A repository without a layer (this project's own checkout, a CI runner) still benchmarks: the
skeleton policy that `init` would write supplies samples, warm-up and regression fractions.
"""

from __future__ import annotations

from pathlib import Path

from mj_core import share
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from typing import Any

SKELETON = ("skeleton", "ai", "repo", "policy.yaml")


class Settings:
    """The policy's `benchmark:` section, and the file it came from."""

    __slots__ = ("budget", "regression", "samples", "source", "warmup")

    def __init__(
        self,
        source: str,
        samples: int,
        warmup: int,
        regression: dict[str, float],
        budget: dict[str, int],
    ) -> None:
        self.source = source
        self.samples = samples
        self.warmup = warmup
        self.regression = regression
        self.budget = budget


def load(root: Path) -> Settings:
    if (root / ".ai" / "manifest.yaml").is_file():
        from mj_policy.layer import loader as layer

        doc = layer.load(root).policy
        source = doc.name
    else:
        doc = yamlstrict.load_file(share.path(*SKELETON), "share/skeleton/ai/repo/policy.yaml")
        source = doc.name
    return _settings(source, doc.data["benchmark"])


def _settings(source: str, section: dict[str, Any]) -> Settings:
    return Settings(
        source=source,
        samples=int(section["samples"]),
        warmup=int(section["warmup"]),
        regression={k: float(v) for k, v in section["regression"].items()},
        budget={k: int(v) for k, v in section["budget"].items()},
    )
