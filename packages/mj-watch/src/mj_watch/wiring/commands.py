"""What single commands do to a hook, as the proof in `wiring.evaluate` needs to know it.

Before the declared call only commands that cannot end the script, skip the call or change what
it runs are allowed: `:`, `true`, `false`, `echo`, `printf`, `test` / `[`, `command -v`,
`set` with the options listed below, and assignments or `export` / `readonly` / `unset` of names
that do not steer the call (PATH, IFS, the interpreter's and git's variables...). Their words
may expand parameters, and command substitutions only of such commands (plus `cd`, `pwd`,
`dirname`, `basename`, which only move the subshell); redirections may only read, duplicate a
descriptor or write to `/dev/null` and the terminal streams. Everything else is unproven.
"""

from __future__ import annotations

from mj_watch.shell import syntax as ast

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable

    from mj_watch.shell.syntax import Redir
    from mj_watch.shell.syntax import Seq
    from mj_watch.shell.syntax import Word

ERREXIT, PLUS_E, NOUNSET = 1, 2, 4  # state flags: `set -e`, `set +e` written, `set -u`
ZERO, NONZERO, FAILED, ANY = 0, 1, 2, 3  # what `$?` holds; FAILED is the failing call's own

SAFE = frozenset(
    (":", "true", "false", "echo", "printf", "test", "[", "command", "export", "readonly", "unset")
)
SAFE_IN_SUBSHELL = SAFE | {"cd", "pwd", "dirname", "basename", "exit"}
DANGER = {
    "eval": "runs text as a script",
    ".": "runs another file in this shell",
    "source": "runs another file in this shell",
    "return": "ends the script in dash and not in bash",
    "trap": "can change the hook's exit status when it ends",
    "alias": "can redefine a command",
    "unalias": "changes how commands resolve",
    "builtin": "runs a builtin by name",
    "shopt": "changes how bash runs the script",
    "enable": "changes which builtins bash has",
    "hash": "can point a command name at another program",
    "function": "defines a function",
    "typeset": "can define or change functions and variables",
    "declare": "can define or change functions and variables",
    "local": "only works in a function",
    "let": "evaluates arithmetic that can assign",
    "read": "assigns variables from input",
    "getopts": "assigns variables from the arguments",
    "coproc": "runs a command in the background",
}
BLOCKED = frozenset(("PATH", "IFS", "ENV", "BASH_ENV", "CDPATH", "SHELLOPTS", "BASHOPTS", "HOME"))
BLOCKED_PREFIXES = ("LD_", "DYLD_", "PYTHON", "MJ_", "MAJORDOMUS", "GIT_", "XDG_", "BASH_")
DEVICES = frozenset(("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"))
OPTIONS = {"e": ERREXIT, "u": NOUNSET, "x": 0, "v": 0}
LONG = {"errexit": "e", "nounset": "u", "xtrace": "x", "verbose": "v"}
ALWAYS_SET = frozenset("@*#?-$0")
SAFE_OPS = (":-", "-", ":+", "+")


def safe_name(name: str) -> bool:
    return name not in BLOCKED and not name.startswith(BLOCKED_PREFIXES)


def word_problem(word: Word, nounset: bool) -> str | None:
    """Why expanding `word` could do more than produce a string (None when it cannot)."""
    for part in word.parts:
        problem = _part_problem(part, nounset)
        if problem:
            return problem
    return None


def _part_problem(part: ast.Part, nounset: bool) -> str | None:
    if part.kind == ast.SUB:
        if part.body is None:
            return f"the command substitution {part.value} is not read by the proof"
        return substitution_problem(part.body)
    if part.kind == ast.ARITH:
        bare = part.value
        for compare in ("==", "!=", "<=", ">="):
            bare = bare.replace(compare, "")
        return f"{part.value} can assign" if any(o in bare for o in ("=", "++", "--")) else None
    if part.kind != ast.PARAM:
        return None
    op = part.op
    default = op.startswith(SAFE_OPS) and not any(c in op for c in "$`()")
    if op and not (default or op == "#" or op in ("[@]", "[*]")):
        return f"the expansion ${{{part.value}{op}}} can assign or end the script"
    if nounset and part.value not in ALWAYS_SET and not default:
        return f"${part.value} ends the hook under `set -u` when it is unset"
    return None


