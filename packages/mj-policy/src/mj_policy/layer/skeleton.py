"""`mj-policy init`: write the layer from the shipped skeleton, adding only what is missing.

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

import os

from mj_core import share
from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_core.write import atomic
from mj_core.write import confine

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

VENDORED = ".ai/repo/rules/vendor/majordomus"
IGNORE_LINE = ".ai/local"
TRACKED = ".ai/repo/"
KEEP = ".gitkeep"
_IGNORE_FORMS = {".ai/local", "/.ai/local"}  # the directory-only forms miss a link or a file


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


def refuse_existing(root: Path) -> None:
    ai = root / ".ai"
    if not (ai.exists() or ai.is_symlink()):
        return
    if not (ai / "manifest.yaml").exists():
        raise Refused(
            f".ai/ exists in {root} without a manifest — move it aside, or run "
            "`majordomus init --extend` to add the missing layer files (nothing is overwritten)"
        )
    raise Refused(
        f".ai/ already exists in {root} (use --extend to add what is missing; "
        "nothing is overwritten)"
    )


def _write(root: Path, relative: str, data: bytes, mode: int) -> bool:
    target = root / relative
    if target.exists() or target.is_symlink():
        return False
    atomic.create(target, data, mode=mode, root=root)
    return True


def _directory(root: Path, relative: str) -> Iterator[str]:
    """An empty directory of the layer; under the tracked half it gets a `.gitkeep`, because
    git carries no empty directory and a fresh clone must still resolve every section."""
    path = root / relative
    if not relative.startswith(TRACKED):
        if not path.exists():
            atomic.make_dirs(path, root=root)
            yield relative + "/"
        return
    if path.is_dir() and any(path.iterdir()):
        return
    if _write(root, f"{relative}/{KEEP}", b"", 0o644):
        yield f"{relative}/{KEEP}"


def _ignore(root: Path) -> bool:
    """Add the `.ai/local` line to `.gitignore` unless a line already ignores it."""
    path = root / ".gitignore"
    refusal = confine.check(root, ".gitignore")
    if refusal:
        raise Refused(refusal)
    old = path.read_bytes() if path.exists() else b""
    if any(line.strip() in _IGNORE_FORMS for line in old.decode("utf-8", "replace").splitlines()):
        return False
    sep = b"" if not old or old.endswith(b"\n") else b"\n"
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    atomic.create(
        path, old + sep + IGNORE_LINE.encode() + b"\n", mode=mode, replace=True, root=root
    )
    return True


def create(root: Path, *, extend: bool, changed: dict[str, bytes] | None = None) -> Iterator[str]:
    """Write every missing part of the layer; yield each path created, in order. `changed`:
    a skeleton file's bytes to write instead of the shipped ones (`init --import`'s policy)."""
    if not extend:
        refuse_existing(root)
    if (root / ".ai").exists() and not (root / ".ai").is_dir():
        raise Refused(f"{root / '.ai'} exists and is not a directory — move it aside")
    for relative, source in sources():
        mode = 0o755 if os.access(source, os.X_OK) else 0o644
        data = (changed or {}).get(relative) or source.read_bytes()
        if _write(root, relative, data, mode):
            yield relative
    for relative in directories():
        yield from _directory(root, relative)
    if _ignore(root):
        yield f".gitignore:{IGNORE_LINE}"


def hatch_open(root: Path) -> bool:
    """The bootstrap hatch (DESIGN, security): open while this checkout has no ledger yet."""
    ledger = root / ".ai" / "local" / "state" / "ledger.jsonl"
    return not (ledger.exists() or ledger.is_symlink())


def adoption(created: int, *, extend: bool) -> dict[str, Any]:
    """The adoption's one ledger line, owed while the hatch was open (`mj-state log` writes it,
    and the hatch then shuts)."""
    return {"kind": "append", "event": "layer.adopted", "created": created, "extend": extend}


def _run(options: argparse.Namespace, context: Context) -> Iterator[dict[str, Any]]:
    root = context.root()
    if getattr(options, "ci", None):  # the CI job only (`hooks.ci_setup`): no layer, no ledger line
        from mj_policy.hooks import ci_setup as cisetup

        for relative in cisetup.write(root, options.ci):
            yield {"kind": "created", "path": relative}
        return
    first = hatch_open(root)
    created = 0
    for relative in create(root, extend=options.extend):
        created += 1
        yield {"kind": "created", "path": relative}
    if first:
        yield adoption(created, extend=bool(options.extend))


STAGES = {
    "init": Stage(_run),
}
