"""Doctrine majordomus.policy-schema: the policy and every profile are valid, to the last key."""

from __future__ import annotations

import shlex
from pathlib import PurePath

from mj_core.findings import Finding

from mj_watch import repro
from mj_watch.doctrine import schema as schemacheck

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.doctor.facts_view import Facts

CATEGORY = "policy"


def policy_schema(facts: Facts) -> Iterator[Finding]:
    relative = facts.section("policy", "repo/policy.yaml")
    doc, reason = facts.yaml(relative)
    if doc is None:
        yield schemacheck.parse_failure(CATEGORY, relative, reason or "unreadable")
        return
    found = list(_policy(relative, doc.data))
    found += list(schemacheck.closed(CATEGORY, doc, "policy")) if not found else []
    yield from found
    if not found:
        yield Finding("OK", CATEGORY, relative, "parsed, version 1")
        yield from _verification(relative, doc.data)
    yield from _profiles(facts, doc.data)


def _verification(relative: str, data: Any) -> Iterator[Finding]:
    """Pinned verification (Decision 16): unpinned, any `--verify-command` counts, even `true`;
    a pinned command that needs a shell can never run."""
    from mj_core.errors import MjError
    from mj_state.finish import verification as verifying

    block = data.get("verification") if isinstance(data, dict) else None
    if not isinstance(block, dict) or not block.get("commands"):
        message = (
            "verification.commands pins no command: any --verify-command satisfies "
            "verification_ran, even `true` — pin the project's test command"
        )
        yield Finding("WARN", CATEGORY, relative, message, repro.show_absent(relative, "commands"))
        return
    try:
        verifying.pinned(data)
    except MjError as exc:
        yield Finding("FAIL", CATEGORY, relative, exc.message, repro.show_key(relative, "commands"))


def _policy(relative: str, data: Any) -> Iterator[Finding]:
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(data, dict) and (type(version) is not int or version != 1):
        yield Finding(
            "FAIL",
            CATEGORY,
            relative,
            f"version {version!r} is not supported — this majordomus reads version 1 only",
            repro.show_absent(relative, "version"),
        )


def _profiles(facts: Facts, policy: Any) -> Iterator[Finding]:
    directory = facts.section("profiles", "repo/profiles")
    entry = facts.entry(directory)
    listed = entry.get("names") or [] if entry.get("type") == "directory" else []
    names = sorted(PurePath(n).stem for n in listed if n.endswith(".yaml"))
    failed = False
    for name in names:
        for finding in _profile(facts, f"{directory}/{name}.yaml", name):
            failed = True
            yield finding
    default = _default(policy)
    if isinstance(default, str) and default not in names:
        failed = True
        yield Finding(
            "FAIL",
            CATEGORY,
            f"{directory}/{default}.yaml",
            f"profiles.default names '{default}', which has no profile file "
            f"(profiles: {', '.join(names) or 'none'})",
            f"ls {shlex.quote(directory + '/')}",
        )
    if names and not failed:
        yield Finding("OK", CATEGORY, f"{directory}/", f"{len(names)} profile(s), all valid")


def _default(policy: Any) -> Any:
    profiles = policy.get("profiles") if isinstance(policy, dict) else None
    return profiles.get("default") if isinstance(profiles, dict) else None


def _profile(facts: Facts, relative: str, name: str) -> Iterator[Finding]:
    doc, reason = facts.yaml(relative)
    if doc is None:
        yield schemacheck.parse_failure(CATEGORY, relative, reason or "unreadable")
        return
    yield from schemacheck.closed(CATEGORY, doc, "profile")
    declared = doc.data.get("name") if isinstance(doc.data, dict) else None
    if isinstance(declared, str) and declared != name:
        yield Finding(
            "FAIL",
            CATEGORY,
            relative,
            f"declares name '{declared}' but its file is {name}.yaml — the name is the file name",
            repro.show_key(relative, "name"),
        )
