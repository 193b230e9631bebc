"""What `watch` looks at, read once per run: the layer, the task record, git identity, ledger.

Each fact is loaded the first time a check asks for it. A task record that does not parse is
kept as its one-line reason, so the state check can report it instead of the run failing.
"""

from __future__ import annotations

from functools import cached_property

from mj_core.errors import MjError
from mj_state import identity
from mj_state import ledger
from mj_state import start
from mj_state import tasks

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
    def task(self) -> tuple[dict[str, Any] | None, str | None]:
        """(current.yaml, or the reason it does not parse)."""
        try:
            return tasks.read_current(self.loaded), None
        except MjError as exc:
            return None, exc.message

    @cached_property
    def now(self) -> dict[str, Any]:
        return identity.identity(self.root)

    @cached_property
    def ledger_path(self) -> Path:
        return ledger.path(self.loaded.state)

    @cached_property
    def events(self) -> list[ledger.Line]:
        return list(ledger.read(self.ledger_path))

    def task_lines(self, task_id: str) -> list[tuple[int, dict[str, Any]]]:
        """(line number, record) of the well-formed ledger lines naming `task_id`, in order."""
        return [
            (line.lineno, line.record)
            for line in self.events
            if line.record is not None and line.record.get("task_id") == task_id
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
