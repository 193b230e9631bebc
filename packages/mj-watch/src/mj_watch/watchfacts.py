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

from mj_watch.facts import Facts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer import Layer


class WatchFacts(Facts):
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
