"""Generate `share/commands.json` from `share/commands.yaml`, `share/events.json` from
`share/events.yaml` and `share/providers.json` from `share/providers.yaml`, after judging
each: a JSON file is read at start-up in a fraction of the time its YAML takes.

`python -m mj_core.declaration.generate` writes them; `--check` exits 10 when one differs or a
declaration
is wrong. The events: each a name with its `writer`, its `required` and `optional` payload
keys (none of them an envelope key) and the type of each of those keys (`types`, exactly
them); the envelope's keys, each typed. The commands, judged beyond their schema: every command in
a group is declared and every declared command is reachable; every stage a pipeline names is
declared; every forwarded option is the command's own; a stage never receives two different
options under one name; every command that runs declares the kinds its `--json` writes, each
a kind with a schema (`share/schemas/pipeline/<kind>.json`), unless it takes no `--json`.
"""

from __future__ import annotations

import json
import sys

from mj_core import share
from mj_core.declaration import commands as declare
from mj_core.schema import full as schema
from mj_core.yaml import strict as yamlstrict

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

SOURCE = "commands.yaml"
TARGET = "commands.json"
EVENTS_SOURCE = "events.yaml"
EVENTS = "events.json"
ENVELOPE = frozenset({"ts", "event", "head", "branch", "by", "session", "task_id", "prev"})


def expected() -> bytes:
    doc = yamlstrict.load_file(share.path(SOURCE), f"share/{SOURCE}")
    problems = [f"{where}: {what}" for where, what in schema.violations(doc, "commands")]
    problems += list(judge(doc.data))
    if problems:
        raise SystemExit(f"share/{SOURCE}: {problems[0]}")
    return lined(doc.data)


def lined(data: dict[str, Any]) -> bytes:
    """The declaration as JSON, one command or stage a line (`mj_core.declaration.one`), with
    the flags that take a value and every command and stage in order (`index`) in the head and,
    beside each stage, the options commands
    forward to it (`forwarded`)."""
    flags = {
        str(option["flag"])
        for spec in data["commands"]
        for option in spec.get("options") or []
        if option.get("flag") and option.get("kind", "flag") != "flag"
    }
    rest = {k: v for k, v in data.items() if k not in ("commands", "stages")}
    index = {
        "commands": [c["name"] for c in data["commands"]],
        "stages": [[s["tool"], s["name"]] for s in data["stages"]],
    }
    head = _json({**rest, "value_flags": sorted(flags), "index": index})[:-2]  # open brace
    commands = b",\n".join(_json(c).rstrip(b"\n") for c in data["commands"])
    every = data["commands"]
    stages = b",\n".join(
        _json({**s, "forwarded": declare.forwarded(s, every)}).rstrip(b"\n") for s in data["stages"]
    )
    return b'%s,"commands":[\n%s\n],"stages":[\n%s\n]}\n' % (head, commands, stages)


def expected_events() -> bytes:
    doc = yamlstrict.load_file(share.path(EVENTS_SOURCE), f"share/{EVENTS_SOURCE}")
    problems = list(judge_events(doc.data))
    if problems:
        raise SystemExit(f"share/{EVENTS_SOURCE}: {problems[0]}")
    return _json(doc.data)


PROVIDERS_SOURCE = "providers.yaml"
PROVIDERS = "providers.json"


def expected_providers() -> bytes:
    """The provider table as JSON, one provider a line (`mj_core.share.provider_row` decodes
    one without the others); its schema is held to it by the tests, not here."""
    doc = yamlstrict.load_file(share.path(PROVIDERS_SOURCE), f"share/{PROVIDERS_SOURCE}")
    rest = {k: v for k, v in doc.data.items() if k != "providers"}
    rows = b",\n".join(_json({k: v})[1:-2] for k, v in doc.data["providers"].items())
    return b'%s,"providers":{\n%s\n}}\n' % (_json(rest)[:-2], rows)


