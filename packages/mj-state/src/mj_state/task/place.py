"""Where a judge's findings point: the repository-relative paths of the state files, and the
policy they are judged under — read from a layer by a facts stage, or from a fact by a judge.

A judge never opens the repository: what it names in a message or a reproduce command comes
from here, so the same judge runs on a live layer, on a saved facts file, or on facts a test
wrote by hand.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]

STATE = ".ai/local/state"


class Place:
    """The shown paths of the state files and the policy's data."""

    __slots__ = ("policy", "state")

    def __init__(self, state: str = STATE, policy: Record | None = None) -> None:
        self.state = state
        self.policy: Record = policy or {}

    @classmethod
    def of(cls, layer: Layer) -> Place:
        return cls(layer.relative(layer.state), layer.policy.data)

    @classmethod
    def from_fact(cls, fact: Record) -> Place:
        return cls(str(fact.get("state") or STATE), dict(fact.get("policy") or {}))

    def fact(self) -> Record:
        return {"kind": "fact", "fact": "place", "state": self.state, "policy": self.policy}

    @property
    def copy(self) -> str:
        return f"{self.state}/current.yaml"

    @property
    def ledger(self) -> str:
        return f"{self.state}/ledger.jsonl"

    @property
    def questions(self) -> str:
        return f"{self.state}/open-questions.md"

    @property
    def decisions(self) -> str:
        return f"{self.state}/decisions.md"
