"""The arguments the pre-commit framework's generated hook hands to `pre-commit hook-impl`.

The script sets `ARGS=(hook-impl --config=<file> --hook-type=<its hook> [--skip-on-missing-
config])` in its templated block and appends `ARGS+=(--hook-dir "$HERE" -- "$@")`. Any other
write to ARGS, INSTALL_PYTHON or HERE, another hook type (the hook would run another stage's
hooks) or another configuration file is refused, with the line.
"""

from __future__ import annotations

from mj_watch.shell import syntax as ast

NAMES = ("ARGS", "INSTALL_PYTHON", "HERE")
OPTIONAL = frozenset(("--skip-on-missing-config",))


def check(tree: ast.Seq, hook_type: str, config: str) -> tuple[int, str] | None:
    """(line, why) when the script's ARGS are not the framework's for `hook_type`."""
    sets = appends = 0
    for command in ast.commands(tree):
        if not isinstance(command, ast.Simple):
            continue
        for name, items in command.arrays:
            problem = _array(name, items, hook_type, config)
            if problem:
                return command.line, problem
            sets += name == "ARGS"
            appends += name == "ARGS+"
        problem = _other_writes(command)
        if problem:
            return command.line, problem
    if (sets, appends) != (1, 1):
        return 1, "ARGS is not set once and extended once, as the framework writes it"
    return None


def _array(name: str, items: list[ast.Word], hook_type: str, config: str) -> str | None:
    values = [ast.static(w) for w in items]
    if name == "ARGS":
        expected = {f"--config={config}", f"--hook-type={hook_type}"}
        if values[:1] != ["hook-impl"] or not expected <= set(values[1:]):
            return f"ARGS does not run `hook-impl --config={config} --hook-type={hook_type}`"
        if not set(values[1:]) <= expected | OPTIONAL or len(values) != len(set(values)):
            return "ARGS passes hook-impl options the framework does not write"
        return None
    if name == "ARGS+":
        shape = [values[0], ast.param(items[1]) if len(items) > 1 else None, *values[2:3]]
        if len(items) != 4 or shape != ["--hook-dir", "HERE", "--"] or ast.param(items[3]) != "@":
            return 'ARGS is extended with more than `--hook-dir "$HERE" -- "$@"`'
        return None
    return f"`{name}=(…)` is not written by the framework" if name.rstrip("+") in NAMES else None


def _other_writes(command: ast.Simple) -> str | None:
    for word in command.assigns:
        name = ast.assignment(word)
        if name == "INSTALL_PYTHON" and ast.static(word) is None:
            return "INSTALL_PYTHON is set to an expansion"
        if name == "ARGS":
            return "ARGS is set to a string"
    for word in command.words[1:]:
        value = ast.static(word) or ""
        if value.split("=", 1)[0] in NAMES:
            return f"`{ast.static(command.words[0])} {value}` changes the framework's variables"
    return None
