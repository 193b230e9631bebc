"""The load receipt: every instruction file a provider's client loads when it works on the
given paths, in the order the table describes it assembling them, and what it does not load.

From the plan (`projectionplan.planned`: which file is whose, each rule file's paths) and the
table (share/providers.yaml), read against the files as they are on disk:

- `always`: the client's own target when it loads it into every conversation, the root files
  its row's `also_loads` names, and its always-loaded rule files (also those of a directory
  `also_loads` names);
- `import`: a file an `@path` line of a file the client loads brings in, for a client that
  expands them (followed five deep, as Claude Code does);
- `nested`: the nested file (Codex's `AGENTS.md`) of each directory from the root down to a
  path asked about;
- `scoped`: a rule file scoped to globs, loaded only when one matches a path asked about;
- `skill-index`: a skill file (the client lists its name and description, and reads the rest
  when it uses the skill); `mcp`: the client's MCP server configuration;
- `on-request`: a target its client reads only when pointed at it, and each rule that
  declares neither `paths` nor `always_loaded` (the bootstrap points at the rules directory).

Each item is a `load` record (share/schemas/pipeline/load.json). A scoped rule file no path
matches, and a planned file that is missing, are listed with `loaded: false` and the reason.
"""

from __future__ import annotations

from mj_core.stage import Stage

from mj_policy import providers
from mj_policy import receiptitem as item

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stage import Context

    from mj_policy.layer import Layer
    from mj_policy.projections import Projection

    Record = dict[str, Any]

IMPORT_DEPTH = 5


def clients(planned: list[Projection]) -> list[str]:
    """The declared clients (every declared provider but the README), in the table's order."""
    named = {n for p in planned if _main(p) for n in p.providers} - {"readme"}
    return [name for name in providers.table() if name in named]


def receipt(layer: Layer, planned: list[Projection], client: str, paths: list[str]) -> list[Record]:
    from mj_policy import budgets

    known = providers.get(client)
    budget = int(layer.policy.data["context"]["always_loaded_budget_lines"])
    cap = budgets.client_limit(client, budget)
    made = item.Maker(layer.root, known, f"{cap.lines} lines ({cap.lines_from})")
    for projection in planned:
        if _main(projection) and client in projection.providers:
            made.add(projection.target, "always" if known.always else "on-request")
    for target in known.also_targets:
        if (layer.root / target).is_file():
            made.add(target, "always", note="another provider's file, which this client also loads")
    _rule_files(made, planned, known, paths)
    if known.data.get("imports"):
        _imports(made)
    _nested(made, known, paths)
    for projection in planned:
        skills = known.skills
        if projection.skill is not None and skills and projection.target.startswith(skills + "/"):
            made.add(projection.target, "skill-index")
    mcp = (known.data.get("mcp") or {}).get("config")
    if mcp and (layer.root / str(mcp)).is_file():
        made.add(str(mcp), "mcp")
    _on_request(made, layer)
    return made.records()


def _main(projection: Projection) -> bool:
    return projection.rule is None and projection.skill is None and projection.nested_in is None


def _rule_files(
    made: item.Maker, planned: list[Projection], known: providers.Provider, paths: list[str]
) -> None:
    dirs = known.also_rule_dirs
    for projection in planned:
        delivered = projection.rule
        if delivered is None:
            continue
        own = known.key in projection.providers
        if not own and not any(projection.target.startswith(d + "/") for d in dirs):
            continue
        if projection.always_loaded:
            made.add(projection.target, "always")
            continue
        glob, path = item.first_match(delivered.paths, paths)
        if glob is None:
            shown = ", ".join(delivered.paths)
            made.skip(
                projection.target, "scoped", f"scoped to {shown}; no path asked about matches"
            )
        else:
            made.add(projection.target, "scoped", glob=glob, note=f"{glob} matches {path}")


def _imports(made: item.Maker) -> None:
    """The `@path` lines of each loaded file, followed as the client follows them."""
    queue = [(record["path"], 0) for record in made.loaded() if record["why"] != "mcp"]
    seen = {path for path, _ in queue}
    while queue:
        source, depth = queue.pop(0)
        if depth >= IMPORT_DEPTH:
            continue
        for target in item.imports_of(made.root, source):
            if target in seen:
                continue
            seen.add(target)
            made.add(target, "import", source=source)
            queue.append((target, depth + 1))


def _nested(made: item.Maker, known: providers.Provider, paths: list[str]) -> None:
    name = known.nested
    if name is None:
        return
    for directory in item.directories(paths):
        if (made.root / directory / name).is_file():
            made.add(
                f"{directory}/{name}", "nested", note=f"a path asked about is under {directory}/"
            )


def _on_request(made: item.Maker, layer: Layer) -> None:
    from mj_policy import rules

    for rule in rules.effective(layer):
        if not rule.data.get("paths") and not rule.data.get("always_loaded"):
            made.add(rule.path, "on-request", note="the bootstrap points at the rules directory")


def run(layer: Layer, wanted: list[str], paths: list[str]) -> Iterator[Record]:
    from mj_policy import projectionplan

    planned = projectionplan.planned(layer)
    for client in wanted or clients(planned):
        yield from receipt(layer, planned, client, paths)


def _stage(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    """`mj-policy receipt [--for PROVIDER] [--path PATH]…`: a provider the table does not know
    is 2; a path outside the repository is refused (15)."""
    from mj_core import paths as paths_mod
    from mj_core.errors import UsageError

    from mj_policy import layer as layer_mod

    layer = layer_mod.load(context.root())
    wanted = [options.provider] if options.provider else []
    for name in wanted:
        if name not in providers.table():
            raise UsageError(
                f"--for {name}: unknown provider — the providers are "
                f"{', '.join(providers.names())} ({providers.TABLE})"
            )
    asked = [paths_mod.relative_from_root(layer.root, p, what="--path") for p in options.path or []]
    yield from run(layer, wanted, asked)


STAGES = {"receipt": Stage(_stage)}
