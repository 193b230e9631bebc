"""Where the layer's commands write outside `.ai/`, and what each makes of a file there.

`writers(layer, paths)` names, for each of `paths` that a command declares it writes, the
writers of that path: `majordomus update` (a target the projection plan holds now, or a stamped
rule or skill file the plan no longer holds, which update removes), `majordomus capture
install` (an adapter's shims and its settings file) and `majordomus mcp install` (a client's
MCP configuration). A writer's `after(text)` is the file as that command leaves it, given the
file as it was (None: no file; None back: the command removes it); `same(text)` is the text as
the command would leave it unchanged (a projection whose only difference is an outdated stamp).
Paths no command writes cost a comparison of strings; the plan is read only for a path that
could be one of its targets.
"""

from __future__ import annotations

from mj_core.errors import MjError

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterable

    from mj_policy.layer.loader import Layer
    from mj_policy.projection.render import Inputs
    from mj_policy.projection.render import Rendered
    from mj_policy.providers import Provider

    Text = str | None


def _unchanged(text: Text) -> Text:
    return text


class Writer:
    """One command's write of one path."""

    __slots__ = ("after", "command", "same")

    def __init__(
        self,
        command: str,
        after: Callable[[Text], Text],
        same: Callable[[Text], Text] = _unchanged,
    ) -> None:
        self.command = command
        self.after = after
        self.same = same


def writers(layer: Layer, paths: Iterable[str]) -> dict[str, list[Writer]]:
    """The writers of each of `paths` some command writes (paths no command writes are left out)."""
    wanted = list(paths)
    found: dict[str, list[Writer]] = {}
    for kind in (_capture, _mcp, _projections):
        for path, writer in kind(layer, wanted):
            found.setdefault(path, []).append(writer)
    return found


def _capture(layer: Layer, paths: list[str]) -> Iterable[tuple[str, Writer]]:
    """The shims and settings files of the hook adapters (the table alone is read until one of
    `paths` is one of them)."""
    from mj_policy.hooks.table import ADAPTERS

    for provider, adapter in ADAPTERS.items():
        events = {f"{adapter['hooks']}/{shim}": event
                  for event, (shim, _) in adapter["events"].items()}  # fmt: skip
        for path in paths:
            if path == adapter["settings"]:
                yield path, _settings(provider)
            elif path in events:
                yield path, _shim(provider, events[path])


def _settings(provider: str) -> Writer:
    """`capture install` writes the settings only where there are none."""
    from mj_policy.hooks import adapters as hookadapters

    text = hookadapters.settings_text(provider)

    def after(old: Text) -> Text:
        return text if old is None else old

    return Writer("majordomus capture install", after)


def _shim(provider: str, event: str) -> Writer:
    """`capture install` writes a shim naming the majordomus it runs as (this one); a shim it
    wrote naming this same file by another path, or asking PATH, is one it leaves alone."""
    from mj_core import self_exe as selfexe

    from mj_policy.hooks import adapters as hookadapters

    ours = selfexe.program()
    text = hookadapters.shim_text(provider, event, ours)

    def same(now: Text) -> Text:
        named = hookadapters.program_of(now or "")
        if now != hookadapters.shim_text(provider, event, named):
            return now
        return text if named is None or selfexe.same(named, ours or "") else now

    return Writer("majordomus capture install", lambda _: text, same)


def _mcp(layer: Layer, paths: list[str]) -> Iterable[tuple[str, Writer]]:
    """The MCP configuration files of the providers that have one (`hooks.mcp_wiring.clients`, read
    from the providers' table until one of `paths` is one of them)."""
    from mj_policy import providers

    for provider in providers.table().values():
        config = str((provider.data.get("mcp") or {}).get("config"))
        if provider.data.get("mcp") and config in paths:
            yield config, _configured(provider)


def _configured(provider: Provider) -> Writer:
    """`mcp install` adds the server's entry to the client's configuration."""
    from mj_policy.hooks import mcp_wiring as mcpwiring

    def after(old: Text) -> Text:
        return mcpwiring.written(provider, old)

    return Writer("majordomus mcp install", after)


def _projections(layer: Layer, paths: list[str]) -> Iterable[tuple[str, Writer]]:
    targets, folders = _places(layer)
    maybe = [p for p in paths if p in targets or p.startswith(folders) or _nested(p, targets)]
    if not maybe:
        return
    from mj_policy.projection import plan as projectionplan
    from mj_policy.projection import render as projections

    try:
        planned = {p.target: p for p in projectionplan.planned(layer)}
        data = projections.inputs(layer)
    except MjError:  # a layer update cannot render: nothing there is as it would write it
        planned, data = {}, None
    for path in maybe:
        projection = planned.get(path)
        if projection is None or data is None:
            removes = path.startswith(folders)
            yield path, Writer("majordomus update", _removed if removes else _unchanged)
            continue
        yield path, _update(projections.render(projection, data), data)


def _update(rendered: Rendered, data: Inputs) -> Writer:
    """`update` of one planned target: the file it makes of the old one; a file whose only
    difference from that is an outdated stamp is one it leaves as it is."""
    from mj_policy.projection import targets

    def after(old: Text) -> Text:
        try:
            return targets.judge(rendered, data.policy_file, old).new
        except MjError:  # region markers update refuses to touch
            return old

    def same(now: Text) -> Text:
        try:
            seen = targets.judge(rendered, data.policy_file, now)
        except MjError:
            return now
        return seen.new if now and seen.state in (targets.CURRENT, targets.RESTAMP) else now

    return Writer("majordomus update", after, same)


def _places(layer: Layer) -> tuple[set[str], tuple[str, ...]]:
    """The policy's declared targets (with the nested file names, as `/<name>`), and the rule
    and skill directories of their providers (as `<dir>/`)."""
    from mj_policy import providers

    targets: set[str] = set()
    folders: set[str] = set()
    for item in layer.policy.data.get("projections") or []:
        targets.add(str(item["target"]))
        known = providers.table().get(str(item["provider"]))
        if known is None:
            continue
        for where in (known.skills, (known.rules or {}).get("dir")):
            if where:
                folders.add(f"{where}/")
        if known.nested_at_start:
            targets.add(f"/{known.nested_at_start}")
    return targets, tuple(sorted(folders))


def _nested(path: str, targets: set[str]) -> bool:
    head, slash, name = path.rpartition("/")
    return bool(head) and f"{slash}{name}" in targets


def _removed(old: Text) -> Text:
    """A stamped rule or skill file no rule or skill projects any more: update removes it when
    it is as update wrote it (its content matches its stamp)."""
    from mj_policy.projection import stamps

    if old is None:
        return None
    split = stamps.read_file_stamp(old)
    intact = split.stamp is not None and split.stamp.content == stamps.content_hash(split.covered)
    return None if intact else old
