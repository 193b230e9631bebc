"""The load receipt: every instruction file a provider's client loads when it works on the
given paths, in the order the table describes it assembling them, and what it does not load.

From the plan (`projection.plan.planned`: which file is whose, each rule file's paths) and the
table (share/providers.yaml), read against the files as they are on disk:

- `always`: the client's own target when it loads it into every conversation, the root files
  its row's `also_loads` names, and its always-loaded rule files (also those of a directory
  `also_loads` names);
- `import`: a file an `@path` line of a file the client loads brings in, for a client that
  expands them (followed five deep, as Claude Code does; of the files its row's
  `also_loads.imports` names only, for one that expands none in its own target);
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

from mj_core.stream.stage import Stage

from mj_policy import providers
from mj_policy.receipt import item

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.layer.loader import Layer
    from mj_policy.projection.render import Projection

    Record = dict[str, Any]

IMPORT_DEPTH = 5


def clients(planned: list[Projection]) -> list[str]:
    """The declared clients (every declared provider but the README), in the table's order."""
    named = {n for p in planned if _main(p) for n in p.providers} - {"readme"}
    return [name for name in providers.table() if name in named]


def receipt(
    layer: Layer,
    planned: list[Projection],
    client: str,
    paths: list[str],
    *,
    hand: bool = True,
    every: bool = True,
    table: bool = False,
) -> list[Record]:
    """`client`'s files in the order it assembles them: its own and the other providers' root
    files it loads, each followed by what its `@path` lines bring in, the always-loaded rule
    files, the nested files, the scoped rule files, skills, MCP configuration, then what it
    reads only on request. `hand=False` leaves out what no projection plans (the files
    written by hand, found by looking through the repository, and the rules read only on
    request) and reads no file, for a caller that asks only where the planned files reach;
    `every=False` leaves out the nested files and the rules read on request, for a caller that
    asks only what the client puts into every conversation; `table=True` gives what the text
    table shows: no item hashed, the rules read on request listed unread."""
    from mj_policy.projection import budgets

    known = providers.get(client)
    budget = int(layer.policy.data["context"]["always_loaded_budget_lines"])
    cap = budgets.client_limit(client, budget)
    shown = f"{cap.lines} lines ({cap.lines_from})"
    planned_targets = {p.target for p in planned}
    made = item.Maker(layer.root, known, shown, planned_targets, measure=hand, hashed=not table)
    for projection in planned:
        if _main(projection) and client in projection.providers:
            made.add(projection.target, "always" if known.always else "on-request")
    for target in known.also_targets:
        if (layer.root / target).is_file():
            made.add(target, "always", note="another provider's file, which this client also loads")
    scoped = _rule_files(made, planned, known)
    if hand:
        scoped += _hand_rules(made, known)
    if every:
        _nested(made, known, paths, planned if not hand else None)
    for target, globs in scoped:
        _scoped(made, target, globs, paths)
    importers = {str(n) for n in (known.data.get("also_loads") or {}).get("imports") or ()}
    if known.data.get("imports") or importers:
        _imports(made, None if known.data.get("imports") else importers)
    for projection in planned:
        skills = known.skills
        if projection.skill is not None and skills and projection.target.startswith(skills + "/"):
            made.add(projection.target, "skill-index")
    mcp = (known.data.get("mcp") or {}).get("config")
    if mcp and (layer.root / str(mcp)).is_file():
        made.add(str(mcp), "mcp")
    if hand and every:
        _on_request(made, layer, measured=not table)
    return made.records()


def _main(projection: Projection) -> bool:
    return projection.rule is None and projection.skill is None and projection.nested_in is None


def _rule_files(
    made: item.Maker, planned: list[Projection], known: providers.Provider
) -> list[tuple[str, list[str]]]:
    """The planned rule files the client reads: the always-loaded ones added, the scoped ones
    (file, globs) returned for later."""
    dirs = known.also_rule_dirs
    scoped = []
    for projection in planned:
        delivered = projection.rule
        if delivered is None:
            continue
        own = known.key in projection.providers
        if not own and not any(projection.target.startswith(d + "/") for d in dirs):
            continue
        if projection.always_loaded:
            made.add(projection.target, "always")
        else:
            scoped.append((projection.target, list(delivered.paths)))
    return scoped


def _hand_rules(made: item.Maker, known: providers.Provider) -> list[tuple[str, list[str]]]:
    """The rule files no projection plans, in the directories the client reads rules from,
    judged by their front matter; the scoped ones returned for later."""
    from mj_policy.receipt import hand as receipthand

    places = []
    if known.rules is not None:
        spec = known.rules
        places.append((str(spec["dir"]), str(spec["suffix"]), str(spec["front_matter"])))
    table = providers.table()
    for folder in known.also_rule_dirs:
        owner = next(
            (p.rules for p in table.values() if (p.rules or {}).get("dir") == folder), None
        )
        if owner is not None:
            places.append((folder, str(owner["suffix"]), str(owner["front_matter"])))
    scoped = []
    for folder, suffix, style in places:
        for name in receipthand.rule_files(made.root, folder, suffix, made.planned):
            text = (made.root / name).read_text(encoding="utf-8", errors="replace")
            why, globs = receipthand.scope(text, style)
            if why == "scoped":
                scoped.append((name, globs))
            elif why == "always":
                made.add(name, why)
            else:
                made.add(name, why, note="its front matter asks for it to be read only on request")
    return scoped


