"""Which ADR numbers are claimed, and where: this tree, the sibling worktrees on disk, the tip of
every ref, and the `adr.proposed` lines of each checkout's ledger (a number proposed once is
claimed even after its file is gone). The next id is one above the highest claim: holes are
never filled. A worktree whose directory is gone is reported as unreachable, never skipped in
silence.

`conflicts` is `adr check`'s last defect: an id this tree adds (against `MJ_ADR_BASE`, else
the first of origin/master, origin/main, master, main that exists) that another ref holds under
a different file name.
"""

from __future__ import annotations

import os
from pathlib import Path

from mj_core.git import questions as git

from mj_policy.adr import model as adrmodel

LEDGER = ".ai/local/state/ledger.jsonl"


class Claims:
    """Every claimed number, with where each was seen, and the sources that could not be read."""

    __slots__ = ("by_ref", "numbers", "sources", "unreachable")

    def __init__(self) -> None:
        self.numbers: dict[int, set[str]] = {}  # number → where it is claimed
        self.by_ref: dict[str, dict[int, str]] = {}  # ref → number → file name at its tip
        self.sources: list[str] = []
        self.unreachable: list[str] = []

    def add(self, number: int | None, where: str) -> None:
        if number is not None:
            self.numbers.setdefault(number, set()).add(where)

    def next_number(self) -> int:
        return max(self.numbers, default=0) + 1


def section_dirs(root: Path, section: str) -> list[Path]:
    """The ADR directory of this worktree and of every sibling whose directory exists."""
    found = [root / section]
    for item in git.worktrees(root):
        path = Path(item.get("worktree", ""))
        if path.resolve() != root.resolve() and (path / section).is_dir():
            found.append(path / section)
    return found


def gather(root: Path, section: str) -> Claims:
    claims = Claims()
    _tree(claims, root / section, "this tree")
    claims.sources.append("this tree")
    _ledger(claims, root / LEDGER, "this checkout's ledger")
    claims.sources.append("this checkout's ledger")
    for item in git.worktrees(root):
        path = Path(item.get("worktree", ""))
        if path.resolve() == root.resolve():
            continue
        if not path.is_dir():
            claims.unreachable.append(f"worktree {path}: not on disk")
            continue
        claims.sources.append(f"worktree {path}")
        _tree(claims, path / section, f"worktree {path}")
        _ledger(claims, path / LEDGER, f"worktree {path} ledger")
    _refs(claims, root, section)
    return claims


def _tree(claims: Claims, directory: Path, where: str) -> None:
    if directory.is_dir():
        for name in os.listdir(directory):
            claims.add(adrmodel.number_of(name), where)


def _ledger(claims: Claims, path: Path, where: str) -> None:
    from mj_core.stream import jsonl

    try:
        data = path.read_bytes()
    except OSError:
        return
    for line in data.splitlines():
        if b'"adr.proposed"' not in line:
            continue
        try:
            event = jsonl.loads_line(line)
        except ValueError:
            continue  # the ledger's own readers report a malformed line
        ident = event.get("adr") if isinstance(event, dict) else None
        if isinstance(ident, str) and ident.startswith("adr-") and ident[4:].isdigit():
            claims.add(int(ident[4:]), where)


def _tips(root: Path) -> dict[str, list[str]] | None:
    """Each commit at the tip of some ref, with the refs that point at it (None: git failed)."""
    code, out, _ = git.run("for-each-ref", "--format=%(objectname) %(refname)", cwd=root)
    if code != 0:
        return None
    tips: dict[str, list[str]] = {}
    for line in out.splitlines():
        sha, _, ref = line.partition(" ")
        tips.setdefault(sha, []).append(ref)
    return tips


def _listings(root: Path, shas: list[str], section: str) -> dict[str, list[str]]:
    """The file names in each commit's ADR directory (`mj_policy.adr.trees`: one question to
    git for the commits not already known)."""
    from mj_policy.adr import trees as adrtrees

    return adrtrees.listings(root, shas, section)


def _refs(claims: Claims, root: Path, section: str, tips: dict[str, list[str]] | None = None,
          listed: dict[str, list[str]] | None = None) -> None:  # fmt: skip
    tips = _tips(root) if tips is None else tips
    if tips is None:
        claims.unreachable.append("refs: git for-each-ref failed")
        return
    listed = _listings(root, list(tips), section) if listed is None else listed
    held: dict[int, dict[int, str]] = {}  # one reading per list of names, however many share it
    for sha, names in listed.items():
        numbered = held.get(id(names))
        if numbered is None:
            numbered = held[id(names)] = _numbered(names)
        for ref in tips.get(sha, []):
            for number in numbered:
                claims.add(number, ref)
            claims.by_ref.setdefault(ref, {}).update(numbered)
    claims.sources.append(f"{len(tips)} commit(s) at the tips of the refs")


def _numbered(names: list[str]) -> dict[int, str]:
    """Each record file's number and name (`NNNN-<slug>.md`; anything else is no claim)."""
    found = {}
    for name in names:
        number = adrmodel.number_of(name)
        if number is not None:
            found[number] = name
    return found


def base(root: Path, tips: dict[str, list[str]]) -> str | None:
    """The commit this tree's additions are measured against: `MJ_ADR_BASE`, else the first of
    origin/master, origin/main, master, main that exists."""
    wanted = os.environ.get("MJ_ADR_BASE")
    if wanted:
        return git.out("rev-parse", "--verify", "--quiet", f"{wanted}^{{commit}}", cwd=root)
    at = {ref: sha for sha, refs in tips.items() for ref in refs}
    for ref in ("refs/remotes/origin/master", "refs/remotes/origin/main", "refs/heads/master",
                "refs/heads/main"):  # fmt: skip
        if ref in at:
            return at[ref]
    return None


def conflicts(root: Path, model: adrmodel.Model, section: str) -> list[tuple[str, str]]:
    """(where, message) for each id this tree adds that another ref holds as a different file
    (no record here: nothing to ask git)."""
    if not any(item.number is not None for item in model.records):
        return []
    tips = _tips(root)
    against = base(root, tips) if tips is not None else None
    if tips is None or against is None:
        return []
    listed = _listings(root, list(dict.fromkeys([*tips, against])), section)
    at_base = {adrmodel.number_of(n) for n in listed.get(against, [])}
    claims = Claims()
    _refs(claims, root, section, tips, listed)
    found = []
    for item in model.records:
        if item.number is None or item.number in at_base:
            continue
        name = item.path.rsplit("/", 1)[-1]
        for ref, held in sorted(claims.by_ref.items()):
            other = held.get(item.number)
            if other is not None and other != name:
                message = f"{item.id} is added here, yet {ref} holds it as {other}"
                found.append((item.where("id"), message + " — renumber with `majordomus adr next`"))
    return found
