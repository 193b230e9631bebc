"""`wired_by: toolchain:<file>`: the repository's own toolchain file runs the declared command
with its arguments, and a failure of the command fails the toolchain's step.

Each file is read in its own syntax, and what cannot be read for certain is FAIL "unproven",
never OK on a guess:
- `tox.ini` (read by `configparser`, as tox reads it): a `commands` or `commands_pre` line of
  an environment `env_list` runs (its own section, else `[testenv]`) that is exactly the
  command (tox runs it without a shell and fails the environment when it fails). A line that
  starts with `-` (tox ignores its status) or an environment with `ignore_outcome = true` loses
  the failure; a call behind a factor condition or a `{…}` substitution is unproven.
- `package.json` (read by `json`): a `scripts` entry, run by npm with `sh -c`, proven as a hook
  is (`wiring.prove`): the call reached on every path and its status carried out.
- `Makefile` and `justfile` (`mj_watch.wiring.toolchain_make`): a recipe line, run by its own `sh
-c`.
A file with another name is not a toolchain file this tool reads.
"""

from __future__ import annotations

import shlex

from mj_core.findings import Finding

from mj_watch.wiring.call import Verdict
from mj_watch.wiring.call import named

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Sequence
    from configparser import RawConfigParser
    from typing import Any

    Judge = Callable[[str, Sequence[str], Sequence[str]], tuple[Verdict, str]]

CATEGORY = "wiring"  # the wiring check's (`mj_watch.wiring.check`), which reports this finding
MAKEFILES = ("Makefile", "makefile", "GNUmakefile")
JUSTFILES = ("justfile", "Justfile", ".justfile")


def wired(
    told: dict[str, Any], name: str, declared: Sequence[str], names: Sequence[str], value: str
) -> Finding:
    """The wiring finding of the entry `name` (`wired_by: toolchain:<value>`), over the
    `hooks` fact."""
    found_file = (told.get("toolchain") or {}).get(value) or {}
    if found_file.get("type") != "file":
        return Finding(
            "FAIL", CATEGORY, name, f"{value} does not exist", f"ls -l {shlex.quote(value)}"
        )
    command = shlex.join(declared)
    verdict, where = judge(value, str(found_file.get("text") or ""), declared, names)
    at = f"{value}:{verdict.line}" + (f" ({where})" if where else "")
    if verdict.kind == "absent":
        grep = f"grep -n -e {shlex.quote(command)} {shlex.quote(value)}"
        return Finding("FAIL", CATEGORY, name, f"{value} does not run `{command}`", grep)
    if not verdict.ok:
        what = "loses the failure" if verdict.kind == "swallow" else "unproven"
        reproduce = f"sed -n {max(verdict.line, 1)}p {shlex.quote(value)}"
        return Finding("FAIL", CATEGORY, name, f"{at} {what}: {verdict.reason}", reproduce)
    return Finding("OK", CATEGORY, name, f"`{command}` runs from {at}")


def judge(
    path: str, text: str, declared: Sequence[str], names: Sequence[str]
) -> tuple[Verdict, str]:
    """(the verdict, where: the environment, script or target that runs it) for `path`."""
    found = _judge_for(path)
    if found is None:
        kinds = ", ".join(("tox.ini", "package.json", *MAKEFILES, *JUSTFILES))
        return Verdict("unproven", 1, f"not a toolchain file this majordomus reads ({kinds})"), ""
    return found(text, declared, names)


def _judge_for(path: str) -> Judge | None:
    name = path.rsplit("/", 1)[-1]
    if name == "tox.ini":
        return tox
    if name == "package.json":
        return package_json
    if name in MAKEFILES or name in JUSTFILES:
        from mj_watch.wiring import toolchain_make as toolchainmake

        return toolchainmake.makefile if name in MAKEFILES else toolchainmake.justfile
    return None


def _calls(words: list[str], declared: Sequence[str], names: Sequence[str]) -> bool:
    return bool(words) and named(names, words[0]) and words[1:] == list(declared[1:])


def _mentions(line: str, declared: Sequence[str], names: Sequence[str]) -> bool:
    return any(n in line for n in names) and all(a in line for a in declared[1:])