def _json(data: Any) -> bytes:
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def judge_events(data: Any) -> Iterator[str]:
    events = data.get("events") if type(data) is dict else None
    if type(data) is not dict or set(data) != {"envelope", "events"} or type(events) is not dict:
        yield "the document is two mappings, `envelope` and `events`"
        return
    yield from _types("envelope", data["envelope"], ENVELOPE)
    for name, spec in events.items():
        if type(spec) is not dict or set(spec) != {"writer", "required", "optional", "types"}:
            yield f"{name}: exactly `writer`, `required`, `optional` and `types`"
            continue
        if type(spec["writer"]) is not str or not spec["writer"]:
            yield f"{name}: `writer` names the command that writes it"
        keys: set[str] = set()
        for key in ("required", "optional"):
            named = spec[key]
            if type(named) is not list or not all(type(k) is str for k in named):
                yield f"{name}: `{key}` is a list of key names"
                continue
            if ENVELOPE.intersection(named):
                yield f"{name}: {sorted(ENVELOPE.intersection(named))[0]!r} is an envelope key"
            keys.update(named)
        yield from _types(name, spec["types"], keys)


def _types(name: str, types: Any, keys: set[str] | frozenset[str]) -> Iterator[str]:
    """`types` maps exactly `keys`, each to a type expression (`mj_core.json_types`)."""
    from mj_core import json_types as jsontypes

    if type(types) is not dict or set(types) != set(keys):
        yield f"{name}: `types` names exactly its keys: {', '.join(sorted(keys)) or 'none'}"
        return
    for key, expression in types.items():
        try:
            jsontypes.compile_type(str(expression))
        except ValueError as exc:
            yield f"{name}: {key}: {exc}"


def judge(data: dict[str, Any]) -> Iterator[str]:
    commands = {c["name"]: c for c in data["commands"]}
    stages = {(s["tool"], s["name"]): s for s in data["stages"]}
    grouped = [name for group in data["groups"] for name in group["commands"]]
    for name in grouped:
        if name not in commands:
            yield f"group names {name!r}, which is not declared"
    for name, spec in commands.items():
        parent = name.split(" ", 1)[0]
        if parent not in grouped:
            yield f"{name!r} is in no group"
        if " " in name and name.split(" ", 1)[1] not in (commands[parent].get("actions") or []):
            yield f"{name!r} is not an action of {parent!r}"
        yield from _pipeline(spec, stages)
        yield from _emits(spec)
    yield from _forwarded(data["commands"], stages)


def _emits(spec: dict[str, Any]) -> Iterator[str]:
    runs = spec.get("pipeline") or spec.get("render") or spec["name"] in ("version", "mcp serve")
    if spec.get("json") == "none":
        if spec.get("emits"):
            yield f"{spec['name']}: takes no --json, yet declares what it emits"
        return
    if runs and "emits" not in spec:
        yield f"{spec['name']}: declares no `emits` (the kinds its --json writes)"
    for kind in spec.get("emits") or []:
        if not share.path("schemas", "pipeline", f"{kind}.json").is_file():
            yield f"{spec['name']}: emits {kind!r}, which has no schema under schemas/pipeline/"


def _pipeline(spec: dict[str, Any], stages: dict[tuple[str, str], Any]) -> Iterator[str]:
    declared = {o["name"] for o in spec.get("options") or []}
    for step in spec.get("pipeline") or []:
        if tuple(step["stage"][:2]) not in stages:
            yield f"{spec['name']}: stage {' '.join(step['stage'][:2])} is not declared"
        conditions = [step[key] for key in ("when", "unless") if key in step]
        for name in [*(step.get("forward") or []), *conditions]:
            if name not in declared:
                yield f"{spec['name']}: forwards {name!r}, which it does not declare"


def _forwarded(commands: list[Any], stages: dict[tuple[str, str], Any]) -> Iterator[str]:
    seen: dict[tuple[str, str, str], Any] = {}
    for (tool, name), stage in stages.items():
        for option in stage.get("options") or []:
            seen[(tool, name, option["name"])] = option
    for spec in commands:
        options = {o["name"]: o for o in spec.get("options") or []}
        for step in spec.get("pipeline") or []:
            for option in step.get("forward") or []:
                sent = (str(step["stage"][0]), str(step["stage"][1]), str(option))
                if sent in seen and seen[sent] != options.get(option):
                    yield f"{spec['name']}: option {option!r} differs from another sent there"
                seen.setdefault(sent, options.get(option))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    made = ((TARGET, expected()), (EVENTS, expected_events()), (PROVIDERS, expected_providers()))
    for name, data in made:
        target = share.path(name)
        current = target.read_bytes() if target.is_file() else b""
        if "--check" in args:
            if current != data:
                print(
                    f"share/{name} is stale: run `python -m mj_core.declaration.generate`",
                    file=sys.stderr,
                )
                return 10
            continue
        target.write_bytes(data)
        print(f"wrote: {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
