"""Whose state this is: the clone id `.ai/local` carries, bound to this checkout in git's config.

The state directory carries the clone's id (`.ai/local/remote/clone-id`, `c-<16 hex>`, the id
the remote work names its ledger by). The first `start` in a checkout binds it there (making
it when none is yet): `majordomus.<worktree id>.clone` in the repository's git config, a
place `.ai/local` is never copied with and `rm -rf .ai/local` does not reach. Judged here:
- bound, and the state carries the same id: this checkout's own state;
- bound, and the state carries none (the directory or its id removed): the state is gone;
- bound to another id: it came from another clone;
- not bound while the state carries an id: carried here (a moved checkout keeps its task, and
  no task of this checkout can hide behind it); the next `start` binds it;
- neither: nothing was ever started here under this rule.
Read with no git process (the config file and the id file; what the pre-push hook can
afford); written with `git config`. A worker who removes the binding as well as the state
leaves nothing here to see: that is for `verify`, which reads what the clone published.
"""

from __future__ import annotations

import os

from mj_core.findings import Finding

from mj_state.worktree_id import worktree_id

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

CLONE_ID = ".ai/local/remote/clone-id"
CATEGORY = "identity"


def key(worktree: str) -> str:
    return f"majordomus.{worktree}.clone"


def fact(root: Path) -> Record:
    """What the judge needs: this checkout's worktree id, the id the state carries (None when
    absent), the id git's config binds to this checkout (None when unbound)."""
    worktree = worktree_id(root)
    carried = _read(os.path.join(root, CLONE_ID))
    found = None if carried is None else carried.strip() or "(empty)"
    return {"kind": "fact", "fact": "state-identity", "worktree_id": worktree,
            "state": found, "bound": bound(root, worktree)}  # fmt: skip


def findings(told: Record) -> list[Finding]:
    """The judgement of a `state-identity` fact: one finding."""
    state, anchor = told.get("state"), told.get("bound")
    where = told.get("worktree_id") or "."
    repro = f"git config --get-regexp '^majordomus\\.'; cat {CLONE_ID} || echo 'no {CLONE_ID}'"
    if anchor is None and state is None:
        return [Finding("OK", CATEGORY, ".ai/local", "no state bound to this checkout yet")]
    if anchor == state:
        return [Finding("OK", CATEGORY, ".ai/local", f"this checkout's own state ({state})")]
    if anchor is None:  # carried here (a moved checkout keeps its task): nothing hidden here
        said = (f"the state carries clone id {state}, not yet bound to this checkout (carried "
                f"from another clone); the next `majordomus start` binds it")  # fmt: skip
        return [Finding("INFO", CATEGORY, ".ai/local", said, repro)]
    if state is None:
        said = (f"this checkout's state is gone: git's config binds {anchor} to it "
                f"({key(where)}), and {CLONE_ID} is missing")  # fmt: skip
    else:
        said = (f"the state came from another clone: it carries {state}, git's config binds "
                f"{anchor} to this checkout ({key(where)})")  # fmt: skip
    return [Finding("FAIL", CATEGORY, ".ai/local", said, repro)]


def bound(root: Path | str, worktree: str) -> str | None:
    """The id `majordomus.<worktree>.clone` holds in the repository's config file, read as git
    writes it (`[majordomus "<worktree>"]` then `clone = <id>`); None when there is none."""
    text = _read(os.path.join(_common(os.fspath(root)), "config"))
    if text is None:
        return None
    header = f'[majordomus "{worktree}"]'
    inside = False
    value = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            inside = line.lower().replace("\t", " ") == header.lower()
            continue
        name, _, rest = line.partition("=")
        if inside and name.strip().lower() == "clone":
            value = rest.strip().strip('"') or None  # the last one wins, as in git
    return value


def _common(root: str) -> str:
    """The repository's common git directory, from `.git` with no git process."""
    dotgit = os.path.join(root, ".git")
    if os.path.isdir(dotgit):
        return dotgit
    text = _read(dotgit) or ""
    named = text.strip().removeprefix("gitdir:").strip()
    gitdir = named if os.path.isabs(named) else os.path.join(root, named)
    pointer = _read(os.path.join(gitdir, "commondir"))
    return gitdir if pointer is None else os.path.join(gitdir, pointer.strip())


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(1 << 20)
    except OSError:
        return None


def bind(layer: Any) -> None:
    """Before a task starts: refuse (15) a state that is not this checkout's; bind the clone id
    the state carries (made now when there is none) to this checkout when it is unbound."""
    from mj_core.errors import Refused

    from mj_state.remote import clone

    told = fact(layer.root)
    bad = [f for f in findings(told) if f.level == "FAIL"]
    if bad:
        raise Refused(f"start: {bad[0].message} — see `{bad[0].reproduce}`")
    if told["bound"] is None:
        from mj_core.write import atomic

        atomic.make_dirs(layer.local / "remote", root=layer.root)  # a linked .ai/local: 15
        anchor(layer.root, clone.clone_id(layer))


def anchor(root: Path, ident: str) -> None:
    """Bind `ident` to this checkout in the repository's git config, unless one is bound."""
    from mj_core.errors import Refused
    from mj_core.git import questions as git

    worktree = worktree_id(root)
    if bound(root, worktree) is not None:
        return
    code, _, err = git.run("config", "--local", key(worktree), ident, cwd=root)
    if code != 0:
        raise Refused(f"cannot bind the state to this checkout ({key(worktree)}): {err.strip()}")
