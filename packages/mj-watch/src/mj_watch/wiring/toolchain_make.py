"""`toolchain:Makefile` and `toolchain:justfile`: a recipe line that runs the declared command.

No parser of either language is a dependency, so only what these files state plainly is
proven: make and just run each recipe line by itself with `sh -c` and stop the recipe when it
fails, so a recipe line is proven as a one-line hook is (`wiring.prove`). What would decide what
runs, or how, beyond that line is FAIL "unproven", never OK on a guess: a make variable or a
just interpolation in the line (`$(…)`, `${…}`, `{{…}}`; make's `$$` is a plain `$`), a line
continued with `\\`, a shebang recipe, make's `.ONESHELL`, `SHELL`, `include` or conditionals,
just's `set` lines. A line that starts with `-` (both ignore its failure) and make's `.IGNORE`
lose the failure.
"""

from __future__ import annotations

import re

from mj_watch.wiring.call import Verdict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Sequence

    LineJudge = Callable[[str, bool, Sequence[str], Sequence[str]], Verdict | None]

MAKE_BLOCKERS = re.compile(
    r"^(?:\.ONESHELL\s*:|SHELL\s*[:?+!]?=|-?include\s|sinclude\s|ifn?eq\b|ifn?def\b)"
)
MAKE_TARGET = re.compile(r"^([^\s:=#][^:=#]*?)\s*::?(?!=)")
JUST_RECIPE = re.compile(r"^@?([A-Za-z_][A-Za-z0-9_-]*)\b[^:=]*:(?!=)")


def makefile(text: str, declared: Sequence[str], names: Sequence[str]) -> tuple[Verdict, str]:
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if MAKE_BLOCKERS.match(line):
            return Verdict("unproven", number, f"`{line.strip()}` decides how recipes run"), ""
        if re.match(r"^\.IGNORE\s*:", line):
            return Verdict("swallow", number, "`.IGNORE` makes make ignore every failure"), ""
    recipes = []
    target = ""
    for number, line in enumerate(lines, start=1):
        if line.startswith("\t") and target:
            recipes.append((number, target, line[1:], lines[number - 2].endswith("\\")))
            continue
        found = MAKE_TARGET.match(line)
        target = found.group(1).strip() if found else ("" if line.strip() else target)
    return _best(recipes, declared, names, _make_line)


def justfile(text: str, declared: Sequence[str], names: Sequence[str]) -> tuple[Verdict, str]:
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if line.startswith("set "):
            return Verdict("unproven", number, f"`{line.strip()}` changes how recipes run"), ""
    recipes = []
    recipe, script, first = "", False, False
    for number, line in enumerate(lines, start=1):
        if line[:1] in (" ", "\t") and recipe and line.strip():
            script = script or (first and line.strip().startswith("#!"))  # a shebang recipe
            whole = script or lines[number - 2].endswith("\\")
            recipes.append((number, recipe, line.strip(), whole))
            first = False
            continue
        found = JUST_RECIPE.match(line)
        if found:
            recipe, script, first = found.group(1), False, True
        elif line.strip() and not line.startswith(("#", "[")):
            recipe = ""
    return _best(recipes, declared, names, _just_line)


def _best(recipes: list[tuple[int, str, str, bool]], declared: Sequence[str],
          names: Sequence[str], judge: LineJudge) -> tuple[Verdict, str]:  # fmt: skip
    best = (Verdict("absent", 1, "no recipe line holds the call"), "")
    for number, name, line, continued in recipes:
        verdict = judge(line, continued, declared, names)
        if verdict is None:
            continue
        verdict.line = number
        if verdict.ok:
            return verdict, name
        if best[0].kind == "absent":
            best = (verdict, name)
    return best


def _mentions(line: str, declared: Sequence[str], names: Sequence[str]) -> bool:
    return any(n in line for n in names) and all(a in line for a in declared[1:])


def _shell_line(body: str, declared: Sequence[str], names: Sequence[str]) -> Verdict:
    from mj_watch.wiring import prove as hookproof

    return hookproof.prove(body + "\n", declared, names)


def _make_line(line: str, continued: bool, declared: Sequence[str],
               names: Sequence[str]) -> Verdict | None:  # fmt: skip
    if not _mentions(line, declared, names):
        return None
    body = line.lstrip("@+ ")
    ignored = body.startswith("-")
    body = body.lstrip("-@+ ")
    if continued or line.rstrip().endswith("\\"):
        return Verdict("unproven", 1, f"`{line.strip()}` is continued over lines")
    if re.search(r"\$(?!\$)", body.replace("$$", "")):
        return Verdict("unproven", 1, f"`{line.strip()}` holds a make variable")
    verdict = _shell_line(body.replace("$$", "$"), declared, names)
    if verdict.ok and ignored:
        return Verdict("swallow", 1, f"`{line.strip()}`: make ignores a `-` line's failure")
    return verdict if verdict.kind != "absent" else None


def _just_line(line: str, continued: bool, declared: Sequence[str],
               names: Sequence[str]) -> Verdict | None:  # fmt: skip
    if not _mentions(line, declared, names):
        return None
    body = line.lstrip("@ ")
    ignored = body.startswith("-")
    body = body.lstrip("-@ ")
    if continued or line.rstrip().endswith("\\"):
        return Verdict("unproven", 1, f"`{line}` is continued over lines or under a shebang")
    if "{{" in body:
        return Verdict("unproven", 1, f"`{line}` holds an interpolation")
    verdict = _shell_line(body, declared, names)
    if verdict.ok and ignored:
        return Verdict("swallow", 1, f"`{line}`: just ignores a `-` line's failure")
    return verdict if verdict.kind != "absent" else None
