"""The budget of an always-loaded file: lines and bytes, per provider.

Lines: the policy's `context.always_loaded_budget_lines`, or the provider's own line budget
when that is lower (share/providers.yaml). Bytes: the provider's documented cap on what it
reads of the file (Codex reads 32 KiB of project instructions), measured over the whole file
as the client reads it. Lines are counted over the generated text (for a region, the region
and its two markers), as the policy always counted them.
"""

from __future__ import annotations

from mj_policy import providers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_policy.projections import Projection


class Limits:
    """What one always-loaded file may hold, and where each cap comes from."""

    __slots__ = ("bytes", "lines", "lines_from")

    def __init__(self, lines: int, lines_from: str, size: int | None) -> None:
        self.lines = lines
        self.lines_from = lines_from
        self.bytes = size


def limits(projection: Projection, policy_lines: int) -> Limits:
    provider = providers.table().get(projection.provider)
    if provider is None:
        return Limits(policy_lines, "context.always_loaded_budget_lines", None)
    lines = providers.lines_budget(provider, policy_lines)
    source = (
        "context.always_loaded_budget_lines"
        if lines == policy_lines
        else f"{projection.provider}'s line budget ({providers.TABLE})"
    )
    return Limits(lines, source, provider.budget_bytes)


def overruns(projection: Projection, lines: int, size: int, policy_lines: int) -> list[str]:
    """Why the file is over its budget (empty when it fits): one phrase per cap exceeded."""
    if not projection.always_loaded:
        return []
    cap = limits(projection, policy_lines)
    found = []
    if lines > cap.lines:
        found.append(f"{lines} lines, over {cap.lines} ({cap.lines_from})")
    if cap.bytes is not None and size > cap.bytes:
        found.append(
            f"{size} bytes, over the {cap.bytes} bytes {projection.provider} reads "
            f"({providers.TABLE})"
        )
    return found
