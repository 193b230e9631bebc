"""The effective rule set: active vendored rules, then active project rules, resolved as a DAG.

Identity is the front matter's `id` + `version`, never the file name. Resolution fails closed
(10, nothing partial): bad or incomplete front matter, an unknown key, a missing dependency, a
dependency on a deprecated rule, a cycle, one `id@version` in two files, or a project rule in
the `majordomus.` namespace. Order is deterministic: dependencies first; otherwise vendored
rules in manifest order, then project rules in file-name order.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.yaml import strict as yamlstrict

from mj_policy.layer import loader as layer_mod
from mj_policy.rules import package as rulepkg
from mj_policy.rules.item import Rule

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_core.yaml.strict import Document

    from mj_policy.layer.loader import Layer
    from mj_policy.layer.parse_cache import Cache

RESERVED = "majordomus."


def _read(root: Path, path: Path, provenance: str, cache: Cache | None) -> Rule:
    shown = path.relative_to(root).as_posix()
    if cache is None:
        doc = _parsed(path, shown)
    else:
        from mj_policy.layer import parse_cache as parsecache

        now = parsecache.stamp(path)
        entry = cache.get(shown, now) if now is not None else None
        kept, _ = parsecache.restored(shown, entry) if entry is not None else (None, [])
        if kept is None:  # only a rule that passed is ever kept
            kept = _parsed(path, shown)
            if now is not None:
                cache.put(shown, now, parsecache.keep(kept, []))
        doc = kept
    return Rule(str(doc.data["id"]), int(doc.data["version"]), shown, provenance, doc.data)


def _parsed(path: Path, shown: str) -> Document:
    """The rule file's front matter, parsed strictly and held to the rule schema (10)."""
    from mj_core.schema import full as schema

    doc = layer_mod.close(rulepkg.front_matter(path, shown), "rule")
    problems = schema.quick_violations(doc, "rule")
    if problems:  # worded by jsonschema, imported only for a rule that is wrong
        for where, message in [*schema.violations(doc, "rule"), *problems][:1]:
            raise ContractUnmet(f"{where}: {message} — fix the rule's front matter")
    return doc


def vendored_files(package: Path) -> list[Path]:
    """A vendored package's rule files in manifest order; no manifest → 10."""
    manifest = package / rulepkg.MANIFEST
    shown = str(manifest)
    doc = yamlstrict.load_file(manifest, shown)
    entries = doc.data.get("rules") if isinstance(doc.data, dict) else None
    if not isinstance(entries, list):
        raise ContractUnmet(f"{doc.where(('rules',))}: the manifest lists no rules")
    return [package / str(entry.get("file")) for entry in entries if isinstance(entry, dict)]


def discover(layer: Layer, cache: Cache | None = None) -> list[Rule]:
    """Every rule file of the layer, parsed strictly, in base order (before resolution).

    `cache` (`mj_policy.layer.parse_cache`, kind `rule`) is for a writer only (`update`): what a
    judge reads is always parsed from the file, so a cache forged or gone wrong can make a
    write wrong, which `update --check` then fails, but never a verdict."""
    base = layer.section("rules")
    if not base.is_dir():
        raise MissingArtifact(
            f"{layer.relative(base)}/: no rules section — `majordomus init --extend`"
        )
    found: list[Rule] = []
    vendor = base / "vendor"
    packages = [p for p in vendor.iterdir() if p.is_dir()] if vendor.is_dir() else []
    for package in sorted(p for p in packages if not p.name.startswith(".")):
        for path in vendored_files(package):
            found.append(_read(layer.root, path, f"vendor:{package.name}", cache))
    project = base / "project"
    for path in sorted(project.rglob("*.md"), key=lambda p: p.name) if project.is_dir() else []:
        if path.name != "README.md":
            found.append(_read(layer.root, path, "project", cache))
    return found


def _check_identity(rules: list[Rule]) -> dict[str, Rule]:
    seen: dict[str, Rule] = {}
    for rule in rules:
        if rule.provenance == "project" and rule.id.startswith(RESERVED):
            raise ContractUnmet(
                f"{rule.path}:2: project rule id '{rule.id}' is in the reserved "
                f"'{RESERVED}' namespace — give it the 'project.' prefix"
            )
        if rule.key in seen:
            raise ContractUnmet(
                f"{rule.path}:2: {rule.key} is also declared by {seen[rule.key].path} — "
                "one id@version lives in one file"
            )
        seen[rule.key] = rule
    return seen


def _check_dependencies(rules: list[Rule], known: dict[str, Rule]) -> None:
    for rule in (r for r in rules if r.active):
        for dep in rule.data.get("depends_on") or []:
            target = known.get(str(dep))
            if target is None:
                raise ContractUnmet(f"{rule.path}: depends_on: {dep} — no rule declares it")
            if not target.active:
                raise ContractUnmet(
                    f"{rule.path}: depends_on: {dep} — that rule is deprecated ({target.path})"
                )


def resolve(rules: list[Rule]) -> list[Rule]:
    """The active rules, dependencies first; a cycle → 10 naming its members."""
    known = _check_identity(rules)
    _check_dependencies(rules, known)
    pending = [r for r in rules if r.active]
    placed: list[Rule] = []
    done: set[str] = set()
    while pending:
        ready = next(
            (r for r in pending if all(str(d) in done for d in r.data.get("depends_on") or [])),
            None,
        )
        if ready is None:
            members = ", ".join(r.key for r in pending)
            raise ContractUnmet(f"{pending[0].path}: depends_on: a cycle among {members}")
        placed.append(ready)
        done.add(ready.key)
        pending.remove(ready)
    return placed


def effective(layer: Layer, cache: Cache | None = None) -> list[Rule]:
    """The effective rule set, resolved once per loaded layer (a writer's run through the
    parse cache is resolved on its own: only a set read from the files is kept)."""
    if cache is None and layer.rules_resolved is not None:
        return list(layer.rules_resolved)
    found = resolve(discover(layer, cache))
    if cache is None:
        layer.rules_resolved = list(found)
    return found


def enforcement(rule: Rule) -> str:
    block = rule.data.get("x-majordomus")
    if isinstance(block, dict) and block.get("enforced_by"):
        return "enforced by " + ", ".join(str(c) for c in block["enforced_by"])
    return "no validator; see the rule"


def find(rules: list[Rule], wanted: str) -> Rule:
    for rule in rules:
        if wanted in (rule.id, rule.key):
            return rule
    raise MissingArtifact(f"{wanted}: no such rule in the effective set (`majordomus rules list`)")
