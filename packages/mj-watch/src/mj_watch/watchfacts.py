"""What `watch` looks at, read once per run: the layer, the ledger, the task, git identity.

Each fact is loaded the first time a check asks for it. The task is the ledger's; a copy
(`current.yaml`) that does not parse is kept as its one-line reason, so the state check can
report it instead of the run failing.
"""

from __future__ import annotations

from functools import cached_property

from mj_core.errors import MjError
from mj_state import identity
from mj_state import ledger
from mj_state import start
from mj_state import taskstate
from mj_state.place import Place

from mj_watch import layerfiles
from mj_watch.factview import Facts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer import Layer

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
            from mj_watch import targetfacts

            return targetfacts.gather(self.root, self.layer)
        if name == "retention":
            from mj_watch import retention

            return retention.counts(self.root)
        return super().get(name)

    @cached_property
    def layer(self) -> Layer | None:
        try:
            from mj_policy import layer

            return layer.load(self.root)
        except MjError:
            return None


class WatchFacts(LiveFacts):
    @cached_property
    def loaded(self) -> Layer:
        """The layer; unlike doctor, watch cannot judge work without it (12 or 10 propagate)."""
        from mj_policy import layer

        return layer.load(self.root)

    @cached_property
    def scan(self) -> ledger.Scan:
        """The whole ledger, read and chained once (watch judges every line)."""
        return ledger.scan(ledger.path(self.loaded.state))

    @cached_property
    def situation(self) -> taskstate.Situation:
        """The task as the ledger records it, and what `current.yaml` says."""
        return taskstate.read(self.loaded, self.scan)

    @cached_property
    def task(self) -> tuple[dict[str, Any] | None, str | None]:
        """(this checkout's task as the ledger records it, or the reason the copy is broken)."""
        return self.situation.record(), self.situation.copy_problem

    @cached_property
    def place(self) -> Place:
        return Place.of(self.loaded)

    @cached_property
    def now(self) -> dict[str, Any]:
        return identity.identity(self.root)

    @cached_property
    def ledger_path(self) -> Path:
        return ledger.path(self.loaded.state)

    def task_lines(self, task_id: str) -> list[tuple[int, dict[str, Any]]]:
        """(line number, record) of the ledger lines that are objects naming `task_id`."""
        return [
            (row[0], value)
            for row, value in zip(self.scan.rows, self.scan.values, strict=True)
            if type(value) is dict and value.get("task_id") == task_id
        ]

    @cached_property
    def interval(self) -> str:
        record, _ = self.task
        profile = str(record["profile"]) if record else ""
        try:
            return start.interval(self.loaded, profile)
        except MjError:
            return str(self.loaded.policy.data["profiles"]["checkpoint_interval_default"])

    def shown(self, path: Path) -> str:
        return self.loaded.relative(path)
