"""The policy's `remote:` block read: which remote, whether it is required, the lease a claim
holds for and the bound on every network call (docs/FORMATS.md, "The remote")."""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import MissingArtifact

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.layer.loader import Layer

DEFAULT_LEASE = "2h"
DEFAULT_TIMEOUT = "10s"


class Settings:
    """`remote:` with its defaults filled in (durations in seconds)."""

    __slots__ = ("lease", "name", "required", "timeout")

    def __init__(self, name: str, required: bool, lease: int, timeout: int) -> None:
        self.name = name
        self.required = required
        self.lease = lease
        self.timeout = timeout


def of(policy: dict[str, Any]) -> Settings | None:
    """The settings, or None without a `remote:` block (the layer loader checked its shape)."""
    block = policy.get("remote")
    if not isinstance(block, dict):
        return None
    lease = clock.parse_duration(str(block.get("lease") or DEFAULT_LEASE)) or 7200
    timeout = clock.parse_duration(str(block.get("timeout") or DEFAULT_TIMEOUT)) or 10
    return Settings(str(block["name"]), bool(block.get("required", False)), lease, timeout)


def need(layer: Layer, command: str) -> Settings:
    """The settings a remote command cannot do without: no block → 12."""
    found = of(layer.policy.data)
    if found is None:
        shown = layer.relative(layer.ai / "repo" / "policy.yaml")
        raise MissingArtifact(
            f"{command}: {shown} names no remote — add a `remote:` block with `name: origin` "
            '(docs/FORMATS.md, "The remote")'
        )
    return found
