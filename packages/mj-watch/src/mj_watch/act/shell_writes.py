"""The files a shell command line certainly writes, read from its text without running it.

Only what can be read for certain counts: a redirection to a file (`>`, `>>`, `>|`, `<>`,
`>&` to a name), the file operands of a few commands whose arguments say exactly where they
write (`tee`, `touch`, `cp`, `mv`, `ln`, `rm`, `install`, `truncate`, `sed -i`, `dd of=`,
`chmod`, `chown`, `curl -o`, `wget -O`, the files an `apply_patch` text names
(`act.apply_patch`), and the same through `env`, `command`, `exec`,
`nohup`, `time`, `sudo` or `sh -c '…'`), each a word no expansion can change. A word with a
parameter, a substitution, a pattern or a tilde, an option a command is not known to take, a
relative path after a `cd` whose directory cannot be read, or a script the grammar cannot
parse: nothing is claimed there (`check` still sees what was written). Every command of the
text counts, in a branch, a loop or a function too: what the line asks to write is judged,
not what a run would reach. Pure: text in, targets out.
"""

from __future__ import annotations

import posixpath

from mj_watch.act import shell_verbs as shverbs
from mj_watch.shell import syntax as ast

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_watch.act.shell_verbs import Target

WRITES = frozenset((">", ">>", ">|", "<>", ">&"))
MAX_TEXT = 1 << 20  # a command line longer than this is not read (nothing claimed)


def targets(text: str) -> list[Target]:
    """Each certain write of the command line `text`: (path, the shell's directory relative to
    where the line runs — None when it cannot be known —, the verb, the sources a directory
    target receives by name)."""
    from mj_watch.shell import parser as sh_parser
    from mj_watch.shell.lexer import ShellSyntax

    if len(text) > MAX_TEXT:
        return []
    try:
        tree = sh_parser.parse(text, bash=True)
    except (ShellSyntax, RecursionError):
        return []
    found: list[Target] = []
    _seq(tree, ".", found)
    return found


def _seq(seq: ast.Seq, cwd: str | None, found: list[Target]) -> str | None:
    """Walk a list in order; the directory it leaves (None: unknown)."""
    for and_or, background in seq.items:
        after = _and_or(and_or, cwd, found)
        if not background:
            cwd = after  # `&` runs the list in a subshell: its `cd` stays there
    return cwd


def _and_or(and_or: ast.AndOr, cwd: str | None, found: list[Target]) -> str | None:
    """A `&&` / `||` list: after a `cd` followed by `||` (run when it failed) or inside a
    pipeline (each command a subshell), where the rest runs is not known."""
    for index, pipeline in enumerate(and_or.parts):
        if len(pipeline.cmds) != 1:
            for command in pipeline.cmds:
                _command(command, cwd, found)
            continue
        after = _command(pipeline.cmds[0], cwd, found)
        failed_next = index < len(and_or.ops) and and_or.ops[index] == "||"
        cwd = None if after != cwd and ("||" in and_or.ops or failed_next) else after
    return cwd


def _command(node: ast.Command, cwd: str | None, found: list[Target]) -> str | None:
    for redir in node.redirs:
        _redirect(redir, cwd, found)
    if isinstance(node, ast.Simple):
        return _simple(node, cwd, found)
    if isinstance(node, ast.Func):
        _command(node.body, None, found)  # runs wherever it is called
        return cwd
    if isinstance(node, ast.Group):
        inside = _seq(node.body, cwd, found)
        return cwd if node.subshell else inside
    changed = False
    for body in ast.children(node):
        changed = _seq(body, cwd, found) != cwd or changed
    return None if changed else cwd


def _redirect(redir: ast.Redir, cwd: str | None, found: list[Target]) -> None:
    if redir.op not in WRITES:
        return
    name = ast.static(redir.target)
    if name is None or (redir.op == ">&" and (name.isdigit() or name == "-")):
        return  # `>&2`, `>&-`: a descriptor, not a file
    shverbs.add(found, name, cwd, redir.op)


def _simple(node: ast.Simple, cwd: str | None, found: list[Target]) -> str | None:
    for word in [*node.assigns, *node.words]:
        _substitutions(word, cwd, found)
    words = [ast.static(word) for word in node.words]
    words = shverbs.unwrap(words)
    if not words or words[0] is None:
        return cwd
    verb = posixpath.basename(words[0])
    if verb in ("cd", "pushd", "popd"):
        return _cd(words[1:], cwd) if verb != "popd" else None
    if verb in ("sh", "bash", "dash") and len(words) == 3 and words[1] == "-c" and words[2]:
        for path, where, inner, into in targets(words[2]):
            shverbs.add(found, path, _join(cwd, where), inner, into)
        return cwd
    if verb in ("apply_patch", "applypatch"):
        _patch(node, words, cwd, found)
        return cwd
    shverbs.operands(verb, words[1:], cwd, found)
    return cwd


def _patch(node: ast.Simple, words: list[str | None], cwd: str | None, found: list[Target]) -> None:
    """`apply_patch` (Codex CLI's, which it applies itself when a shell command runs it): the
    files its patch names, the patch its one argument or its here-document (one whose
    delimiter is not quoted and whose body holds `$`, a backquote or a backslash is expanded
    by a shell: not certain)."""
    from mj_watch.act import apply_patch as applypatch

    bodies = [r for r in node.redirs if r.op in ("<<", "<<-") and r.heredoc is not None]
    if len(words) == 2 and not bodies:
        text = words[1]
    elif len(words) == 1 and len(bodies) == 1:
        body = str(bodies[0].heredoc)
        text = body if bodies[0].quoted or not any(c in body for c in "$`\\") else None
    else:
        text = None
    if text is None:
        return
    try:
        for _, path in applypatch.targets(text):
            shverbs.add(found, path or ".", cwd, words[0] or "apply_patch")
    except applypatch.Unreadable:
        return  # a patch the client cannot read writes nothing


def _substitutions(word: ast.Word, cwd: str | None, found: list[Target]) -> None:
    for part in word.parts:
        if part.kind == ast.SUB and part.body is not None:
            _seq(part.body, cwd, found)


def _cd(args: list[str | None], cwd: str | None) -> str | None:
    rest = [a for a in args if a not in ("-L", "-P", "--")]
    if cwd is None or len(rest) != 1 or rest[0] is None or rest[0] in ("", "-"):
        return None  # `cd` alone goes home, `cd -` back: not readable from the text
    return _join(cwd, rest[0])


def _join(cwd: str | None, where: str | None) -> str | None:
    if cwd is None or where is None:
        return None if where is None or not where.startswith("/") else where
    return posixpath.normpath(posixpath.join(cwd, where))
