"""A layer path described as a fact: what it is, its text (or why it cannot be read), its
entries, its hash — the one reading of the layer's files the facts stages do (`mj-policy
facts`, and watch's).

`describe` follows links as the checks did (`is_file`, `is_dir`); a file's text is read as
`yaml.strict.read_text` reads it (the layer's limits), so a judge parsing it reports the very
messages a direct read would.
"""

from __future__ import annotations

import os

from mj_core.errors import MjError
from mj_core.yaml import strict as yamlstrict

from mj_policy.layer import loader as layer

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_core.yaml.strict import Document

    Record = dict[str, Any]


def describe(root: Path, relative: str, *, hashed: bool = False) -> Record:
    """{type: file|directory|other|absent, text|problem, exec, names, sha256 (when hashed)}."""
    path = root / relative
    if path.is_dir():
        try:
            names = sorted(os.listdir(path))
        except OSError:
            names = []
        return {"type": "directory", "names": names, "problem": _problem(path, relative)}
    if not path.exists():
        return {"type": "absent", "problem": f"{relative}: no such file"}
    if not path.is_file():
        return {"type": "other", "problem": _problem(path, relative)}
    found: Record = {"type": "file", "exec": os.access(path, os.X_OK)}
    try:
        found["text"] = yamlstrict.read_text(path, relative)
    except MjError as exc:
        found["problem"] = exc.message
    if hashed:
        from mj_policy.rules import package as rulepkg

        found["sha256"] = rulepkg.sha256(path)
    return found


def _problem(path: Path, relative: str) -> str:
    try:
        yamlstrict.read_text(path, relative)
    except MjError as exc:
        return exc.message
    return f"{relative}: not a regular file"


def tree(root: Path, relative: str, *, hashed: bool = False) -> dict[str, Record]:
    """`relative` and everything below it, described (links to directories not followed)."""
    found = {relative: describe(root, relative, hashed=hashed)}
    if found[relative]["type"] != "directory":
        return found
    for name in found[relative]["names"]:
        child = f"{relative}/{name}"
        if (root / child).is_symlink() and (root / child).is_dir():
            found[child] = {"type": "directory", "names": [], "problem": f"{child}: a link"}
            continue
        found.update(tree(root, child, hashed=hashed))
    return found


def files_below(base: Path) -> list[str]:
    """Every non-directory path below `base`, relative to it, sorted."""
    if not base.is_dir():
        return []
    return sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if not p.is_dir())


def section(manifest: Document | None, name: str, default: str) -> str:
    """`.ai/<section>` as the manifest names it, or the skeleton's path when it cannot."""
    if manifest is not None:
        try:
            return f".ai/{layer.section_value(manifest, name)}"
        except MjError:
            pass
    return f".ai/{default}"
