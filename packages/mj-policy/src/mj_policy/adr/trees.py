"""The file names in the ADR directory of each commit at the tip of a ref, for
`mj_policy.adr.claims`: every commit not yet known is asked of git in one `cat-file --batch`,
however many refs there are, and what was found is kept in `.ai/local/cache/adr-trees.json`:
each commit's tree at that path, and each tree's names once, however many tips share it (what
a commit holds at a path never changes, so a kept listing is never stale). The cache keeps only
the commits asked last; one that cannot be read or written is no cache (the listing is asked of
git again), never a different answer. Commits that share a tree share one list of names.
"""

from __future__ import annotations

from mj_core import spawn
from mj_core import timing
from mj_core.git import questions as git
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

CACHE = ".ai/local/cache/adr-trees.json"


def listings(root: Path, shas: list[str], section: str) -> dict[str, list[str]]:
    """Each commit's file names in `section` (none when it has no such directory)."""
    commits, trees = _load(root, section)
    missing = [sha for sha in shas if sha not in commits]
    asked = _ask(root, missing, section) if missing else {}
    for sha, (tree, names) in asked.items():
        commits[sha] = tree
        trees.setdefault(tree, names)
    kept = {sha: commits[sha] for sha in shas if sha in commits}
    if asked or len(kept) != len(commits):
        _save(root, section, kept, trees)
    return {sha: trees.get(tree, []) for sha, tree in kept.items()}


def _ask(root: Path, shas: list[str], section: str) -> dict[str, tuple[str, list[str]]]:
    """One `git cat-file --batch` for every commit: its tree at `section`, parsed; a commit git
    could not answer for is left out (asked again next time)."""
    timing.count("git")
    argv = ("git", *git.SAFE, "-C", str(root), "cat-file", "--batch")
    questions = "".join(f"{sha}:{section}\n" for sha in shas).encode("utf-8", "surrogateescape")
    try:
        code, out, _ = spawn.run_input(argv, git.clean_env(), questions)
    except OSError:
        return {}
    return _parse(out, shas) if code == 0 else {}


def _parse(out: bytes, shas: list[str]) -> dict[str, tuple[str, list[str]]]:
    """The answers of `cat-file --batch`, one per question in order: `<oid> <type> <size>`
    then the object, or `<name> missing` (no such path at that commit: the tree "")."""
    found: dict[str, tuple[str, list[str]]] = {}
    at = 0
    for sha in shas:
        end = out.find(b"\n", at)
        if end < 0:
            break
        head = out[at:end].split(b" ")
        at = end + 1
        if head[-1] in (b"missing", b"ambiguous") or len(head) != 3 or not head[2].isdigit():
            found[sha] = ("", [])  # no such directory at that commit
            continue
        size = int(head[2])
        body, at = out[at : at + size], at + size + 1
        if head[1] != b"tree":
            found[sha] = ("", [])
            continue
        found[sha] = (head[0].decode("ascii", "replace"), _names(body, len(head[0]) // 2))
    return found


def _names(raw: bytes, width: int) -> list[str]:
    """The entry names of a raw tree object: `<mode> <name>\\0<id>` each, the id `width`
    bytes."""
    names = []
    at = 0
    while at < len(raw):
        space = raw.index(b" ", at)
        nul = raw.index(b"\0", space)
        names.append(raw[space + 1 : nul].decode("utf-8", "surrogateescape"))
        at = nul + 1 + width
    return names


def _load(root: Path, section: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """(commit → its tree at `section`, tree → its names), or two empty maps."""
    try:
        data = jsonl.loads_line((root / CACHE).read_bytes())
    except (OSError, ValueError):
        return {}, {}
    if not isinstance(data, dict) or data.get("section") != section:
        return {}, {}
    commits, trees = data.get("commits"), data.get("trees")
    if not isinstance(commits, dict) or not isinstance(trees, dict):
        return {}, {}
    kept = {str(k): str(v) for k, v in commits.items() if isinstance(v, str)}
    names = {str(k): [str(n) for n in v] for k, v in trees.items() if isinstance(v, list)}
    return {k: v for k, v in kept.items() if v == "" or v in names}, names


def _save(root: Path, section: str, commits: dict[str, str], trees: dict[str, list[str]]) -> None:
    from mj_core.errors import MjError
    from mj_core.write import atomic

    used = {tree: trees[tree] for tree in sorted(set(commits.values())) if tree in trees}
    data = jsonl.dumps({"section": section, "commits": dict(sorted(commits.items())),
                        "trees": used})  # fmt: skip
    try:
        atomic.create(root / CACHE, data, mode=0o600, replace=True, root=root, durable=False)
    except (MjError, OSError):
        return
