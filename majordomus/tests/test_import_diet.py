"""Import diet: loading any module of the tools loads none of the slow standard modules.

Every command is a fresh process run from git hooks, so what a module imports at load time is
paid on every run. In a fresh interpreter this imports every module of mj_core, mj_policy,
mj_state, mj_context and mj_watch (but `mj_core.yaml.events`, PyYAML's fallback reader, imported
only for a text the line reader declines, each `__main__`, which runs its tool, and the modules
of the benchmark harness `mj_watch.bench`, whose `__init__` alone is imported), the
dispatcher's modules and every dispatched command module (`bench` and `tour` excepted: they are
not on a hook's path, though `majordomus --help`, also probed, imports them for their HELP),
then builds and formats each command's parser (argparse's formatter would import shutil), and
fails naming the module (or step) that first brought a banned one in. A module that hashes
imports `hashlib` in the function that hashes, so `hashlib` is banned at load time too.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import mj_context
import mj_core
import mj_policy
import mj_state
import mj_watch
from mj_core.declaration import commands as declare

from majordomus import commands

BANNED = (
    *("typing", "dataclasses", "shutil", "tempfile", "inspect", "subprocess", "platform"),
    *("getpass", "uuid", "random", "yaml", "jsonschema", "orjson", "_strptime", "hashlib"),
    "datetime",
    "mcp",  # the MCP SDK: `majordomus mcp` imports it when it serves, nothing else does
)
PACKAGES = (mj_core, mj_policy, mj_state, mj_context, mj_watch)
NOT_LOADED_AT_START = ("mj_core.yaml.events", "mj_core.credentials.scan")  # imported on demand
DISPATCHER = ("cli", "compose", "render", "invocation", "commands")
OFF_THE_HOOK_PATH = ("bench", "tour")
# folders no hook-path command imports at load (the benchmark, CI's judge, the remote)
OFF_THE_HOOK_PATH_PACKAGES = ("mj_watch.bench.", "mj_watch.verify.", "mj_state.remote.",
                              "mj_state.verifyfacts.")  # fmt: skip
PROBE = """
import importlib, json, sys
banned, modules, commands = json.loads(sys.argv[1])
added = {}

def note(step):
    for name in banned:
        if name in sys.modules and name not in added:
            added[name] = step

note("(the interpreter)")
for module in modules:
    importlib.import_module(module)
    note(module)
from majordomus.cli import parser_for, usage
usage()
note("majordomus --help")
for name in commands:
    parser_for(name).format_help()
    note(f"parser of {name}")
print(json.dumps(added))
"""


def command_names() -> list[str]:
    """Every declared command and action but those off the hook path (`version` has no parser:
    it is dispatched before parsing)."""
    return [
        name
        for name in declare.commands()
        if name.split(" ", 1)[0] not in OFF_THE_HOOK_PATH
        and name != "version"
        and (declare.command(name).get("pipeline") or not declare.command(name).get("actions"))
    ]


def package_modules() -> list[str]:
    found = []
    for package in PACKAGES:
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if module.name.startswith(OFF_THE_HOOK_PATH_PACKAGES) or module.ispkg:
                continue
            if not module.name.endswith(".__main__") and module.name not in NOT_LOADED_AT_START:
                found.append(module.name)
    return found


def modules() -> list[str]:
    dispatcher = [f"majordomus.{name}" for name in DISPATCHER]
    parents = dict.fromkeys(n.split(" ", 1)[0] for n in command_names())
    return package_modules() + dispatcher + [commands.module_name(n) for n in parents]


def probe(banned: tuple[str, ...], names: list[str], parsers: list[str]) -> dict[str, str]:
    argument = json.dumps([banned, names, parsers])
    done = subprocess.run(
        [sys.executable, "-c", PROBE, argument], capture_output=True, text=True, check=True
    )
    added: dict[str, str] = json.loads(done.stdout)
    return added


def test_the_probe_names_the_module_that_brought_a_banned_one() -> None:
    assert probe(("tempfile",), ["json", "tempfile"], []) == {"tempfile": "tempfile"}


def test_the_probe_covers_every_hook_path_command() -> None:
    names = command_names()
    assert {"check", "context", "doctor", "finish", "watch", "start"} <= set(names)
    assert "majordomus.commands.task.check" in modules() and "mj_core.findings" in modules()
    assert {
        "mj_policy.layer.loader",
        "mj_state.ledger.store",
        "mj_context.build",
        "mj_watch.doctor.judge",
    } <= set(modules())


def test_no_start_up_module_imports_a_banned_module() -> None:
    added = probe(BANNED, modules(), command_names())
    assert added == {}, f"banned at import (module: first importer): {added}"
