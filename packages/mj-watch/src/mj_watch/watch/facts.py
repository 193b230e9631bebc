"""What `watch` judges: the records of `mj-watch facts --for watch` (`watch.gather`), read into
the shapes the drift checks ask for — the layer, the ledger, the task, git identity. The task is
the ledger's; a copy (`current.yaml`) that does not parse is kept as its one-line reason, so the
state check can report it instead of the run failing. `LiveFacts` answers doctor's questions
from the disk (for a check run on a checkout directly, as in tests).
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_policy.layer import files as layerfiles
from mj_state.ledger import store as ledger
from mj_state.task import state as taskstate
from mj_state.task.place import Place

from mj_watch.doctor.facts_view import Facts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


class LiveFacts(Facts):
    """The questions of `Facts` answered from the checkout at `root`, each read once."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self._entries: dict[str, Record] = {}

    def entry(self, relative: str) -> Record:
        if relative not in self._entries:
            self._entries[relative] = layerfiles.describe(self.root, relative, hashed=True)
        return self._entries[relative]

    def files_below(self, base: str) -> list[str]:
        return layerfiles.files_below(self.root / base)

    def get(self, name: str) -> Record:
        """A fact the shared checks ask for, gathered from the disk the first time."""
        if name not in self.facts:
            self.facts[name] = self._gather(name)
        return self.facts[name]

    def _gather(self, name: str) -> Record:
        if name == "targets":
            from mj_policy.layer import target_facts as targetfacts

            return targetfacts.gather(self.root, self.layer)
        if name == "retention":
            from mj_watch.doctrine import retention

            return retention.counts(self.root)
        return super().get(name)

    @cached_property
    def layer(self) -> Layer | None:
        try:
            from mj_policy.layer import loader as layer

            return layer.load(self.root)
        except MjError:
            return None


class WatchFacts(Facts):
    """What watch judges, from the records of `mj-watch facts --for watch` alone."""

    def __init__(self, records: Iterable[Record]) -> None:
        super().__init__(records)
        self.root = Path(str(self.get("watch").get("root") or "."))

    @cached_property
    def loaded(self) -> Layer:
        """The layer; watch cannot judge work without it (the facts stage stops first)."""
        if self.layer is None:
            raise MissingArtifact("watch: the facts carry no layer — `mj-watch facts --for watch`")
        return self.layer

    @cached_property
    def situation(self) -> taskstate.Situation:
        """The task as the ledger records it, and what `current.yaml` says."""
        told = self.get("situation")
        return taskstate.Situation.from_fact(told)

    @cached_property
    def scan(self) -> ledger.Scan:
        """The whole ledger as the facts stage read it (watch judges every line)."""
        told = self.get("ledger")
        problems = [(int(n), str(why)) for n, why in told.get("problems") or []]
        got = self.situation.scan
        return ledger.Scan(got.rows, got.values, problems, got.chain)

    @cached_property
    def task(self) -> tuple[dict[str, Any] | None, str | None]:
        """(this checkout's task as the ledger records it, or the reason the copy is broken)."""
        return self.situation.record(), self.situation.copy_problem

    @cached_property
    def place(self) -> Place:
        return Place.from_fact(self.get("place"))

    @cached_property
    def now(self) -> dict[str, Any]:
        return dict(self.get("task").get("now") or {})

    @property
    def label(self) -> str:
        return str(self.get("task").get("label"))

    @property
    def touched(self) -> list[str]:
        return [str(p) for p in self.get("task").get("touched") or []]

    @property
    def writes(self) -> dict[str, Any]:
        """The tool's own writes among `touched` (`mj_state.task.scope.writes`)."""
        return dict(self.get("task").get("writes") or {})

    @property
    def interval(self) -> str:
        return str(self.get("task").get("interval"))

    def task_lines(self, task_id: str) -> list[tuple[int, dict[str, Any]]]:
        """(line number, record) of the ledger lines that are objects naming `task_id`."""
        return [
            (row[0], value)
            for row, value in zip(self.scan.rows, self.scan.values, strict=True)
            if type(value) is dict and value.get("task_id") == task_id
        ]
