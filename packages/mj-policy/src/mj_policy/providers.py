"""The provider table (`share/providers.yaml`): for each provider the file it reads, its format,
whether it loads that file into every conversation, the budget of such a file, where a rule
is delivered as a file of its own, and where it loads skills from (or that it loads none).

The table is shipped data, validated against `share/schemas/providers.schema.json` by the tests;
it is read once per process from `share/providers.json`, which `python -m
mj_core.declaration.generate`
generates from it (a test holds the two equal), and never validated on a hot path.
"""

from __future__ import annotations

from functools import cache

from mj_core import share
from mj_core.errors import ContractUnmet

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

TABLE = "share/providers.yaml"


class Provider:
    """One row of the table."""

    __slots__ = ("budget_bytes", "budget_lines", "data", "key")

    def __init__(self, key: str, data: dict[str, Any]) -> None:
        self.key = key
        self.data = data
        budget = data.get("budget") or {}
        self.budget_lines: int | None = budget.get("lines")
        self.budget_bytes: int | None = budget.get("bytes")

    @property
    def target(self) -> str:
        return str(self.data["target"])

    @property
    def always(self) -> bool:
        """The client puts its target into every conversation."""
        return bool(self.data["loads"] == "always")

    @property
    def rules(self) -> dict[str, Any] | None:
        """Where a rule becomes a file of its own (dir, suffix, front matter, scoped), or None
        when rules are delivered inside the target."""
        found = self.data.get("rules")
        return dict(found) if isinstance(found, dict) else None

    @property
    def skills(self) -> str | None:
        """The directory the client loads skills from (`<dir>/<id>/SKILL.md`), or None when it
        loads none natively (`supported: false`)."""
        found = self.data.get("skills")
        where = found.get("dir") if isinstance(found, dict) else None
        return str(where) if where else None

    @property
    def scoped(self) -> bool:
        """A rule file of this provider can be limited to paths."""
        return bool((self.rules or {}).get("scoped"))

    @property
    def also_targets(self) -> tuple[str, ...]:
        """Files at the repository's root the client also puts into every conversation."""
        found = self.data.get("also_loads") or {}
        return tuple(str(t) for t in found.get("targets") or ())

    @property
    def also_rule_dirs(self) -> tuple[str, ...]:
        """Directories of rule files the client also loads, honouring their path scoping."""
        found = self.data.get("also_loads") or {}
        return tuple(str(d) for d in found.get("rule_dirs") or ())

    @property
    def nested(self) -> str | None:
        """The file name the client also loads from subdirectories, whenever it does."""
        found = self.data.get("nested")
        return str(found) if found else None

    @property
    def nested_names(self) -> tuple[str, ...]:
        """Its own nested file name and the other clients' ones it also loads."""
        also = (self.data.get("also_loads") or {}).get("nested") or ()
        own = (self.nested,) if self.nested else ()
        return tuple(dict.fromkeys((*own, *(str(n) for n in also))))

    @property
    def nested_at_start(self) -> str | None:
        """The nested file name of a client that loads those files from the root down to where
        it starts (Codex), the only kind `update` places rules in; None for one that loads
        them once it reads a file there (`nested_when: read`)."""
        return self.nested if self.data.get("nested_when", "start") == "start" else None


@cache
def table() -> dict[str, Provider]:
    from mj_core.stream import jsonl

    data = jsonl.loads_line(share.read_text("providers.json"))  # generated from the YAML
    return {str(k): Provider(str(k), dict(v)) for k, v in data["providers"].items()}


@cache
def one(key: str) -> Provider | None:
    """The provider `key` (None: not in the table), decoded from its own line of the table: a
    command that asks after a provider or two does not decode them all (one that has read the
    whole table takes it from there)."""
    if table.cache_info().currsize:
        return table().get(key)
    row = share.provider_row(key)
    return None if row is None else Provider(key, dict(row))


def display(key: str) -> str:
    """The provider's name for a person (its key when the table does not know it)."""
    found = table().get(key)
    return str(found.data["name"]) if found is not None else key


def names() -> list[str]:
    return list(table())


def get(key: str, where: str = "") -> Provider:
    """The provider `key`; one not in the table → 10 naming the ones that are."""
    found = table().get(key)
    if found is None:
        prefix = f"{where}: " if where else ""
        raise ContractUnmet(
            f"{prefix}unknown provider '{key}' — the providers are {', '.join(names())} ({TABLE})"
        )
    return found


def loaded_always(item: Mapping[str, Any]) -> bool:
    """A `projections[]` entry is always loaded when the policy says so or when its provider
    puts its file into every conversation (this table's `always`)."""
    if item.get("always_loaded", False):
        return True
    known = one(str(item.get("provider")))
    return known is not None and known.always


def lines_budget(provider: Provider, policy_lines: int) -> int:
    """The line budget of one always-loaded file: the policy's, or the provider's if lower."""
    if provider.budget_lines is None:
        return policy_lines
    return min(policy_lines, provider.budget_lines)
