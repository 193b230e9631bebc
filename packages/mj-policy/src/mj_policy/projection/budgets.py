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
    from collections.abc import Sequence


class Limits:
    """What one always-loaded file may hold, and where each cap comes from."""

    __slots__ = ("bytes", "lines", "lines_from")

    def __init__(self, lines: int, lines_from: str, size: int | None) -> None:
        self.lines = lines
        self.lines_from = lines_from
        self.bytes = size


def limits(names: Sequence[str], policy_lines: int) -> Limits:
    """A file's caps: the lowest among the providers `names` that load it (a shared target
    serves them all)."""
    found = [client_limit(name, policy_lines) for name in names]
    lines = min(found, key=lambda cap: cap.lines)
    sizes = [
        (p.budget_bytes, p.key)
        for p in (providers.table().get(name) for name in names)
        if p is not None and p.budget_bytes is not None
    ]
    size = min(sizes)[0] if sizes else None
    return Limits(lines.lines, lines.lines_from, size)


def client_limit(client: str, policy_lines: int) -> Limits:
    """What one client may put into every conversation over all the files it loads: the
    policy's line budget, or the client's own when lower (its byte cap stays per file)."""
    provider = providers.table().get(client)
    if provider is None:
        return Limits(policy_lines, "context.always_loaded_budget_lines", None)
    lines = providers.lines_budget(provider, policy_lines)
    source = (
        "context.always_loaded_budget_lines"
        if lines == policy_lines
        else f"{client}'s line budget ({providers.TABLE})"
    )
    return Limits(lines, source, None)


def overruns(
    names: Sequence[str], always_loaded: bool, lines: int, size: int, policy_lines: int
) -> list[str]:
    """Why a file the providers `names` load is over its budget (empty when it fits, or when
    it is not `always_loaded`): one phrase per cap exceeded."""
    if not always_loaded:
        return []
    cap = limits(names, policy_lines)
    found = []
    if lines > cap.lines:
        found.append(f"{lines} lines, over {cap.lines} ({cap.lines_from})")
    if cap.bytes is not None and size > cap.bytes:
        reader = min(
            (p.budget_bytes, p.key)
            for p in (providers.table().get(n) for n in names)
            if p is not None and p.budget_bytes is not None
        )[1]
        found.append(f"{size} bytes, over the {cap.bytes} bytes {reader} reads ({providers.TABLE})")
    return found
