"""Environment probes, reported as INFO: what this doctor ran with (python, git) and which
optional tools this machine has. No check of doctor depends on them; the line says so, so a
reader knows nothing was skipped for their absence. The facts stage probes (`probe`); the
judge reports what the `env` fact says — and a FAIL for each replace ref or graft file the
repository holds (every git call reads git without them: `mj_core.git.run`)."""

from __future__ import annotations

from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_watch.doctor.facts_view import Facts

OPTIONAL = ("sh", "pre-commit", "jq", "yq")


VERSION_ARGS = ("--version",)


def probe(root: Path) -> dict[str, Any]:
    """The `env` fact: python's and git's versions, and which optional tools are on PATH."""
    import sys

    from mj_core.git import questions as git

    from mj_watch.wiring.path_lookup import which

    code, out, _ = git.run(*VERSION_ARGS, cwd=root)
    version = out.strip().removeprefix("git version ") if code == 0 else "unavailable"
    tools = {name: which(name) is not None for name in OPTIONAL}
    return {
        "kind": "fact",
        "fact": "env",
        "python": sys.version.split()[0],
        "git": version,
        "tools": tools,
        "replaced": replaced(root),
    }


def replaced(root: Path) -> dict[str, Any]:
    """The replace refs (`git replace`) and the graft file (`info/grafts`) of the repository,
    read from its common git directory without a git process: the runner switches both off,
    yet their presence says someone meant a commit to look other than it is."""
    import os

    from mj_core.git import questions as git

    common = git.common_dir(root)
    refs: list[str] = []
    for folder, _, names in os.walk(common / "refs" / "replace"):
        refs += [os.path.relpath(os.path.join(folder, n), common) for n in names]
    try:
        packed = (common / "packed-refs").read_bytes()
    except OSError:
        packed = b""
    for line in packed.splitlines():
        name = line.partition(b" ")[2].decode("utf-8", "replace")
        if name.startswith("refs/replace/") and not line.startswith((b"#", b"^")):
            refs.append(name)
    grafts = common / "info" / "grafts"
    return {"refs": sorted(set(refs)), "grafts": grafts.is_file() and grafts.stat().st_size > 0}


def git_as_it_is(facts: Facts) -> Iterator[Finding]:
    """FAIL for replace refs or a graft file: git is read without them, and they should go."""
    from shlex import quote

    found = facts.get("env").get("replaced") or {}
    for ref in found.get("refs") or []:
        message = "a replacement object: git shows another object in its place (majordomus reads "
        message += "git without it) — remove it unless the project means it"
        yield Finding(
            "FAIL", "git", ref, message, f"git replace -l; git replace -d {quote(ref[13:])}"
        )
    if found.get("grafts"):
        message = "grafts rewrite commits' parents (majordomus reads git without them) — remove it"
        yield Finding(
            "FAIL",
            "git",
            "info/grafts",
            message,
            'cat "$(git rev-parse --git-common-dir)/info/grafts"',
        )


def environment(facts: Facts) -> Iterator[Finding]:
    """Probes, reported as INFO: what this doctor ran with."""
    env = facts.get("env")
    message = f"python {env.get('python')}, git {env.get('git') or 'unavailable'}"
    yield Finding("INFO", "env", "tools", message)


def optional_tools(facts: Facts) -> Iterator[Finding]:
    tools = facts.get("env").get("tools") or {}
    found = [f"{name} {'present' if tools.get(name) else 'absent'}" for name in OPTIONAL]
    message = ", ".join(found) + "; no doctor check needs them, none was skipped"
    yield Finding("INFO", "env", "optional tools", message)