def substitution_problem(body: Seq) -> str | None:
    """A command substitution runs in a subshell: it only matters what its commands touch."""
    for command in ast.commands(body):
        if not isinstance(command, ast.Simple):
            return "a command substitution holds a compound command"
        name = ast.static(command.words[0]) if command.words else ":"
        if name is None:
            return "a command substitution runs a command named by an expansion"
        if name not in SAFE_IN_SUBSHELL:
            return f"the command substitution runs `{name}`"
        for word in command.words + command.assigns:
            problem = word_problem(word, False)
            if problem:
                return problem
        for redir in command.redirs:
            problem = redirect_problem(redir)
            if problem:
                return problem
    return None


def redirect_problem(redir: Redir) -> str | None:
    """Why a redirection could change the filesystem or run code (None when it cannot)."""
    if redir.op in ("<<", "<<-"):
        body = redir.heredoc or ""
        if not redir.quoted and ("$(" in body or "`" in body):
            return "a here-document runs command substitutions"
        return None
    target = ast.static(redir.target)
    shown = f"{redir.fd}{redir.op}{target or '…'}"
    if target is None:
        return f"`{shown}` redirects to an expanded name"
    if redir.op in (">&", "<&"):
        return None if target.isdigit() or target == "-" else f"`{shown}` writes a file"
    if redir.op == "<" or (redir.op in (">", ">>", ">|") and target in DEVICES):
        return None
    return f"`{shown}` writes a file"


def set_options(words: list[Word], flags: int, bash: bool) -> tuple[int, bool]:
    """The flags after `set <words>`, and whether the command can fail (dash has no
    pipefail); ValueError names an option the proof does not follow."""
    values = [ast.static(w) for w in words]
    index, fails = 0, False
    while index < len(values):
        value = values[index]
        if value is None:
            raise ValueError("`set` with an expanded argument")
        if value in ("--", "-") or value[:1] not in ("-", "+"):
            break  # positional parameters follow
        on = value[0] == "-"
        if value[1:] == "o":
            index += 1
            name = values[index] if index < len(values) else None
            if name == "pipefail":
                fails = fails or not bash
                index += 1
                continue
            if name not in LONG:
                raise ValueError(f"`set {value} {name or ''}` changes how the hook runs")
            letters = LONG[name]
        else:
            letters = value[1:]
        for letter in letters:
            if letter not in OPTIONS:
                raise ValueError(f"`set {value}` changes how the hook runs")
            flags = _flag(flags, letter, on)
        index += 1
    return flags, fails


def _flag(flags: int, letter: str, on: bool) -> int:
    bit = OPTIONS[letter]
    if letter == "e":
        flags = (flags | PLUS_E) if not on else (flags & ~PLUS_E)
    return (flags | bit) if on else (flags & ~bit)


def exit_status(words: list[Word], status: int) -> int | None:
    """What `exit <words>` exits with, given `$?`; None for a form the proof does not follow."""
    if len(words) == 1:
        return status
    if len(words) > 2:
        return None  # bash refuses and carries on, dash exits
    if ast.param(words[1]) == "?":
        return status
    value = ast.static(words[1])
    if value is not None and value.isdigit():
        return ZERO if int(value) % 256 == 0 else NONZERO
    return ANY


def arguments_problem(name: str, words: list[Word]) -> str | None:
    """Arguments that turn an allowed command into one that assigns or runs something."""
    values = [ast.static(w) for w in words[1:]]
    if name == "printf" and values[:1] == ["-v"]:
        return "`printf -v` assigns a variable"
    if name in ("export", "readonly", "unset"):
        for value in values:
            if value is None or value.startswith("-"):
                return f"`{name}` with an option or an expanded name"
            if not safe_name(value.split("=", 1)[0]):
                return f"`{name} {value}` changes a variable that steers the call"
    if name == "command" and values[:1] not in (["-v"], ["-V"]):
        return "`command` runs a command past its functions and aliases"
    return None


def file_test(
    words: list[Word], is_file: Callable[[Word], bool], is_dir: Callable[[Word], bool]
) -> int | None:
    """`[ -x "$h" ]`-style tests a runner makes of the sub-hook it is about to run (an
    executable regular file: -x -f -e -r -s hold, -d does not) or of its `.d` directory."""
    values = [ast.static(w) for w in words]
    if values[0] == "[":
        if values[-1] != "]":
            return None
        words, values = words[:-1], values[:-1]
    args, tests = words[1:], values[1:]
    negate = tests[:1] == ["!"]
    if negate:
        args, tests = args[1:], tests[1:]
    if len(args) != 2:
        return None
    if is_file(args[1]) and tests[0] in ("-x", "-f", "-e", "-r", "-s", "-d"):
        holds = tests[0] != "-d"
    elif is_dir(args[1]) and tests[0] in ("-d", "-e"):
        holds = True
    else:
        return None
    return ZERO if holds != negate else NONZERO
