"""What `majordomus mcp` answers, without the protocol: four tools and the resources.

The tools are the read-only commands, composed in-process exactly as the dispatcher composes
them (`search`, `context`), and the catalogue of records and layer objects (`get`, `list`,
`mj_state.search.catalogue`). Nothing here writes: every answer is text read from the repository.
An error a command ends with is the tool's error text; an unknown or path-shaped resource is
an `MjError` the server turns into a protocol error.
"""

from __future__ import annotations

import io

from mj_core.errors import MjError
from mj_core.errors import UsageError

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer
    from mj_state.search.catalogue_entry import Entry

PAGE = 100  # resources per resources/list page
SCHEME = "majordomus://"


def _kinds() -> list[str]:
    from mj_state.search import catalogue

    return list(catalogue.KINDS)


def _search_kinds() -> list[str]:
    from mj_state.search import corpus as searchcorpus

    return list(searchcorpus.KINDS)


def tools() -> list[dict[str, Any]]:
    """The four tools: name, a short description, the input schema."""
    return [
        {
            "name": "search",
            "description": "Find lines of the durable records that contain a text (literal, "
            "any case), in authority order.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "minLength": 1},
                    "kind": {"type": "array", "items": {"enum": _search_kinds()}},
                    "task": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1},
                },
                "required": ["text"],
            },
        },
        {
            "name": "get",
            "description": "One record or layer object by its majordomus://<kind>/<id> URI.",
            "input_schema": {
                "type": "object",
                "properties": {"uri": {"type": "string"}},
                "required": ["uri"],
            },
        },
        {
            "name": "list",
            "description": "The URIs and titles of every object of one kind.",
            "input_schema": {
                "type": "object",
                "properties": {"kind": {"enum": _kinds()}},
                "required": ["kind"],
            },
        },
        {
            "name": "context",
            "description": "The budgeted briefing for the work in this checkout.",
            "input_schema": {"type": "object", "properties": {}},
        },
    ]


def call(root: Path, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
    """(the tool's text, whether it is an error); an answer is redacted of every credential
    (an error says only what the caller asked)."""
    text, failed = _called(root, name, arguments)
    if failed:
        return text, failed
    from mj_core.credentials import detect as credentials

    return credentials.redact(text)[0], failed


def _called(root: Path, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
    try:
        if name == "search":
            return _search(root, arguments)
        if name == "context":
            code, out, err = command(root, ["context"])
            return (out, False) if code == 0 else (err.strip() or out, True)
        if name == "get":
            return read(root, str(arguments.get("uri", "")))[1], False
        if name == "list":
            listed = _layer_entries(root, str(arguments.get("kind", "")))
            return "".join(f"{e.uri}  {e.title}\n" for e in listed) or "(none)\n", False
    except MjError as exc:
        return exc.message, True
    return f"unknown tool {name!r} (search, get, list, context)", True


def _search(root: Path, arguments: dict[str, Any]) -> tuple[str, bool]:
    argv = ["search", str(arguments.get("text", ""))]
    for kind in arguments.get("kind") or []:
        argv += ["--kind", str(kind)]
    if arguments.get("task"):
        argv += ["--task", str(arguments["task"])]
    if arguments.get("limit") is not None:
        argv += ["--limit", str(arguments["limit"])]
    code, out, err = command(root, argv)
    if code == 12:  # nothing matched: an answer, not a failure
        return "search: 0 match(es)\n", False
    return (out, False) if code == 0 else (err.strip(), True)


def command(root: Path, argv: list[str]) -> tuple[int, str, str]:
    """A read-only command run in-process as the dispatcher runs it: (code, stdout, stderr)."""
    from mj_core.declaration import commands as declare
    from mj_knowledge import brief_cache as briefcache

    from majordomus import cli
    from majordomus import compose
    from majordomus.invocation import Invocation

    briefcache.KEEPING[0] = False  # the server writes nothing: the briefing's cache is read only
    name, rest = cli.split(["--repo", str(root), *argv])
    assert name is not None
    options = cli.parser_for(name).parse_args(rest)
    options.command = name
    out, err = io.StringIO(), io.StringIO()
    inv = Invocation(cwd=root, repo=root, stdout=out, stderr=err, _root=root)
    argvs = compose.stages(declare.command(name), options, inv)
    code: int = cli.module_for(name).render(compose.run(argvs, inv), options, inv)
    return code, out.getvalue(), err.getvalue()


def _layer_entries(root: Path, kind: str) -> list[Entry]:
    from mj_policy.layer.loader import load
    from mj_state.search import catalogue

    return catalogue.entries(load(root), kind)


def resources(root: Path, cursor: str | None) -> tuple[list[Entry], str | None]:
    """One page of every object of every kind, and the cursor of the next page (None: last)."""
    from mj_policy.layer.loader import load
    from mj_state.search import catalogue

    start = int(cursor) if cursor and cursor.isdigit() else 0
    if cursor and not cursor.isdigit():
        raise UsageError(f"{cursor!r}: not a cursor this server gave")
    layer = load(root)
    every = [entry for kind in catalogue.KINDS for entry in _listed(layer, kind)]
    page = every[start : start + PAGE]
    return page, (str(start + PAGE) if start + PAGE < len(every) else None)


def _listed(layer: Layer, kind: str) -> list[Entry]:
    """One kind's objects; knowledge nodes that cannot be listed (a sources file with a defect,
    git failing) are left out of the listing, and `list knowledge` says why."""
    from mj_state.search import catalogue

    try:
        return catalogue.entries(layer, kind)
    except MjError:
        if kind != "knowledge":
            raise
        return []


def read(root: Path, uri: str) -> tuple[Entry, str]:
    """The object a `majordomus://<kind>/<id>` URI names, and its text."""
    from mj_policy.layer.loader import load
    from mj_state.search import catalogue

    if not uri.startswith(SCHEME) or "/" not in uri[len(SCHEME) :]:
        raise UsageError(f"{uri!r}: not a majordomus://<kind>/<id> URI")
    kind, ident = uri[len(SCHEME) :].split("/", 1)
    layer = load(root)
    entry = catalogue.find(layer, kind, ident)
    from mj_core.credentials import (
        detect as credentials,  # a resource is shown redacted, like every answer
    )

    return entry, credentials.redact(catalogue.text(layer, entry))[0]


def mime(entry: Entry) -> str:
    if entry.kind == "ledger":
        return "application/json"
    return "application/yaml" if entry.path.endswith((".yaml", ".yml")) else "text/markdown"
