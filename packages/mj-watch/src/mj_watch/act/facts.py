"""Where a tool call's writes would really land: each target on its real path (`..` resolved,
every symbolic link followed, the existing part of the path read from disk), inside the
repository (as a repository path) or out of it. The facts of the tool hook's judgement
(`act.judge`); nothing is written and git is not asked here.

A path that names a terminal or a discarding device (`/dev/null`, `/dev/stderr`, …) is no
file. A path the system cannot take (a NUL byte) is no write either: the client cannot open
it. A name with lone surrogates is judged as the client would write it (each as U+FFFD).
A directory target of `cp`, `mv`, `ln` or `install` receives its sources by name; when their
names cannot be read, nothing there is certain.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_watch.act.shell_verbs import Target

DEVICES = frozenset(("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/stdout",
                     "/dev/stderr", "/dev/stdin"))  # fmt: skip
MOST = 10_000  # targets judged in one call; past this the rest are not read


class Place:
    """One write, where it lands: `rel` (a repository path) when inside, else None."""

    __slots__ = ("given", "real", "rel", "verb")

    def __init__(self, given: str, real: str, rel: str | None, verb: str) -> None:
        self.given = given  # as the call names it (joined to its directory)
        self.real = real
        self.rel = rel
        self.verb = verb


def places(root: str, cwd: str, targets: list[Target]) -> list[Place]:
    """Each target of the call resolved against `root` (the repository's real path) from the
    client's directory `cwd`."""
    found: list[Place] = []
    for path, where, verb, into in targets[:MOST]:
        given = _clean(os.path.join(cwd, where or ".", path))
        if given is None or _device(os.path.normpath(given)):
            continue
        real = os.path.realpath(given)
        if _device(real):
            continue
        if into is not None and os.path.isdir(real):
            for name in into:
                inner = os.path.join(given, os.path.basename(name.rstrip("/")))
                found.append(_place(root, inner, os.path.realpath(inner), verb))
            continue
        found.append(_place(root, given, real, verb))
    return found


def _place(root: str, given: str, real: str, verb: str) -> Place:
    if real == root:
        return Place(given, real, ".", verb)
    if real.startswith(root.rstrip("/") + "/"):
        return Place(given, real, real[len(root.rstrip("/")) + 1 :], verb)
    return Place(given, real, None, verb)


def _clean(path: str) -> str | None:
    if "\0" in path:
        return None
    try:
        os.fsencode(path)
    except UnicodeEncodeError:
        path = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in path)
    return path  # `..` stays: it is resolved on the real path, after the links before it


def _device(path: str) -> bool:
    return path in DEVICES or path.startswith(("/dev/fd/", "/proc/self/fd/"))


def root_of(start: str) -> str | None:
    """The repository `start` is in, as git finds it without a `GIT_DIR` (the nearest
    directory up that holds `.git`), as a real path; None outside any."""
    here = os.path.realpath(start)
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