def tox(text: str, declared: Sequence[str], names: Sequence[str]) -> tuple[Verdict, str]:
    import configparser

    parser = configparser.RawConfigParser(strict=True)
    try:
        parser.read_string(text, "tox.ini")
    except configparser.Error as exc:
        return Verdict("unproven", 1, f"tox.ini does not read: {str(exc).splitlines()[0]}"), ""
    envs = _env_list(parser)
    if envs is None:
        return Verdict("unproven", 1, "its env_list is generated (`{…}`): not expanded here"), ""
    best = (Verdict("absent", 1, "no environment tox runs holds the call"), "")
    for env in envs or [""]:
        own = f"testenv:{env}"
        section = own if env and parser.has_option(own, "commands") else "testenv"
        verdict = (
            _tox_env(parser, section, declared, names) if parser.has_section(section) else None
        )
        if verdict is None or verdict.kind == "absent":
            continue
        verdict.line = line_of(text, verdict.reason.split("`")[1] if "`" in verdict.reason else "")
        if verdict.ok:
            return verdict, env or "testenv"
        best = (verdict, env or "testenv") if best[0].kind == "absent" else best
    return best


def line_of(text: str, snippet: str) -> int:
    """The number of the first line of `text` holding `snippet` (1 when none does)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if snippet and snippet in line:
            return number
    return 1


def _env_list(parser: RawConfigParser) -> list[str] | None:
    for key in ("env_list", "envlist"):
        if parser.has_option("tox", key):
            raw = parser.get("tox", key)
            if "{" in raw:
                return None
            return [e.strip() for e in raw.replace("\n", ",").split(",") if e.strip()]
    return []


def _tox_env(
    parser: RawConfigParser, section: str, declared: Sequence[str], names: Sequence[str]
) -> Verdict:
    outcome = parser.get(section, "ignore_outcome", fallback="false").strip().lower()
    for key in ("commands_pre", "commands"):
        for line in _joined(parser.get(section, key, fallback="")):
            verdict = _tox_line(line, declared, names)
            if verdict is None:
                continue
            if verdict.ok and outcome in ("true", "1", "yes"):
                said = f"`{line}` runs, but [{section}] sets ignore_outcome = true"
                return Verdict("swallow", 1, said)
            return verdict
    return Verdict("absent", 1, "")


def _joined(value: str) -> list[str]:
    out: list[str] = []
    for line in value.split("\n"):
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1] + line.strip()
        elif line.strip():
            out.append(line.strip())
    return out


def _tox_line(line: str, declared: Sequence[str], names: Sequence[str]) -> Verdict | None:
    ignored = line.startswith("-")
    body = line[1:].strip() if ignored else line
    try:
        words = shlex.split(body)
    except ValueError:
        words = []
    if _calls(words, declared, names):
        if ignored:
            return Verdict("swallow", 1, f"`{line}`: tox ignores the status of a `-` line")
        return Verdict("ok", 1, f"`{line}`")
    if _mentions(line, declared, names) and ("{" in line or ":" in line.split(" ", 1)[0]):
        reason = f"`{line}`: a factor condition or a substitution decides what runs"
        return Verdict("unproven", 1, reason)
    return None


def package_json(text: str, declared: Sequence[str], names: Sequence[str]) -> tuple[Verdict, str]:
    import json

    from mj_watch.wiring import prove as hookproof

    try:
        data = json.loads(text)
    except ValueError as exc:
        return Verdict("unproven", 1, f"package.json is not JSON: {exc}"), ""
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return Verdict("absent", 1, "package.json has no scripts"), ""
    best: tuple[Verdict, str] = (Verdict("absent", 1, "no script holds the call"), "")
    for name, script in scripts.items():
        if not isinstance(script, str):
            continue
        verdict = hookproof.prove(script + "\n", declared, names)
        verdict.line = line_of(text, f'"{name}"')
        if verdict.ok:
            return verdict, f"scripts.{name}"
        if verdict.kind != "absent" and best[0].kind == "absent":
            best = (verdict, f"scripts.{name}")
    return best
