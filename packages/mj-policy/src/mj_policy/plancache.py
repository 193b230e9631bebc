"""The plan's listing views from a cache: `status`, `list`, `ready`, `blocked`, `waves`,
`graph` and `next` read `.ai/local/cache/plan-model.json` instead of parsing every issue file,
when git vouches that the files are the ones the cache was made from.

The key is `planviews`' (BLAKE2b over the tree git records at HEAD for the plan's directory,
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

from mj_core import git

from mj_policy import planmodel
from mj_policy import planviews

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from mj_policy.layer import Layer

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
    section = lay.relative(lay.section("project"))
    try:
        manifest = planviews.manifest_bytes(lay.root)
    except OSError:
        return None
    asked = git.run_many([(q, lay.root) for q in planviews.questions(section)])
    return planviews.key_of(asked, section, manifest)[1]


def model(lay: Layer, wanted: str | None, *, store: bool = True) -> planmodel.Model:
    """The plan for a listing under the key `wanted` (`key`): from the cache when it holds,
    else parsed (and cached when there is a key and `store`: doctor only reads)."""
    target = lay.root / ".ai" / "local" / "cache" / NAME
    if wanted is not None:
        found = _read(target, wanted, lay)
        if found is not None:
            return found
    parsed = planmodel.load(lay)
    if wanted is not None and store:
        _write(lay, target, wanted, parsed)
    return parsed


def _read(target: Any, wanted: str, lay: Layer) -> planmodel.Model | None:
    try:
        data = json.loads(target.read_bytes())
        if type(data) is not dict or data.get("key") != wanted:
            return None
        out = planmodel.Model(str(data["directory"]))
        out.project = data["project"]
        for kind, into in (("milestone", out.milestones), ("issue", out.issues)):
            for path, fields in data[kind]:
                into[str(fields["id"])] = Cached(kind, str(path), dict(fields))
        out.problems = [planmodel.Problem(*p) for p in data["problems"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None  # no cache, or one that does not read: parse the files
    return out


def _write(lay: Layer, target: Any, wanted: str, parsed: planmodel.Model) -> None:
    from mj_core import atomic
    from mj_core.errors import MjError

    def kept(item: Any) -> list[Any]:
        return [item.path, {k: item.data[k] for k in KEPT if k in item.data}]

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
