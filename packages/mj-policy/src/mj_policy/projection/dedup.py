"""A client that also loads other providers' files (share/providers.yaml `also_loads`) is not
told twice what those files tell it, and is not handed a scoped rule in every conversation
where the file's own client can take it some other way.

In plan order, once the declared projections and their rules are planned:
1. A target whose providers all expand `@path` imports (GEMINI.md) and that another declared
   client loads although it scopes rules itself (GitHub Copilot) carries each scoped rule as
   an `@path` line to the rule's file: its own client expands it into the full text, the
   other sees one line and gets the rule scoped through its own rule file.
2. Sources: the declared main targets a client also loads whose own providers load nothing
   else (their text does not depend on this step) and that carry the bootstrap themselves.
   The client's own target, when it is its alone, carries a pointer to them instead of the
   bootstrap, and no rule a source carries in full.
3. The client's own always-loaded rule files for rules a source carries in full are not
   written (`update` removes one written before, as an orphan).
Scoped rule files are kept: they reach the client only where the rule applies.
"""

from __future__ import annotations

from mj_policy import providers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_policy.layer.loader import Layer
    from mj_policy.projection.render import Inputs
    from mj_policy.projection.render import Projection


def trim(layer: Layer, planned: list[Projection]) -> list[Projection]:
    table = providers.table()
    mains = [p for p in planned if _main(p)]
    declared = [n for n in table if any(n in p.providers for p in mains)]
    readers = {n: table[n] for n in declared if table[n].also_targets}
    if not readers:
        return planned
    for target in mains:
        _import_scoped(layer, target, readers)
    data: Inputs | None = None
    dropped: set[int] = set()
    for client, known in readers.items():
        sources = [p for p in mains if p.target in known.also_targets and _source(p, table)]
        sources = [p for p in sources if client not in p.providers]
        sources.sort(key=lambda p: known.also_targets.index(p.target))  # not the policy's order
        if not sources:
            continue
        if data is None:
            from mj_policy.projection import render as projections

            data = projections.inputs(layer)
        full = _carried_in_full(sources, data)
        for own in planned:
            if own.providers != (client,):
                continue
            if _main(own) and not own.imports:
                own.points_to = tuple(s.target for s in sources)
                own.inline = [r for r in own.inline if r.rule.key not in full]
            elif own.rule is not None and own.always_loaded and own.rule.rule.key in full:
                dropped.add(id(own))
    return [p for p in planned if id(p) not in dropped]


def _main(projection: Projection) -> bool:
    return projection.rule is None and projection.skill is None and projection.nested_in is None


def _source(projection: Projection, table: dict[str, providers.Provider]) -> bool:
    """A main target whose text does not depend on this step, carrying the bootstrap."""
    if projection.imports or "readme" in projection.providers:
        return False
    return not any(table[n].also_targets for n in projection.providers if n in table)


def _import_scoped(
    layer: Layer, target: Projection, readers: dict[str, providers.Provider]
) -> None:
    table = providers.table()
    own = [table.get(n) for n in target.providers]
    if not target.inline or not all(p is not None and p.data.get("imports") for p in own):
        return
    scoping = [
        n for n, p in readers.items()
        if n not in target.providers and target.target in p.also_targets and p.scoped
    ]  # fmt: skip
    if scoping:
        target.imported = {r.rule.key for r in target.inline if r.paths and not r.always}
        if not _imports_fit(layer, target):  # its own client reads each imported file whole
            target.imported = set()


def _imports_fit(layer: Layer, target: Projection) -> bool:
    """The target with its scoped rules imported, and the rule files it imports, fit the
    budget of each of its clients; else it carries them inline, as it would alone."""
    from mj_policy.projection import budgets
    from mj_policy.projection import render as projections

    data = projections.inputs(layer)
    rendered = projections.render(target, data)
    lines = rendered.generated.count("\n") + (2 if target.mode == "region" else 1)
    files = {r.rule.key: r.rule.path for r in target.inline}
    for key, form in rendered.forms.items():
        path = layer.root / files[key]
        if form == "import" and path.is_file():
            lines += path.read_bytes().count(b"\n")
    caps = [budgets.client_limit(name, data.budget_lines).lines for name in target.providers]
    return lines <= min(caps)


def _carried_in_full(sources: list[Projection], data: Inputs) -> set[str]:
    from mj_policy.projection import render as projections

    full: set[str] = set()
    for source in sources:
        forms = projections.render(source, data).forms
        full |= {key for key, form in forms.items() if form == "full"}
    return full