def _scoped(made: item.Maker, target: str, globs: list[str], paths: list[str]) -> None:
    glob, path = item.first_match(globs, paths)
    if glob is None:
        shown = ", ".join(globs) or "no glob"
        made.skip(target, "scoped", f"scoped to {shown}; no path asked about matches")
    else:
        made.add(target, "scoped", glob=glob, note=f"{glob} matches {path}")


def _imports(made: item.Maker, names: set[str] | None) -> None:
    """The `@path` lines of each loaded file (only of the files called one of `names`, when
    given: Copilot CLI expands those of AGENTS.md and CLAUDE.md alone), followed as the client
    follows them; each imported file is placed right after the file that imports it."""
    queue = [
        (str(record["path"]), 0)
        for record in made.loaded()
        if record["why"] != "mcp" and (names is None or record["path"].rpartition("/")[2] in names)
    ]
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
    made.imports_after_importers()


def _nested(
    made: item.Maker, known: providers.Provider, paths: list[str], planned: list[Projection] | None
) -> None:
    """Every nested file below the root (only the planned ones, when `planned` is given), of
    each name the client loads from subdirectories: loaded for a path asked about below its
    directory, else listed as not loaded."""
    under = set(item.directories(paths))
    when = "once it reads a file" if known.data.get("nested_when") == "read" else "when it starts"
    for name in known.nested_names:
        if planned is None:
            from mj_policy.receipt import hand as receipthand

            files = receipthand.nested_files(made.root, name)
        else:
            files = [p.target for p in planned if p.nested_in and p.target.endswith(f"/{name}")]
            files = [f for f in files if (made.root / f).is_file()]
        for found in files:
            directory = found.rpartition("/")[0]
            if directory in under:
                made.add(found, "nested", note=f"a path asked about is under {directory}/")
            else:
                said = f"loaded {when} under {directory}/; no path asked about is"
                made.skip(found, "nested", said)


def _on_request(made: item.Maker, layer: Layer, *, measured: bool) -> None:
    from mj_policy.rules import effective as rules

    said = "the bootstrap points at the rules directory"
    for rule in rules.effective(layer):
        if not rule.data.get("paths") and not rule.data.get("always_loaded"):
            made.add(rule.path, "on-request", note=said, measured=measured)


def run(
    layer: Layer, wanted: list[str], paths: list[str], *, every: bool = True, table: bool = False
) -> Iterator[Record]:
    """The receipts of `wanted` (every declared client when empty). The rule files are read
    through this checkout's parse cache (`mj_policy.layer.parse_cache`, kept by `update`: an entry
    is used only when its file's size and times are those recorded), never written here."""
    from mj_policy.layer import parse_cache as parsecache
    from mj_policy.projection import plan as projectionplan
    from mj_policy.rules import effective as rules

    # resolved once, through the cache; the plan and the rules read on request use this set
    layer.rules_resolved = rules.effective(layer, parsecache.Cache(layer, "rule"))
    planned = projectionplan.planned(layer)
    for client in wanted or clients(planned):
        yield from receipt(layer, planned, client, paths, every=every, table=table)


def _stage(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    """`mj-policy receipt [--format json|text] [--for PROVIDER] [--path PATH]…`: a provider
    the table does not know is 2; a path outside the repository is refused (15). The text form
    is what `majordomus receipt` shows: no sha256, the rules read on request unread."""
    from mj_core import paths as paths_mod
    from mj_core.errors import UsageError
    from mj_core.git import questions as git

    from mj_policy.layer import loader as layer_mod
    from mj_policy.receipt import hand as receipthand

    root = context.root()
    wanted = [options.provider] if options.provider else []
    for name in wanted:
        if name not in providers.table():
            raise UsageError(
                f"--for {name}: unknown provider — the providers are "
                f"{', '.join(providers.names())} ({providers.TABLE})"
            )
    table = providers.table()
    names = {n for key in wanted or table for n in table[key].nested_names}
    git.ahead([(receipthand.ls_args(n), root) for n in sorted(names)])  # git works meanwhile
    layer = layer_mod.load(root)
    asked = [paths_mod.relative_from_root(layer.root, p, what="--path") for p in options.path or []]
    yield from run(layer, wanted, asked, table=getattr(options, "format", "json") == "text")


STAGES = {"receipt": Stage(_stage)}
