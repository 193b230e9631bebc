"""`mj-state verify-facts`: what `verify` judges, gathered from git alone.

`verify-range`: the base and head (`--base` defaults to the merge base with the default
branch, `--head` to HEAD), and each commit of `base..head`, oldest first, with its parents, its
tree and the paths it changes (a merge: those it changes relative to every parent — what the
merge itself brings in, an evil merge or a conflict resolution; a path it takes as one parent
had it is that parent's commits' change). `verify-policy`: the policy as `base` holds it,
loaded through the layer's own strict reader from a throw-away copy of `base`'s `.ai/`: the
pinned verification commands, their timeout, `verify.require_task` and `verify.require_hooks`.
`verify-ledgers`: every clone's published ledger and every claim under `refs/majordomus/` of
this repository (CI fetches them: `git fetch origin 'refs/majordomus/*:refs/majordomus/*'`),
read by `published`. `verify-witness` (with `--witness FILE`): what the remote held when an
earlier run judged `base`, as that run recorded it (`witness`). Nothing published for a range
that changes files is 12.
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path

from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.errors import UsageError
from mj_core.git import questions as git
from mj_core.stream.stage import Stage

from mj_state.verifyfacts import published
from mj_state.verifyfacts import snapshot
from mj_state.verifyfacts import witness

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

DEFAULTS = ("refs/remotes/origin/HEAD", "refs/remotes/origin/main", "refs/heads/main",
            "refs/remotes/origin/master", "refs/heads/master")  # fmt: skip


def fact(which: str, /, **fields: Any) -> Record:
    return {"kind": "fact", "fact": which, **fields}


def resolve(root: Path, rev: str, what: str) -> str:
    found = git.out(
        "rev-parse", "--verify", "-q", "--end-of-options", f"{rev}^{{commit}}", cwd=root
    )
    if not found:
        raise UsageError(f"verify: {what} {rev!r} names no commit of this repository")
    return found


def default_base(root: Path, head: str) -> str:
    for ref in DEFAULTS:
        if git.out("rev-parse", "--verify", "-q", ref, cwd=root):
            base = git.out("merge-base", ref, head, cwd=root)
            if base:
                return base
    raise UsageError("verify: no default branch to take the merge base with — name it: --base REV")


def commits(root: Path, base: str, head: str) -> list[Record]:
    fmt = "--format=%x1e%H %P%x1f%T"
    code, out, err = git.run("log", "--reverse", "--no-renames", "--name-only", "-c", "-z", fmt,
                             f"{base}..{head}", cwd=root)  # fmt: skip
    if code != 0:
        raise MissingArtifact(f"verify: git cannot list {base}..{head}: {err.strip()}")
    found = []
    for chunk in out.split("\x1e")[1:]:
        header, _, rest = chunk.partition("\0")
        ids, _, tree = header.partition("\x1f")
        commit, *parents = ids.split()
        paths = [p for p in rest.lstrip("\n").split("\0") if p]
        found.append({"commit": commit, "parents": parents, "tree": tree, "paths": paths})
    return found


def base_policy(root: Path, base: str) -> Record:
    from mj_policy.layer.loader import load

    from mj_state.finish import verification as verifying

    with tempfile.TemporaryDirectory(prefix="mj-verify-base-") as scratch:
        copy = snapshot.lay_out(root, base, Path(scratch) / "base", under=".ai")
        try:
            data = load(copy).policy.data
        except MissingArtifact:
            raise MissingArtifact(
                f"verify: the base {base[:12]} holds no Majordomus layer, and verify judges with "
                "the base's policy — name a base where the layer is adopted: --base REV"
            ) from None
        except MjError as exc:  # the base's policy itself is malformed: named as git holds it
            said = exc.message.replace(f"{copy}/", "").replace(str(copy), "")
            raise MjError(f"verify: the base {base[:12]}'s {said}", exc.code) from None
    pinned = verifying.pinned(data)
    block = data.get("verify") or {}
    return {
        "commands": [shlex.join(a) for a in pinned] if pinned is not None else None,
        "timeout": verifying.timeout(data),
        "allow_paths": verifying.allow_paths(data),
        "require_task": bool(block.get("require_task", True)),
        "require_hooks": block.get("require_hooks") is True,
        "pre_commit": pre_commit(data),
        "allowed": [".ai"],
    }


def pre_commit(policy: Record) -> str:
    """What the policy's pre-commit hook leaves for CI: `records` (an entry runs
    `doctor --commit`, which records each pass), `silent` (one is declared, none records) or
    `none` (no pre-commit hook is declared)."""
    found = "none"
    for entry in policy.get("enforcement") or []:
        wired = str(entry.get("wired_by") or "") if type(entry) is dict else ""
        if wired != "git-hook:pre-commit" and not wired.startswith("pre-commit:"):
            continue
        args = [str(a) for a in entry.get("args") or []]
        if args[:1] == ["doctor"] and "--commit" in args:
            return "records"
        found = "silent"
    return found


def starts(root: Path, base: str, listed: list[Record], ledgers: list[Record]) -> Record:
    """Where each task started or finished, as the range sees it: the head's place in the range
    (0 is the first commit), -1 at `base` or before it, absent when neither (another line of
    history)."""
    place = {c["commit"]: index for index, c in enumerate(listed)}
    found: Record = {}
    rows = [r for led in ledgers for r in (*led["started"], *led["finished"], *led["unjudged"])]
    for head in {str(r["head"]) for r in rows if r["head"]}:
        if head in place:
            found[head] = place[head]
        elif head == base or git.is_ancestor(root, head, base):
            found[head] = -1
    return found


def gather(
    root: Path, base_rev: str | None, head_rev: str | None, held: tuple[Path, str] | None = None
) -> Iterator[Record]:
    """The facts; `held` the witness file (its path, and as the user named it), when given."""
    earlier = witness.read(*held) if held else None
    head = resolve(root, head_rev or "HEAD", "--head")
    base = resolve(root, base_rev, "--base") if base_rev else default_base(root, head)
    listed = commits(root, base, head)
    policy = base_policy(root, base)
    seen = published.read(git.common_dir(root))
    changing = [c["commit"] for c in listed if c["paths"]]
    nothing = not seen["ledgers"] and not seen["claims"]  # a claim names what a ledger lost
    if changing and nothing and (policy["require_task"] or policy["commands"]):
        raise MissingArtifact(
            f"verify: {len(changing)} commit(s) of {base[:12]}..{head[:12]} change files and "
            "nothing is published under refs/majordomus/ledger/ — fetch it: "
            "git fetch origin 'refs/majordomus/*:refs/majordomus/*'"
        )
    checked_out = git.out("rev-parse", "HEAD", cwd=root)
    seen["starts"] = starts(root, base, listed, seen["ledgers"])
    yield fact("verify-range", base=base, head=head, checked_out=checked_out, commits=listed)
    yield fact("verify-policy", **policy)
    yield fact("verify-ledgers", **seen)
    if earlier is not None:
        yield earlier


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    given = getattr(options, "witness", None)
    held = (Path(context.cwd) / given, given) if given else None
    yield from gather(context.root(), options.base, options.head, held)


STAGES = {"verify-facts": Stage(_run)}
