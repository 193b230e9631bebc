"""The plan's listing views from a cache: `status`, `list`, `ready`, `blocked`, `waves`,
`graph` and `next` read `.ai/local/cache/plan-model.json` instead of parsing every issue file,
when git vouches that the files are the ones the cache was made from.

The key is `plan.views`' (BLAKE2b over the tree git records at HEAD for the plan's directory,
this tool's version, the manifest and the cache's format), which exists only when `git status`
reports nothing changed, staged or untracked under that directory, so what HEAD names is what
is on disk. Anything else — no cache, another key, a dirty plan, a cache that does not read —
parses the files as before and, when the plan is clean, writes the cache again (atomically,
0600). The cache holds each valid file's fields the listings read and the
model's problems; `show`, `body`, `validate` and every writer always read the files. A cache
is this checkout's own and could be written by anyone who can write `.ai/local/`: it only
ever shapes a listing, never a write or a verdict.
"""

from __future__ import annotations

import json

from mj_core.git import questions as git

from mj_policy.plan import model as planmodel
from mj_policy.plan import views as planviews

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_core.git.run import Pending

    from mj_policy.layer.loader import Layer

    Begun = tuple[Pending, str, bytes]  # the key's git questions, the section, the manifest

CACHED_VIEWS = ("status", "list", "ready", "blocked", "waves", "graph", "next")
KEPT = ("id", "milestone", "title", "priority", "parallel_safe", "scope", "depends_on",
        "evidence_required", "started_at", "verified_at", "completed_at", "cancelled", "order",
        "evidence")  # fmt: skip
NAME = "plan-model.json"


class Cached(planmodel.Item):
    """An item as the cache keeps it: the fields the listings read, and its path."""

    __slots__ = ("_fields",)

    def __init__(self, kind: str, path: str, data: dict[str, Any]) -> None:
        self.kind, self.path, self._fields = kind, path, data

    @property
    def data(self) -> dict[str, Any]:
        return self._fields

    def where(self, *path: str | int) -> str:
        return self.path  # listings never name a line: a defect is read from the files


def key(lay: Layer) -> str | None:
    """The cache key of the plan as git has it, or None when git cannot vouch for it."""
    return settled(begin(lay))


def begin(lay: Layer) -> Begun | None:
    """`key`'s git questions begun, answered by `settled` (None: the manifest does not read)."""
    section = lay.relative(lay.section("project"))
    try:
        manifest = planviews.manifest_bytes(lay.root)
    except OSError:
        return None
    return git.begin([(q, lay.root) for q in planviews.questions(section)]), section, manifest


def settled(begun: Begun | None) -> str | None:
    """The key from the questions `begin` began."""
    if begun is None:
        return None
    running, section, manifest = begun
    return planviews.key_of(running.wait(), section, manifest)[1]


def model(lay: Layer, wanted: str | None, *, store: bool = True) -> planmodel.Model:
    """The plan for a listing under the key `wanted` (`key`): from the cache when it holds,
    else parsed (and cached when there is a key and `store`: doctor only reads)."""
    target = lay.root / ".ai" / "local" / "cache" / NAME
    if wanted is not None:
        found = _model(_read(target), wanted)
        if found is not None:
            return found
    parsed = planmodel.load(lay)
    if wanted is not None and store:
        _write(lay, target, wanted, parsed)
    return parsed


def listed(lay: Layer, begun: Begun | None) -> tuple[planmodel.Model, str | None]:
    """`model` under the key `begin` began to ask, with the key: with no cache the files are
    parsed while git answers (a cache is taken only under the key git then gives)."""
    target = lay.root / ".ai" / "local" / "cache" / NAME
    try:
        kept = _read(target)
        parsed = planmodel.load(lay) if kept is None else None
    finally:
        wanted = settled(begun)  # git is reaped whatever the reading did
    found = _model(kept, wanted)
    if found is not None:
        return found, wanted
    if parsed is None:
        parsed = planmodel.load(lay)
    if wanted is not None:
        _write(lay, target, wanted, parsed)
    return parsed, wanted


def _read(target: Any) -> dict[str, Any] | None:
    """The cache as stored, or None when there is none that reads."""
    try:
        data = json.loads(target.read_bytes())
    except (OSError, ValueError):
        return None
    return data if type(data) is dict else None


def _model(data: dict[str, Any] | None, wanted: str | None) -> planmodel.Model | None:
    """The model the cache `data` holds under the key `wanted`, or None (parse the files)."""
    if data is None or wanted is None or data.get("key") != wanted:
        return None
    try:
        out = planmodel.Model(str(data["directory"]))
        out.project = data["project"]
        for kind, into in (("milestone", out.milestones), ("issue", out.issues)):
            for path, fields in data[kind]:
                into[str(fields["id"])] = Cached(kind, str(path), dict(fields))
        out.problems = [planmodel.Problem(*p) for p in data["problems"]]
    except (ValueError, KeyError, TypeError):
        return None  # a cache that does not read: parse the files
    return out


def _write(lay: Layer, target: Any, wanted: str, parsed: planmodel.Model) -> None:
    from mj_core.errors import MjError
    from mj_core.write import atomic

    def kept(item: Any) -> list[Any]:
        data = item.data
        return [item.path, {k: data[k] for k in KEPT if k in data}]

    data = {
        "key": wanted,
        "directory": parsed.directory,
        "project": parsed.project,
        "milestone": [kept(m) for m in parsed.milestones.values()],
        "issue": [kept(i) for i in parsed.issues.values()],
        "problems": [[p.cls, p.where, p.message] for p in parsed.problems],
    }
    try:
        text = json.dumps(data, separators=(",", ":"), default=str).encode()
        atomic.create(target, text, mode=0o600, replace=True, root=lay.root, durable=False)
    except (MjError, OSError):
        pass  # a cache that cannot be written is only a slower next run
