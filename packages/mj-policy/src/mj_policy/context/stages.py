"""`mj-policy context-*`: validate, list, resolve and explain the context documents."""

from __future__ import annotations

from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

from mj_policy.context import chain as contextchain
from mj_policy.context import tree as contexttree
from mj_policy.context.tree import settings
from mj_policy.layer import loader as layer_mod

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.context.tree import Tree

    Record = dict[str, Any]
REPRODUCE = "majordomus context validate"


def tree(root: Path) -> Tree:
    names, providers = settings(layer_mod.load(root))
    return contexttree.load(root, names, providers)


def findings(found: Tree) -> list[Finding]:
    if not found.problems:
        message = f"{len(found.docs)} context document(s) validate as one tree"
        return [Finding("OK", "context", ".ai", message)]
    return [Finding("FAIL", p.cls, p.where, p.message, REPRODUCE) for p in found.problems]


def _validate(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    for finding in findings(tree(context.root())):
        yield finding.record()


def _list(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    for item in sorted(tree(context.root()).docs, key=lambda d: (d.depth, d.path)):
        yield contextchain.record(item)


def _chain(options: argparse.Namespace, context: Context, everything: bool) -> Iterator[Record]:
    root = context.root()
    names, providers = settings(layer_mod.load(root))
    if options.provider and options.provider not in providers:
        known = ", ".join(sorted(providers)) or "none"
        raise UsageError(
            f"--provider {options.provider}: not in the policy's projections ({known})"
        )
    found = contexttree.load(root, names, providers)
    rel, is_dir = contextchain.target(root, options.path, context.cwd)
    show = contextchain.explain if everything else contextchain.resolve
    yield from show(found, rel, is_dir, options.provider, options.audience)


def _resolve(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    return _chain(options, context, everything=False)


def _explain(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    return _chain(options, context, everything=True)


STAGES = {
    "context-validate": Stage(_validate),
    "context-list": Stage(_list),
    "context-resolve": Stage(_resolve),
    "context-explain": Stage(_explain),
}
