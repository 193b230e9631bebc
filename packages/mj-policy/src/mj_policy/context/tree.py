"""The context tree as a whole: cross-document rules, the contract directories owe, coverage.

`load(root, names, providers)` reads every candidate once and returns the documents with every
problem found. A tree with problems resolves nothing (`context.chain` refuses it).
"""

from __future__ import annotations

import posixpath

from mj_core.paths import within

from mj_policy.context.docs import Problem
from mj_policy.context.docs import candidates
from mj_policy.context.docs import layer_files
from mj_policy.context.docs import read

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.context.docs import ContextDoc
    from mj_policy.layer.loader import Layer


DOCUMENTS = ["README.md"]  # the context documents of a manifest that names none


def settings(lay: Layer) -> tuple[tuple[str, ...], frozenset[str]]:
    """(document file names from the manifest, provider names from the policy's projections);
    a manifest without `context` names `README.md`, as the skeleton's does."""
    names = tuple((lay.manifest.data.get("context") or {"documents": DOCUMENTS})["documents"])
    projections = lay.policy.data.get("projections") or []
    return names, frozenset(str(p["provider"]) for p in projections)


class Tree:
    """Every context document read, and every problem found over the whole tree."""

    __slots__ = ("docs", "problems")

    def __init__(self, docs: list[ContextDoc], problems: list[Problem]) -> None:
        self.docs = docs
        self.problems = problems

    def by_id(self) -> dict[str, ContextDoc]:
        return {d.id: d for d in self.docs if isinstance(d.data.get("id"), str)}


def load(root: Path, names: tuple[str, ...], providers: frozenset[str]) -> Tree:
    files = layer_files(root)
    docs: list[ContextDoc] = []
    problems: list[Problem] = []
    bare: set[str] = set()  # candidates without any front matter
    for path in candidates(files, names):
        found, own = read(root, path)
        problems += own
        if found is not None:
            docs.append(found)
        elif not own and (root / path).exists():
            bare.add(path)
    problems += _cross(root, docs, providers)
    problems += _owed(files, docs, bare, names)
    return Tree(docs, problems)


def covers(item: ContextDoc, target: str, is_dir: bool) -> bool:
    """Whether `item`'s scope reaches `target` (a repository-relative path)."""
    scope = item.data.get("scope")
    if scope == "subtree":
        return within(target, item.home)
    if scope == "directory":
        parent = posixpath.dirname(target) or "."
        return target == item.home or (not is_dir and parent == item.home)
    if scope == "explicit":
        return any(within(target, str(p)) for p in item.data.get("paths") or [])
    return False


def ancestors(item: ContextDoc, docs: list[ContextDoc]) -> list[ContextDoc]:
    """The documents above `item` whose scope reaches its directory: its ancestor chain."""
    return [d for d in docs if d.depth < item.depth and covers(d, item.home, True)]


def _cross(root: Path, docs: list[ContextDoc], providers: frozenset[str]) -> list[Problem]:
    problems: list[Problem] = []
    first: dict[str, ContextDoc] = {}
    for item in docs:
        ident = item.data.get("id")
        if isinstance(ident, str):
            if ident in first:
                message = f"id '{ident}' is already declared by {first[ident].where('id')}"
                problems.append(Problem("duplicate-id", item.where("id"), message))
            first.setdefault(ident, item)
        problems += _providers(item, providers)
        problems += _explicit_paths(root, item)
    for item in docs:
        problems += _supersedes(item, first, docs)
    return problems


def _providers(item: ContextDoc, providers: frozenset[str]) -> list[Problem]:
    known = ", ".join(sorted(providers)) or "none"
    return [
        Problem(
            "unknown-provider",
            item.where("providers"),
            f"provider '{name}' is not in the "
            f"policy's projections ({known}); use '*' or one of them",
        )
        for name in item.data.get("providers") or []
        if isinstance(name, str) and name != "*" and name not in providers
    ]


def _explicit_paths(root: Path, item: ContextDoc) -> list[Problem]:
    if item.data.get("scope") != "explicit" or not isinstance(item.data.get("paths"), list):
        return []
    return [
        Problem("broken-reference", item.where("paths"), f"paths: '{p}' is not a directory here")
        for p in item.data["paths"]
        if isinstance(p, str) and not (root / p).is_dir()
    ]


def _supersedes(
    item: ContextDoc, ids: dict[str, ContextDoc], docs: list[ContextDoc]
) -> list[Problem]:
    named = item.data.get("supersedes") or []
    if not isinstance(named, list) or not named:
        return []
    where = item.where("supersedes")
    if item.data.get("composition") != "replace":
        composition = item.data.get("composition")
        message = f"supersedes is for composition replace only, this one is {composition}"
        return [Problem("illegal-override", where, message)]
    chain = {d.id for d in ancestors(item, docs)}
    problems: list[Problem] = []
    for ident in named:
        target = ids.get(str(ident))
        if ident == item.data.get("id"):
            problems.append(Problem("cycle", where, f"'{ident}' supersedes itself"))
        elif target is None:
            problems.append(Problem("broken-reference", where, f"supersedes '{ident}': no such id"))
        elif ident not in chain:
            problems.append(
                Problem(
                    "illegal-override",
                    where,
                    f"'{ident}' ({target.path}) is not in this document's ancestor chain",
                )
            )
        elif target.data.get("composition") == "final":
            problems.append(
                Problem("illegal-override", where, f"'{ident}' is final and cannot be superseded")
            )
    return problems


def _owed(
    files: list[str], docs: list[ContextDoc], bare: set[str], names: tuple[str, ...]
) -> list[Problem]:
    """Each layer directory owes a context document unless an ancestor waives or exempts it."""
    carried = {posixpath.dirname(d.path) for d in docs}
    problems: list[Problem] = []
    for directory in _directories(files):
        if directory in carried or not _owes(directory, docs):
            continue
        present = [f"{directory}/{n}" for n in names if f"{directory}/{n}" in bare]
        if present:
            message = "carries no context/v1 front matter, and this directory owes one"
            problems.append(Problem("invalid-front-matter", f"{present[0]}:1", message))
        else:
            message = f"no {names[0]} with context/v1 front matter; an ancestor requires one"
            problems.append(Problem("missing-contract", directory, message))
    return problems


def _directories(files: list[str]) -> list[str]:
    found: set[str] = set()
    for path in files:
        directory = posixpath.dirname(path)
        while directory and directory not in found:
            found.add(directory)
            directory = posixpath.dirname(directory)
    return sorted(found)


def _owes(directory: str, docs: list[ContextDoc]) -> bool:
    """Exempt by any document above → no; else the nearest that declares `children` decides."""
    above = [d for d in docs if d.data.get("scope") == "subtree" and _strictly_above(d, directory)]
    declared = [(d, d.data["children"]) for d in above if isinstance(d.data.get("children"), dict)]
    for item, children in declared:
        base = posixpath.dirname(item.path)
        exempt = children.get("exempt") or []
        if any(within(directory, f"{base}/{e}") for e in exempt if isinstance(e, str)):
            return False
    for _, children in sorted(declared, key=lambda pair: -pair[0].depth):
        return bool(children.get("require_contract", True))
    return True


def _strictly_above(item: ContextDoc, directory: str) -> bool:
    base = posixpath.dirname(item.path)
    return directory != base and within(directory, base)
