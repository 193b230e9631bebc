"""The private object store every remote git command runs in: `.ai/local/remote/store.git`, a
bare repository of this checkout's own (never the repository's `.git`: the tool writes nothing
there). Fetched refs keep their remote names (`refs/majordomus/...`).

Commits are written as loose objects (`objects`); objects are read by `git cat-file --batch`,
sizes first, so a huge object on the remote is reported, never read.
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.git import questions as git
from mj_core.write import atomic

from mj_state import mirror

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from mj_policy.layer.loader import Layer

IDENTITY = "majordomus"
_ENV = {"GIT_TERMINAL_PROMPT": "0"}  # a remote asking for a password fails, never waits


class Commit:
    """A commit to build: its files (path → bytes), parent, message, author's mail and time."""

    __slots__ = ("files", "mail", "message", "moment", "parent")

    def __init__(
        self, files: dict[str, bytes], parent: str | None, message: str, mail: str, moment: int
    ) -> None:
        self.files = files
        self.parent = parent
        self.message = message
        self.mail = mail
        self.moment = moment


def ensure(layer: Layer) -> Path:
    """The store, made on first use (bare, no templates, the repository's object format)."""
    store = mirror.directory(layer) / mirror.STORE
    if (store / "HEAD").is_file():
        return store
    atomic.make_dirs(store.parent, root=layer.root)
    found = git.out("rev-parse", "--show-object-format", cwd=layer.root) or "sha1"
    code, _, err = git.run(
        "init",
        "-q",
        "--bare",
        "--template=",
        f"--object-format={found}",
        str(store),
        cwd=layer.root,
    )
    if code != 0:
        raise Refused(f"{layer.relative(store)}: could not be made ({err.strip()})")
    store.chmod(0o700)  # below .ai/local/, as every directory there
    return store


def run(
    store: Path, *args: str, data: bytes | None = None, timeout: float = 60.0
) -> tuple[int, bytes, bytes]:
    """`git --git-dir=<store> <args>` through the runner (no hooks: `core.hooksPath` is empty)."""
    argv = ("--git-dir", str(store), "-c", "core.hooksPath=/dev/null", *args)
    return git.run_bounded(argv, store, timeout=timeout, data=data, env=_ENV)


def build(store: Path, commits: list[Commit]) -> list[str]:
    """Write `commits` into the store as loose objects (`objects`); their ids."""
    from mj_state.remote import objects

    writer = objects.Writer(store)
    made = []
    for commit in commits:
        who = f"{IDENTITY} <{commit.mail}> {commit.moment} +0000"
        made.append(writer.commit(writer.tree(commit.files), commit.parent, who, commit.message))
    return made


def refs(store: Path) -> list[tuple[str, str, str]]:
    """(name, object id, object type) of every ref the store mirrors under refs/majordomus/."""
    fmt = "%(refname)%00%(objectname)%00%(objecttype)"
    code, out, _ = run(store, "for-each-ref", f"--format={fmt}", "refs/majordomus/")
    found = []
    for line in out.decode("utf-8", "surrogateescape").splitlines() if code == 0 else []:
        name, oid, kind = [*line.split("\0"), "", ""][:3]
        found.append((name, oid, kind))
    return found


def sizes(store: Path, specs: list[str]) -> list[tuple[str, int] | None]:
    """(type, size) of each object `<rev>` or `<rev>:<path>` names, None when it is missing."""
    if not specs:
        return []
    code, out, _ = run(
        store, "cat-file", "--batch-check", data="".join(f"{s}\n" for s in specs).encode()
    )
    found: list[tuple[str, int] | None] = []
    for line in out.decode("utf-8", "replace").splitlines():
        parts = line.split()
        found.append((parts[1], int(parts[2])) if len(parts) == 3 and parts[2].isdigit() else None)
    return found if code == 0 and len(found) == len(specs) else [None] * len(specs)


def contents(store: Path, specs: list[str]) -> list[bytes | None]:
    """The bytes of each object (ask `sizes` first: nothing here caps them)."""
    if not specs:
        return []
    code, out, _ = run(store, "cat-file", "--batch", data="".join(f"{s}\n" for s in specs).encode())
    found: list[bytes | None] = []
    at = 0
    for _ in specs:
        end = out.find(b"\n", at)
        if code != 0 or end == -1:
            return [None] * len(specs)
        parts = out[at:end].split()
        if len(parts) != 3 or not parts[2].isdigit():
            found.append(None)
            at = end + 1
            continue
        size = int(parts[2])
        found.append(out[end + 1 : end + 1 + size])
        at = end + 1 + size + 1
    return found


def set_refs(store: Path, updates: list[tuple[str, str]]) -> None:
    """Point mirror refs at what was just pushed (`git update-ref --stdin`, one transaction)."""
    if updates:
        data = "".join(f"update {name} {oid}\n" for name, oid in updates).encode()
        run(store, "update-ref", "--stdin", data=data)
