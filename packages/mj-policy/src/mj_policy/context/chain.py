"""The effective chain for a path: root → target, in one order (depth, then `order`, then path).

A document applies when it is active, its scope reaches the target and it passes the provider
and audience filters; a `replace` document in the chain removes the ids it supersedes. Each
entry carries its provenance: which file, which line, and why it applies or does not.
"""

from __future__ import annotations

import os
from pathlib import Path

from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.paths import repo_relative

from mj_policy.context.tree import covers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.context.docs import ContextDoc
    from mj_policy.context.tree import Tree

    Entry = dict[str, Any]


def target(root: Path, argument: str, cwd: Path) -> tuple[str, bool]:
    """(repository-relative path, is a directory); outside, through a symlink or absent → 15.

    A relative argument is taken from `cwd` when it lies in the repository, else from the root.
    """
    real_root = Path(os.path.realpath(root))
    inside = Path(os.path.realpath(cwd)).is_relative_to(real_root)
    lexical = Path(os.path.normpath((cwd if inside else root) / argument))
    rel = repo_relative(root, str(lexical), what="refused-path: context target")
    for base in (Path(root), real_root):
        if lexical.is_relative_to(base):
            _no_links(base, lexical.relative_to(base), argument)
    full = real_root / rel
    if not full.exists():
        raise Refused(f"refused-path: context target {argument!r} does not exist in the repository")
    return rel, full.is_dir()


def _no_links(base: Path, rel: Path, argument: str) -> None:
    current = base
    for part in rel.parts:
        current = current / part
        if current.is_symlink():
            raise Refused(
                f"refused-path: context target {argument!r} goes through a symlink "
                f"({current.relative_to(base).as_posix()})"
            )


def require_valid(tree: Tree) -> None:
    if tree.problems:
        first = tree.problems[0]
        raise ContractUnmet(
            f"{first.where}: {first.cls}: {first.message} — the context tree does not validate "
            f"({len(tree.problems)} problem(s)) and resolves nothing; "
            "run `majordomus context validate`"
        )


def _key(item: ContextDoc) -> tuple[int, int, str]:
    return item.depth, int(item.data["order"]), item.path


def explain(
    tree: Tree, rel: str, is_dir: bool, provider: str | None = None, audience: str | None = None
) -> list[Entry]:
    """Every document with its verdict for `rel`, in chain order; `applied` marks the chain."""
    require_valid(tree)
    entries = [_verdict(d, rel, is_dir, provider, audience) for d in sorted(tree.docs, key=_key)]
    applied = {e["id"] for e in entries if e["applied"]}
    for item in sorted(tree.docs, key=_key):
        if item.id in applied and item.data["composition"] == "replace":
            for gone in item.data.get("supersedes") or []:
                _supersede(entries, gone, item)
    return entries


def _supersede(entries: list[Entry], ident: str, by: ContextDoc) -> None:
    for entry in entries:
        if entry["id"] == ident and entry["applied"]:
            entry["applied"] = False
            entry["reason"] = f"superseded by {by.id} ({by.path}, composition replace)"


def resolve(
    tree: Tree, rel: str, is_dir: bool, provider: str | None = None, audience: str | None = None
) -> list[Entry]:
    return [e for e in explain(tree, rel, is_dir, provider, audience) if e["applied"]]


def _verdict(
    item: ContextDoc, rel: str, is_dir: bool, provider: str | None, audience: str | None
) -> Entry:
    data = item.data
    reason = None
    if data["status"] != "active":
        reason = f"status {data['status']}: listed, never applied"
    elif not covers(item, rel, is_dir):
        reason = f"scope {data['scope']} of {_reach(item)} does not reach {rel}"
    elif provider and "*" not in data["providers"] and provider not in data["providers"]:
        reason = f"providers {', '.join(data['providers'])} exclude {provider}"
    elif audience and audience not in data["audience"]:
        reason = f"audience {', '.join(data['audience'])} excludes {audience}"
    return {
        **record(item),
        "applied": reason is None,
        "reason": reason or f"scope {data['scope']} of {_reach(item)} reaches {rel}",
    }


def _reach(item: ContextDoc) -> str:
    if item.data["scope"] == "explicit":
        return ", ".join(item.data.get("paths") or [])
    return item.home


def record(item: ContextDoc) -> Entry:
    data = item.data
    return {
        "kind": "document",
        "id": item.id,
        "path": item.path,
        "line": 1,
        "home": item.home,
        "depth": item.depth,
        "order": data.get("order"),
        "scope": data.get("scope"),
        "composition": data.get("composition"),
        "status": data.get("status"),
        "title": data.get("title"),
    }
