"""The providers an imported file reached that the policy does not project into.

On a new layer, `init --import` declares each one in the policy it writes (its target from
`share/providers.yaml`), so the rules reach it after `majordomus update`; a provider whose
target another declared projection already writes (OpenCode reads Codex's `AGENTS.md`) needs
none. On an existing layer (`--extend`) the policy is the person's: each is a WARN instead,
and `update` leaves that provider's instruction files where they are.
"""

from __future__ import annotations

from mj_core.findings import Finding
from mj_core.yaml import strict as yamlstrict

from mj_policy import providers

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    Record = dict[str, Any]

POLICY = ".ai/repo/policy.yaml"


def missing(policy_text: str, pieces: Iterable[Record]) -> dict[str, list[str]]:
    """Provider → the imported files it read, for each provider the policy does not serve."""
    declared = yamlstrict.parse(policy_text, POLICY).data.get("projections") or []
    names = {str(p.get("provider")) for p in declared}
    targets = {str(p.get("target")) for p in declared}
    out: dict[str, list[str]] = {}
    for piece in pieces:
        for name in piece["providers"]:
            known = providers.table()[name]
            if name in names or known.target in targets:
                continue
            files = out.setdefault(name, [])
            if piece["file"] not in files:
                files.append(str(piece["file"]))
    return out


def declared(policy_text: str, wanted: dict[str, list[str]]) -> str:
    """The skeleton's policy with a projection for each provider in `wanted` appended to its
    `projections:` list (the skeleton's last block; checked by parsing the result)."""
    text = policy_text if policy_text.endswith("\n") else policy_text + "\n"
    for name in wanted:
        text += (
            f"  - provider: {name}                   # declared by `majordomus init --import`\n"
            f"    target: {providers.table()[name].target}\n"
            "    mode: file\n"
            "    always_loaded: false\n"
        )
    listed = yamlstrict.parse(text, POLICY).data.get("projections") or []
    assert [p["provider"] for p in listed[-len(wanted) :]] == list(wanted) or not wanted
    return text


def warnings(wanted: dict[str, list[str]]) -> list[Record]:
    return [
        Finding(
            "WARN",
            "import",
            name,
            f"read {', '.join(files)}, and the policy projects nothing into it: the rules "
            f"reach it once `projections` declares it (target {providers.table()[name].target});"
            " until then `majordomus update` leaves those files as they are",
        ).record()
        for name, files in wanted.items()
    ]
