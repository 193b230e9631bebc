"""`mj-policy facts`: the layer as `fact` records, read once, judged by none of this code.

`files`: the manifest, each path a manifest section names, the policy, the profiles and the
rule packages (with their hashes), each described as it is on disk; `layer`: whether the
layer loads, and why not; `targets`: each declared projection target as a write would find it
(`layer.target_facts`); `tests`: each test file a project rule names, and whether it is there.
`mcp`: each MCP client configuration there is, and whether it starts `majordomus mcp`.
`mj-watch facts --for doctor` passes these on and adds what git and this checkout's state say;
`mj-watch doctor` judges them all; `mj-watch doctrine` reads them alone.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.stream.stage import Stage

from mj_policy.hooks import mcp_wiring as mcpwiring
from mj_policy.layer import files as layerfiles
from mj_policy.layer import loader as layer_mod
from mj_policy.layer import target_facts as targetfacts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_core.yaml.strict import Document

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def gather(root: Path) -> Iterator[Record]:
    """The `files`, `layer`, `targets`, `tests` and `context` facts of the layer at `root`; 12
    without one."""
    if not (root / layer_mod.MANIFEST).exists():
        raise layer_mod.absent(root)
    from mj_core.git import questions as git

    from mj_policy.context.docs import LAYER_FILES

    git.ahead([(LAYER_FILES, root)])  # the context fact's question, answered while we read
    lay, problem = load(root)
    _HANDED[root] = lay
    entries = layer_files(root)
    yield {"kind": "fact", "fact": "files", "entries": entries}
    yield {"kind": "fact", "fact": "layer", "loads": lay is not None, "problem": problem}
    yield targetfacts.gather(root, lay)
    yield {"kind": "fact", "fact": "tests", "named": _named_tests(root, entries)}
    yield context_fact(root, lay, problem)
    yield mcpwiring.fact(root)


def context_fact(root: Path, lay: Layer | None, problem: str | None) -> Record:
    """The `context` fact: the context documents (`.ai/**/README.md`) read as one tree, and
    every problem `context validate` would name (class, where, message); a layer that does not
    load says why nothing was read."""
    if lay is None:
        why = problem or "the layer does not load"
        return {"kind": "fact", "fact": "context", "documents": 0, "problems": [], "skipped": why}
    from mj_policy.context import tree as contexttree

    names, providers = contexttree.settings(lay)
    tree = contexttree.load(root, names, providers)
    found = [[p.cls, p.where, p.message] for p in tree.problems]
    return {"kind": "fact", "fact": "context", "documents": len(tree.docs), "problems": found,
            "skipped": None}  # fmt: skip


_HANDED: dict[Path, Layer | None] = {}  # a layer loaded by `gather` in this process, once


def handed_on(root: Path) -> Layer | None:
    """The layer `gather` loaded at `root` in this process (taken once: the next stage of an
    in-process pipeline does not load it again), else loaded now; None when it does not load."""
    if root in _HANDED:
        return _HANDED.pop(root)
    return load(root)[0]


def _named_tests(root: Path, entries: dict[str, Record]) -> dict[str, bool]:
    """Each test file a project rule names (`x-majordomus.tests`), and whether it is a file.
    A rule whose front matter does not parse names none here (the rules' judges report it)."""
    from mj_core.yaml import strict as yamlstrict

    named: dict[str, bool] = {}
    for relative, entry in sorted(entries.items()):
        if "/rules/project/" not in relative or not relative.endswith(".md"):
            continue
        text = entry.get("text")
        try:
            doc = (
                yamlstrict.split_front_matter(text, relative)[0] if isinstance(text, str) else None
            )
        except MjError:
            continue
        block = (
            doc.data.get("x-majordomus") if doc is not None and isinstance(doc.data, dict) else None
        )
        tests = block.get("tests") if isinstance(block, dict) else None
        for test in tests if isinstance(tests, list) else []:
            if isinstance(test, str) and test:
                named[test] = (root / test).is_file()
    return named


def load(root: Path) -> tuple[Layer | None, str | None]:
    """The loaded layer, or why it does not load."""
    try:
        return layer_mod.load(root), None
    except MjError as exc:
        return None, exc.message


def layer_files(root: Path) -> dict[str, Record]:
    """The manifest, every section's path, the policy, the profiles and the rule packages."""
    entries = {layer_mod.MANIFEST: layerfiles.describe(root, layer_mod.MANIFEST)}
    manifest = manifest_of(entries)
    if manifest is not None:
        entries.update(_sections(root, manifest))
    policy = layerfiles.section(manifest, "policy", "repo/policy.yaml")
    entries.setdefault(policy, layerfiles.describe(root, policy))
    profiles = layerfiles.section(manifest, "profiles", "repo/profiles")
    entries.update(layerfiles.tree(root, profiles))
    rules = layerfiles.section(manifest, "rules", "repo/rules")
    entries.update(layerfiles.tree(root, rules, hashed=True))
    return entries


def _sections(root: Path, manifest: Document) -> dict[str, Record]:
    """Each path a manifest section names, described (a section that names none is skipped)."""
    found: dict[str, Record] = {}
    sections = manifest.data.get("sections")
    for name in sections if isinstance(sections, dict) else ():
        try:
            relative = f".ai/{layer_mod.section_value(manifest, name)}"
        except MjError:
            continue
        found.setdefault(relative, layerfiles.describe(root, relative))
    return found


def manifest_of(entries: dict[str, Record]) -> Document | None:
    """The manifest parsed from its `files` entry (None when it does not parse)."""
    from mj_core.yaml import strict as yamlstrict

    entry = entries.get(layer_mod.MANIFEST)
    text = entry.get("text") if isinstance(entry, dict) else None
    if not isinstance(text, str):
        return None
    known = layer_mod.admitted(text, layer_mod.MANIFEST)  # loaded in this process already
    if known is not None:
        return known[1]
    try:
        doc = yamlstrict.parse(text, layer_mod.MANIFEST)
    except MjError:
        return None
    return doc if isinstance(doc.data, dict) else None


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    return gather(context.root())


STAGES = {"facts": Stage(_run)}
