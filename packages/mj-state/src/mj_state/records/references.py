"""Whether a reference (`<kind>:<value>`) names something that is there (SCHEMAS: every
reference of a decision or knowledge record resolves).

A decision resolves by its title in `state/decisions.md`, or by the task it was recorded under
(the `Task:` of an entry, or a `decision.recorded` ledger line); a task by its `task.started`
ledger line, its record or its archived copy; a session by its closed record (the archive
included), its open file or a ledger line it stamped; a commit when git holds that commit
object (`git cat-file --batch-check`, hex only: a ref name moves); a file or test when git's
index holds that path or something below it; an issue or milestone by its plan file; an ADR,
a knowledge record, a rule or a skill by its file in the layer. Any other kind, and
`decision:none` or `task:none`, resolves to nothing. Each store is read once, and only when a
reference asks it.
"""

from __future__ import annotations

import re

from mj_state.records.reference_stores import STORES

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterable
    from pathlib import Path

    from mj_policy.layer.loader import Layer

KINDS = ("decision", "task", "session", "commit", "file", "test", "issue", "milestone", "adr",
         "knowledge", "rule", "skill")  # fmt: skip
_HEX = re.compile(r"^[0-9a-f]{4,40}$")


class World:
    """The stores a reference may name, each read on first need."""

    def __init__(self, lay: Layer) -> None:
        self.lay = lay
        self.root = lay.root
        self._held: dict[str, set[str]] = {}
        self._commits: dict[str, bool] = {}
        self._paths: dict[str, bool] = {}

    def prepare(self, refs: Iterable[str]) -> None:
        """Ask git about every commit and path among `refs` in one call each."""
        commits, paths = set(), set()
        for ref in refs:
            kind, _, value = ref.partition(":")
            if kind == "commit" and _HEX.match(value) and value not in self._commits:
                commits.add(value)
            elif kind in ("file", "test") and value and value not in self._paths:
                paths.add(value.rstrip("/"))
        self._commits.update(_commits(self.root, sorted(commits)))
        self._paths.update(_indexed(self.root, sorted(paths)))

    def why_not(self, ref: str) -> str | None:
        """None when `ref` resolves; else what was looked for, and where."""
        kind, _, value = ref.partition(":")
        if kind not in KINDS:
            return f"'{kind}' is not a kind of reference ({', '.join(KINDS)})"
        if not value or value == "none":
            return f"{kind}:{value} names nothing"
        if kind == "commit" or kind in ("file", "test"):
            self.prepare([ref])
            if kind == "commit":
                return None if self._commits.get(value) else f"no commit {value} in git"
            return None if self._paths.get(value.rstrip("/")) else f"no {value} in git's index"
        look, where = STORES[kind]
        return None if value in self._store(kind, look) else f"no {kind} {value} in {where}"

    def _store(self, kind: str, look: Callable[[Layer], set[str]]) -> set[str]:
        if kind not in self._held:
            self._held[kind] = look(self.lay)
        return self._held[kind]


def _commits(root: Path, wanted: list[str]) -> dict[str, bool]:
    if not wanted:
        return {}
    from mj_core.git import stdin as gitstdin

    data = "".join(f"{sha}^{{commit}}\n" for sha in wanted).encode()
    code, out, _ = gitstdin.run("cat-file", "--batch-check", data=data, cwd=root)
    answers = out.decode("utf-8", "replace").split("\n") if code == 0 else []
    return {sha: i < len(answers) and answers[i].split(" ")[1:2] == ["commit"]
            for i, sha in enumerate(wanted)}  # fmt: skip


def _indexed(root: Path, wanted: list[str]) -> dict[str, bool]:
    if not wanted:
        return {}
    from mj_core.git import questions as git

    code, out, _ = git.run("ls-files", "-z", "--", *(f":(literal){p}" for p in wanted), cwd=root)
    listed = git.zsplit(out) if code == 0 else []
    return {p: any(f == p or f.startswith(p + "/") for f in listed) for p in wanted}
