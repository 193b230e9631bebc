"""A rule file as the layer holds it: its identity, where it lives, and its front matter
(`rules` reads them; the layer keeps the resolved set, so it names the type without the reader)."""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any


class Rule:
    """One rule file's identity, where it lives, and its front matter."""

    __slots__ = ("data", "id", "path", "provenance", "version")

    def __init__(
        self, id: str, version: int, path: str, provenance: str, data: dict[str, Any]
    ) -> None:
        self.id = id
        self.version = version
        self.path = path  # repository-relative
        self.provenance = provenance  # vendor:<name> | project
        self.data = data

    @property
    def key(self) -> str:
        return f"{self.id}@{self.version}"

    @property
    def active(self) -> bool:
        return self.data.get("status") == "active"
