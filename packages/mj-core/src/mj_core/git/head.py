"""HEAD and its branch read from git's files (gitrepository-layout), without starting git:
`HEAD` in the git directory names a branch (`ref: refs/heads/<name>`) or holds a commit's SHA
(detached); a branch's SHA is its loose file under the common directory's `refs/heads/`, else
its line in `packed-refs`, else the branch is unborn.

Only what the layout says plainly is read. A checkout `git.layout` would not read, a ref
namespace (`GIT_NAMESPACE`), the reftable format, a HEAD or ref that is a link or another
symbolic ref, a branch name git's own rules would question, a file that does not read as a
SHA: the answer is None and the caller asks git, so every unusual case is git's own answer.
"""

from __future__ import annotations

import os
import stat

from mj_core.git import layout as gitlayout

_HEX = frozenset("0123456789abcdef")
_BRANCH = "ref: refs/heads/"
_NAME_REFUSED = frozenset(" ~^:?*[\\\x7f")
_MISSING = ""  # `_file`: no regular file there (absent, or a directory of deeper refs)


def read(root: str) -> tuple[str, str, str | None, str | None] | None:
    """(git directory, common directory, HEAD's SHA or None on an unborn branch, branch or None
    when HEAD is detached) of the checkout whose top level is `root`; None when git must be
    asked."""
    if os.environ.get("GIT_NAMESPACE") or not gitlayout.plain(root):
        return None
    found = gitlayout.dirs(root)
    if found is None:
        return None
    git_dir, common = found
    if os.path.lexists(os.path.join(common, "reftable")):
        return None
    head = _file(os.path.join(git_dir, "HEAD"))
    if head is None or head is _MISSING:
        return None
    if _sha(head):
        return git_dir, common, head, None
    if not head.startswith(_BRANCH) or not _plain_name(head[len(_BRANCH) :]):
        return None
    name = head[len(_BRANCH) :]
    sha = _branch_sha(common, name)
    if sha is None:
        return None
    return git_dir, common, sha or None, name


def _branch_sha(common: str, name: str) -> str | None:
    """The branch's SHA, "" when it is unborn, None when git must be asked."""
    loose = _file(os.path.join(common, "refs", "heads", *name.split("/")))
    if loose is None:
        return None
    if loose is not _MISSING:
        return loose if _sha(loose) else None
    packed = _file(os.path.join(common, "packed-refs"), whole=True)
    if packed is None:
        return None
    return _packed(packed, f"refs/heads/{name}")


def _packed(text: str, ref: str) -> str | None:
    """`ref`'s SHA in a `packed-refs` text, "" when it is not there, None when the text is not
    the plain form (`<sha> <ref>` lines, `#` header, `^` peeled lines)."""
    found: list[str] = []
    for line in text.split("\n"):
        if not line or line[0] in "#^":
            continue
        sha, blank, name = line.partition(" ")
        if not blank or not _sha(sha):
            return None
        if name == ref:
            found.append(sha)
    if len(found) > 1:
        return None
    return found[0] if found else ""


def _file(path: str, *, whole: bool = False) -> str | None:
    """The text of a regular file (without its final newline unless `whole`), `_MISSING` when
    there is none (absent, or a directory), None when it is anything else or does not read."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return _MISSING
    except OSError:
        return None
    if stat.S_ISDIR(found.st_mode):
        return _MISSING
    if not stat.S_ISREG(found.st_mode):
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read(1 << 24 if whole else 256)
        text = data.decode("ascii")
    except (OSError, UnicodeDecodeError):
        return None
    if whole:
        return text
    return text[:-1] if text.endswith("\n") and text.count("\n") == 1 else None


def _sha(text: str) -> bool:
    return len(text) in (40, 64) and _HEX.issuperset(text)


def _plain_name(name: str) -> bool:
    """A branch name that git's ref rules plainly allow (anything doubtful: git is asked)."""
    parts = name.split("/")
    return (
        bool(name)
        and name.isascii()
        and name.isprintable()
        and not _NAME_REFUSED.intersection(name)
        and ".." not in name
        and "@{" not in name
        and all(part and not part.startswith(".") and not part.endswith(".lock") for part in parts)
        and not name.endswith(".")
    )
