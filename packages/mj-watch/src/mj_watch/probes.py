"""Environment probes, reported as INFO: what this doctor ran with (python, git) and which
optional tools this machine has. No check of doctor depends on them; the line says so, so a
reader knows nothing was skipped for their absence. The facts stage probes (`probe`); the
judge reports what the `env` fact says."""

from __future__ import annotations

from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_watch.factview import Facts

OPTIONAL = ("sh", "pre-commit", "jq", "yq")


VERSION_ARGS = ("--version",)


def probe(root: Path) -> dict[str, Any]:
    """The `env` fact: python's and git's versions, and which optional tools are on PATH."""
    import sys

    from mj_core import git

    from mj_watch.pathlookup import which

    code, out, _ = git.run(*VERSION_ARGS, cwd=root)
    version = out.strip().removeprefix("git version ") if code == 0 else "unavailable"
    tools = {name: which(name) is not None for name in OPTIONAL}
    return {
        "kind": "fact",
        "fact": "env",
        "python": sys.version.split()[0],
        "git": version,
        "tools": tools,
    }


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
