"""The template a projection is rendered from: the repository's override
(`.ai/repo/providers/<provider>.tmpl`) or the shipped one (`share/providers/<provider>.tmpl`),
and for a target several providers share, which of theirs."""

from __future__ import annotations

from functools import cache

from mj_core import share
from mj_core.errors import MissingArtifact
from mj_core.yaml.strict import decode

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.projection.item import Projection


def template(name: str, override_dir: Path) -> tuple[str, str]:
    """(text, shown name) of a template: the repository override first, then the shipped one."""
    override = override_dir / f"{name}.tmpl"
    if override.is_file():
        return decode(override.read_bytes(), str(override)), str(override)
    return _shipped(name)


@cache
def _shipped(name: str) -> tuple[str, str]:
    """A shipped template, read once a process (every bootstrap renders the shared body)."""
    shipped = share.path("providers", f"{name}.tmpl")
    if not shipped.is_file():
        raise MissingArtifact(f"share/providers/{name}.tmpl: no template for provider '{name}'")
    return shipped.read_text(encoding="utf-8"), f"share/providers/{name}.tmpl"


def template_of(projection: Projection, override_dir: Path) -> tuple[str, str]:
    """A target's template: its provider's; for a target several providers share, the one
    repository override among theirs, else the first one's in the table (two different
    overrides for one file are refused, 10)."""
    if len(projection.providers) == 1:
        return template(projection.provider, override_dir)
    overrides = {}
    for name in projection.providers:
        path = override_dir / f"{name}.tmpl"
        if path.is_file():
            overrides[name] = template(name, override_dir)
    if len({text for text, _ in overrides.values()}) > 1:
        from mj_core.errors import ContractUnmet

        shown = " and ".join(shown for _, shown in overrides.values())
        raise ContractUnmet(
            f"{shown}: {projection.target} is one file for {', '.join(projection.providers)}, "
            "and their templates differ — keep one override for it"
        )
    return next(iter(overrides.values()), None) or template(projection.provider, override_dir)
