"""Write `share/standard/majordomus/manifest.yaml` from the rule files beside it.

`python -m mj_policy.rules.vendorgen` rewrites the manifest; `--check` exits 10 when it is stale.
Each rule's front matter is closed (allow list and required keys) before it is listed.
"""

from __future__ import annotations

import sys

from mj_core import share
from mj_core.funnel import guard
from mj_core.yaml import strict as yamlstrict

from mj_policy.layer import loader as layer
from mj_policy.rules import package as rulepkg

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

VENDOR = "majordomus"


def package() -> Path:
    return share.path("standard", VENDOR)


def expected() -> str:
    base = package()
    for relative in rulepkg.rule_files(base):
        layer.close(rulepkg.front_matter(base / relative, relative), "rule")
    data = rulepkg.manifest_data(base, vendor=VENDOR, revision=share.version())
    text = rulepkg.render(data)
    yamlstrict.parse(text, rulepkg.MANIFEST)  # what we write must read back under the subset
    return text


def _run(args: list[str]) -> int:
    target = package() / rulepkg.MANIFEST
    text = expected()
    current = target.read_text(encoding="utf-8") if target.exists() else None
    if current == text:
        return 0
    if "--check" in args:
        print(f"stale: {target} (run `python -m mj_policy.rules.vendorgen`)")
        return 10
    from mj_core.write import atomic  # only a stale manifest is written

    atomic.create(target, text.encode("utf-8"), replace=True, root=package())
    print(f"wrote: {target}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    return guard("vendorgen", lambda: _run(args))


if __name__ == "__main__":
    raise SystemExit(main())
