"""A checkout's top level, git directory and common directory read from git's documented
layout (gitrepository-layout), without starting git: `<root>/.git` is the git directory, or a
file `gitdir: <path>` naming it (a linked worktree, a submodule); a `commondir` file inside the
git directory names the common directory, which is the git directory itself otherwise. The top
level is the nearest directory at or above the working directory that holds such a `.git`.

Only the plain layout is read. When the environment steers git's discovery (`GIT_DIR`,
`GIT_WORK_TREE`, a ceiling, discovery across file systems...), when `.git` is a link or anything
else, when the configuration could move the working tree or make it bare (`worktree`, `bare =
true`, an include), when the checkout is not owned by this user (git's `safe.directory`), when
the walk would cross a file system or pass a bare repository: the answer is None and the caller
asks git, so every unusual case is git's own answer.
"""

from __future__ import annotations

import os
import stat

_STEERING = (
    "GIT_DIR",
    "GIT_COMMON_DIR",
    "GIT_WORK_TREE",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
)
_SMALL = 4096  # a `.git` or `commondir` file names one path


def dirs(root: str) -> tuple[str, str] | None:
    """(git directory, common directory) of the checkout whose top level is `root`, absolute;
    None when the layout is not the plain one (git is asked then)."""
    if any(os.environ.get(name) for name in _STEERING):
        return None
    dotgit = os.path.join(root, ".git")
    try:
        found = os.lstat(dotgit)
    except OSError:
        return None
    if stat.S_ISDIR(found.st_mode):
        git_dir = dotgit
    elif stat.S_ISREG(found.st_mode):
        try:
            named = _one_line(dotgit)
        except FileNotFoundError:
            return None
        if named is None or not named.startswith("gitdir: "):
            return None
        git_dir = os.path.join(root, named[len("gitdir: ") :])
    else:
        return None
    if not os.path.isfile(os.path.join(git_dir, "HEAD")):
        return None  # not a git directory that git would take
    try:
        common = _one_line(os.path.join(git_dir, "commondir"))
    except FileNotFoundError:
        return os.path.normpath(git_dir), os.path.normpath(git_dir)
    if not common:
        return None
    return os.path.normpath(git_dir), os.path.normpath(os.path.join(git_dir, common))


def toplevel(start: str) -> str | None:
    """The top level of the checkout containing `start`, as `git rev-parse --show-toplevel`
    prints it (symbolic links resolved); None when git must be asked (outside a repository
    included: git's error is the one to give)."""
    if any(os.environ.get(name) for name in _STEERING):
        return None
    here = os.path.realpath(start)
    try:
        device = os.stat(here).st_dev
    except OSError:
        return None
    while True:
        if os.path.basename(here) == ".git" or _bare(here):
            return None  # inside a git directory: not a working tree
        try:
            os.lstat(os.path.join(here, ".git"))
        except FileNotFoundError:
            parent = os.path.dirname(here)
            try:
                if parent == here or os.stat(parent).st_dev != device:
                    return None
            except OSError:
                return None
            here = parent
            continue
        except OSError:
            return None
        return here if _plain_checkout(here) else None


def _bare(directory: str) -> bool:
    """True when `directory` looks like a git directory itself (git takes it as bare)."""
    return os.path.isfile(os.path.join(directory, "HEAD")) and os.path.isdir(
        os.path.join(directory, "objects")
    )


def plain(root: str) -> bool:
    """True when `root` (a checkout's top level) has the plain layout this module reads: the
    environment, the configuration and the owner leave git's answers to its files."""
    return not any(os.environ.get(name) for name in _STEERING) and _plain_checkout(root)


def _plain_checkout(root: str) -> bool:
    """`root/.git` is the plain layout, owned by this user, and no configuration git reads
    for it could move its working tree, make it bare or pull in other files."""
    found = dirs(root)
    if found is None:
        return False
    git_dir, common = found
    try:
        owner = os.geteuid()
        if os.stat(root).st_uid != owner or os.stat(git_dir).st_uid != owner:
            return False
        if os.path.exists(os.path.join(git_dir, "config.worktree")):
            return False
        with open(os.path.join(common, "config"), "rb") as handle:
            config = handle.read(1 << 16).lower()
    except OSError:
        return False
    if _steering(config) or _may_be_bare(config):
        return False
    return not any(_unusual(path) for path in _user_configs())


def _steering(config: bytes) -> bool:
    """True when the (lowercased) configuration may move the working tree or pull in other
    files: a key named like `worktree` (core.worktree, extensions.worktreeConfig) or
    `include` in any section, an include section, or a section header this reader does not
    take apart. A subsection's name is no key: the tool's own `[majordomus "worktrees/<name>"]`
    entries leave the layout plain."""
    for raw in config.splitlines():
        line = raw.strip()
        if line.startswith(b"["):  # a key may follow the header on its line
            head, closed, line = line[1:].partition(b"]")
            if not closed or head.split(b'"', 1)[0].strip().startswith(b"include"):
                return True
            line = line.strip()
        if not line or line[:1] in (b"#", b";"):
            continue
        key = line.partition(b"=")[0]
        if b"worktree" in key or b"include" in key:
            return True
    return False


def _may_be_bare(config: bytes) -> bool:
    """True unless every `bare` line of the (lowercased) configuration says false."""
    for line in config.splitlines():
        key, _, value = line.strip().partition(b"=")
        if key.strip() == b"bare" and value.strip() not in (b"false", b"no", b"off", b"0"):
            return True
    return False


def _user_configs() -> list[str]:
    """The user's and the system's configuration files git reads for every repository."""
    home = os.environ.get("HOME", "")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    named = [os.environ.get("GIT_CONFIG_GLOBAL") or os.path.join(home, ".gitconfig")]
    if "GIT_CONFIG_GLOBAL" not in os.environ:
        named.append(os.path.join(xdg, "git", "config"))
    if not os.environ.get("GIT_CONFIG_NOSYSTEM"):
        named.append(os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig")
    return [path for path in named if path and path != os.devnull]


def _unusual(path: str) -> bool:
    """True when a configuration file git reads for every repository could move a working
    tree, make one bare or include other files (a file that does not read counts too)."""
    try:
        with open(path, "rb") as handle:
            text = handle.read(1 << 16).lower()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return b"worktree" in text or b"include" in text or b"bare" in text


def _one_line(path: str) -> str | None:
    """The file's only line without its line end; None when it is not one short line.
    FileNotFoundError passes through."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_SMALL + 1)
    except FileNotFoundError:
        raise
    except OSError:
        return None
    if len(data) > _SMALL:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = text.splitlines()
    if len(lines) != 1 or not lines[0].strip():
        return None
    return lines[0].strip()
