"""What `init` writes: the layer from the shipped skeleton, adding only what is missing
(`mj-policy init-facts | init-judge | init-write`, or `init_write.create` in one call).

Sources: `share/skeleton/ai/**` → `.ai/**`, the standard rule package
`share/standard/majordomus/**` → `.ai/repo/rules/vendor/majordomus/**` byte for byte, the empty
directories `share/skeleton/directories.txt` lists (a `.gitkeep` in each one under `.ai/repo/`),
and one `.ai/local` line in `.gitignore` (no trailing slash: it ignores `.ai/local` whether a
clone carries it as a directory, a file or a symbolic link).
Every file is published atomically and never replaces an existing one; every directory is made
one level at a time, none through a symbolic link (`mj_core.write.confine`).

The bootstrap hatch (DESIGN, security): while this checkout has no ledger, `init` owes one
`layer.adopted` line, which the `mj-state log` stage after it appends (creating the ledger); from
then on the hatch is shut — a later `init --extend` adds what is missing and records nothing,
and says the layer is adopted instead of offering the adoption's steps again.
"""

from __future__ import annotations

from mj_core import share
from mj_core.errors import Refused

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

VENDORED = ".ai/repo/rules/vendor/majordomus"
IGNORE_LINE = ".ai/local"
TRACKED = ".ai/repo/"
KEEP = ".gitkeep"
IGNORE_FORMS = {".ai/local", "/.ai/local"}  # the directory-only forms miss a link or a file


def sources() -> list[tuple[str, Path]]:
    """(repository-relative target, shipped source) for every file of the layer, in order."""
    pairs = []
    for base, prefix in (
        (share.path("skeleton", "ai"), ".ai"),
        (share.path("standard", "majordomus"), VENDORED),
    ):
        for path in sorted(
            p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts
        ):
            pairs.append((f"{prefix}/{path.relative_to(base).as_posix()}", path))
    return pairs


def directories() -> list[str]:
    lines = share.read_text("skeleton", "directories.txt").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def existing(root: str, *, manifest: bool) -> Refused:
    """The refusal of `init` (without `--extend`) over a `.ai/` already there."""
    if not manifest:
        return Refused(
            f".ai/ exists in {root} without a manifest — move it aside, or run "
            "`majordomus init --extend` to add the missing layer files (nothing is overwritten)"
        )
    return Refused(
        f".ai/ already exists in {root} (use --extend to add what is missing; "
        "nothing is overwritten)"
    )


def hatch_open(root: Path) -> bool:
    """The bootstrap hatch (DESIGN, security): open while this checkout has no ledger yet."""
    ledger = root / ".ai" / "local" / "state" / "ledger.jsonl"
    return not (ledger.exists() or ledger.is_symlink())


def adoption(created: int, *, extend: bool) -> dict[str, Any]:
    """The adoption's one ledger line, owed while the hatch was open (`mj-state log` writes it,
    and the hatch then shuts)."""
    return {"kind": "append", "event": "layer.adopted", "created": created, "extend": extend}
