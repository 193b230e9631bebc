"""Where a few commands write, read from their arguments (`act.shell_writes`' table).

Each verb names the options it takes (`flags`, alone; `valued`, followed by a value or
joined to it as `--name=value`); an option outside both is one whose meaning is not known
here, and the whole command is then left unread. Operands that are not static words (None)
are never claimed. A target is (path, the shell's directory or None, verb, `into`): `into`
None means the path itself is written; a list means that when the path is a directory, the
files written are these names inside it (an empty list: names that cannot be read, so nothing
there is certain).
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    Target = tuple[str, str | None, str, list[str] | None]
    Words = list[str | None]

_COPY = "abdfHiLlnPprRsuvx"
# verb → (flags, options that take a value, which operands it writes)
VERBS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "tee": ("aip", (), "all"),
    "touch": ("acfhm", ("-d", "-r", "-t", "--date", "--reference"), "all"),
    "rm": ("dfiIrRv", (), "all"),
    "truncate": ("co", ("-s", "-r", "--size", "--reference"), "all"),
    "cp": (_COPY + "T", ("-t", "--target-directory", "-S", "--suffix"), "last"),
    "mv": ("bfinTuv", ("-t", "--target-directory", "-S", "--suffix"), "moved"),
    "ln": ("bfinLPrsTv", ("-t", "--target-directory", "-S", "--suffix"), "link"),
    "install": (
        "bcCDpsTv",
        ("-m", "-o", "-g", "-t", "--mode", "--owner", "--group", "--target-directory"),
        "last",
    ),
    "chmod": ("cfvR", ("--reference",), "after-mode"),
    "chown": ("cfvRhHLP", ("--reference",), "after-mode"),
    "sed": ("nrEsuz", ("-e", "-f", "-l", "--expression", "--file"), "sed"),
}
_LONG = {"--append": "a", "--force": "f", "--recursive": "r", "--verbose": "v",
         "--no-clobber": "n", "--interactive": "i", "--symbolic": "s", "--relative": "r",
         "--no-target-directory": "T", "--no-create": "c", "--in-place": "i"}  # fmt: skip
WRAPPERS = frozenset(("command", "exec", "nohup", "time", "sudo", "builtin"))


def unwrap(words: Words) -> Words:
    """The command a wrapper runs: `env A=1 cmd …`, `nohup cmd …` → `cmd …` (a wrapper given
    options, or one whose next word cannot be read, is left as it is: nothing is claimed)."""
    while words and words[0] is not None:
        head = words[0].rsplit("/", 1)[-1]
        if head == "env":
            rest = words[1:]
            while rest and rest[0] is not None and "=" in rest[0] and not rest[0].startswith("-"):
                rest = rest[1:]
            words = rest
        elif head in WRAPPERS and len(words) > 1 and not str(words[1]).startswith("-"):
            words = words[1:]
        else:
            return words
    return words


def add(found: list[Target], path: str, cwd: str | None, verb: str,
        into: list[str] | None = None) -> None:  # fmt: skip
    """Claim `path` unless it is relative to a directory that cannot be known."""
    if path and (cwd is not None or path.startswith("/")):
        found.append((path, cwd, verb, into))


class _Call:
    """One command's parsed arguments and where its targets go."""

    __slots__ = ("cwd", "files", "flags", "found", "values", "verb")

    def __init__(self, verb: str, cwd: str | None, found: list[Target]) -> None:
        self.verb = verb
        self.cwd = cwd
        self.found = found
        self.flags = ""
        self.values: dict[str, str | None] = {}
        self.files: Words = []

    def add(self, path: str | None, into: list[str] | None = None) -> None:
        if path is not None:
            add(self.found, path, self.cwd, self.verb, into)


def operands(verb: str, args: Words, cwd: str | None, found: list[Target]) -> None:
    """The targets of `verb args` (a verb not in the table claims nothing)."""
    call = _Call(verb, cwd, found)
    if verb == "dd":
        for arg in args:
            if arg is not None and arg.startswith("of="):
                call.add(arg[3:])
        return
    if verb in ("curl", "wget"):
        _download(call, args)
        return
    spec = VERBS.get(verb)
    if spec is not None and _options(call, args, spec):
        _claim(call, spec[2])


def _options(call: _Call, args: Words, spec: tuple[str, tuple[str, ...], str]) -> bool:
    """Read flags, valued options and operands into `call`; False when an option is not
    known."""
    flags, valued = spec[0], spec[1]
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg is None or arg == "-" or not arg.startswith("-"):
            call.files.append(arg)
            continue
        if arg == "--":
            call.files += rest
            break
        name, eq, value = arg.partition("=")
        if name in valued:
            call.values[name] = value if eq else (rest.pop(0) if rest else None)
        elif call.verb == "sed" and (arg.startswith("-i") or name == "--in-place"):
            call.flags += "i"
        elif name in _LONG and not eq:
            call.flags += _LONG[name]
        elif not arg.startswith("--") and all(c in flags for c in arg[1:]):
            call.flags += arg[1:]
        else:
            return False
    return True


def _claim(call: _Call, which: str) -> None:
    files, values = call.files, call.values
    if which == "sed":
        script_given = any(key in values for key in ("-e", "-f", "--expression", "--file"))
        if "i" in call.flags:
            for path in files[0 if script_given else 1 :]:
                call.add(path)
        return
    if which == "all" or (which == "after-mode" and "--reference" in values):
        for path in files:
            call.add(path)
        return
    if which == "after-mode":
        for path in files[1:]:
            call.add(path)
        return
    target_dir = values.get("-t", values.get("--target-directory"))
    if which == "moved":
        for path in files[:-1] if target_dir is None else files:
            call.add(path)  # moving a file away changes where it was
    _destination(call, target_dir)


def _destination(call: _Call, target_dir: str | None) -> None:
    files = call.files
    if target_dir is not None:
        sources = [s for s in files if s is not None]
        call.add(target_dir, sources if len(sources) == len(files) else [])
        return
    if call.verb == "ln" and len(files) == 1 and files[0] is not None:
        call.add(files[0].rstrip("/").rsplit("/", 1)[-1])  # a link here, by the target's name
        return
    if len(files) < 2:
        return
    sources = [s for s in files[:-1] if s is not None]
    into = sources if len(sources) == len(files) - 1 else []  # []: names not readable
    call.add(files[-1], None if "T" in call.flags else into)


def _download(call: _Call, args: Words) -> None:
    """`curl -o FILE`, `curl --output FILE`, `wget -O FILE`, `wget --output-document=FILE`."""
    names = ("-o", "--output") if call.verb == "curl" else ("-O", "--output-document")
    for index, arg in enumerate(args):
        if arg is None:
            continue
        name, eq, value = arg.partition("=")
        if name in names:
            path = value if eq else (args[index + 1] if index + 1 < len(args) else None)
            if path != "-":
                call.add(path)
