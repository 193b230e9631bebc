"""Generate `share/allow/<kind>.txt` from `share/schemas/<kind>.schema.json`.

`python -m mj_core.schema.allowgen` rewrites the lists; `--check` exits 10 when any differs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mj_core import share
from mj_core.stream import jsonl

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

HEADER = (
    "# GENERATED FILE — DO NOT EDIT DIRECTLY\n"
    "# Source: share/schemas/{kind}.schema.json; "
    "regenerate with `python -m mj_core.schema.allowgen`\n"
)


def key_paths(schema: dict[str, Any], prefix: str = "") -> Iterator[str]:
    if "properties" in schema:
        for key, child in schema["properties"].items():
            dotted = f"{prefix}.{key}" if prefix else key
            yield dotted
            yield from key_paths(child, dotted)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        yield f"{prefix}.*" if prefix else "*"
    if isinstance(schema.get("items"), dict):
        yield from key_paths(schema["items"], f"{prefix}[]")


def render(kind: str, schema: dict[str, Any]) -> str:
    return HEADER.format(kind=kind) + "".join(f"{line}\n" for line in key_paths(schema))


def expected() -> dict[Path, str]:
    base = share.root()
    out = {}
    for path in sorted((base / "schemas").glob("*.schema.json")):
        kind = path.name.removesuffix(".schema.json")
        out[base / "allow" / f"{kind}.txt"] = render(kind, jsonl.loads_line(path.read_bytes()))
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    stale = []
    for target, text in expected().items():
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current == text:
            continue
        stale.append(target)
        if "--check" not in args:
            from mj_core.write import atomic

            atomic.create(target, text.encode("utf-8"), replace=True, root=share.root())
    for target in stale:
        print(f"{'stale' if '--check' in args else 'wrote'}: {target}")
    return 10 if stale and "--check" in args else 0


if __name__ == "__main__":
    raise SystemExit(main())
