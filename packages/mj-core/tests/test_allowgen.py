"""The allow lists are generated: regenerating them from the schemas changes nothing."""

from __future__ import annotations

import json

from mj_core import share
from mj_core.schema import allowgen

KINDS = ("manifest", "policy", "profile", "rule", "vendor-manifest", "current", "context")


def test_every_allow_list_is_what_its_schema_generates() -> None:
    stale = [
        str(target)
        for target, text in allowgen.expected().items()
        if not target.exists() or target.read_text(encoding="utf-8") != text
    ]
    assert stale == [], "run `python -m mj_core.schema.allowgen`"


def test_check_mode_exits_zero_when_current() -> None:
    assert allowgen.main(["--check"]) == 0


def test_every_file_kind_of_the_layer_has_a_schema_and_a_list() -> None:
    for kind in KINDS:
        assert share.path("schemas", f"{kind}.schema.json").is_file(), kind
        assert share.path("allow", f"{kind}.txt").is_file(), kind


def _objects(node: object) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append(node)
        for child in node.values():
            found += _objects(child)
    elif isinstance(node, list):
        for child in node:
            found += _objects(child)
    return found


def test_every_object_in_every_schema_is_closed() -> None:
    for kind in KINDS:
        schema = json.loads(share.path("schemas", f"{kind}.schema.json").read_bytes())
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        for node in _objects(schema):
            assert node.get("additionalProperties") is False, (kind, node)
            assert set(node["required"]) <= set(node["properties"]), (kind, node)
