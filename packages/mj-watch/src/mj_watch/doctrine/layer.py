"""Doctrine majordomus.layer-integrity: the manifest resolves, `.ai/local/` never travels and
its state is a real directory tree (no symbolic link a write could follow out of `.ai/`)."""

from __future__ import annotations

import shlex

from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_policy.layer import loader as layer

from mj_watch import repro
from mj_watch.doctor import confinement
from mj_watch.doctrine import schema as schemacheck

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.doctor.facts_view import Facts

CATEGORY = "layer"
_FILES = {"policy"}  # sections that name a file; every other section names a directory
_OPTIONAL = {"project"}  # a repository without a plan has no project directory


def layer_integrity(facts: Facts) -> Iterator[Finding]:
    found = list(_manifest(facts))
    yield from found
    if not any(f.level == "FAIL" for f in found):
        yield Finding("OK", CATEGORY, layer.MANIFEST, f"{layer.SCHEMA}, every section resolves")


def _manifest(facts: Facts) -> Iterator[Finding]:
    doc, reason = facts.yaml(layer.MANIFEST)
    if doc is None:
        yield schemacheck.parse_failure(CATEGORY, layer.MANIFEST, reason or "unreadable")
        return
    data = doc.data if isinstance(doc.data, dict) else {}
    if data.get("schema") != layer.SCHEMA:
        yield Finding(
            "FAIL",
            CATEGORY,
            layer.MANIFEST,
            f"schema {data.get('schema')!r} is not understood: this majordomus reads "
            f"{layer.SCHEMA} only and reads nothing more of a layer it does not understand",
            repro.show_absent(layer.MANIFEST, "schema"),
        )
        return
    yield from schemacheck.closed(CATEGORY, doc, "manifest")
    yield from _sections(facts, data.get("sections"))
    yield from _local(facts, data.get("local"))


def _sections(facts: Facts, sections: Any) -> Iterator[Finding]:
    if not isinstance(sections, dict) or facts.manifest is None:
        return
    for name in sections:
        try:
            relative = f".ai/{layer.section_value(facts.manifest, name)}"
        except MjError as exc:
            where = exc.message.split(": ", 1)[0]
            line = repro.line_of(where)
            yield Finding(
                "FAIL", CATEGORY, layer.MANIFEST, exc.message, repro.show_line(layer.MANIFEST, line)
            )
            continue
        yield from _resolves(facts, name, relative)


def _resolves(facts: Facts, name: str, relative: str) -> Iterator[Finding]:
    kind = facts.kind(relative)
    want_file = name in _FILES
    if kind == ("file" if want_file else "directory"):
        return
    if name in _OPTIONAL and kind == "absent":
        return
    what = "file" if want_file else "directory"
    yield Finding(
        "FAIL",
        CATEGORY,
        relative,
        f"section '{name}' of {layer.MANIFEST} names this {what}, which does not exist",
        repro.show_path(relative),
    )


def local_dir(local: Any) -> str | None:
    """`.ai/<local.path>/` as the manifest's `local` block names it (None: not a safe path)."""
    value = local.get("path") if isinstance(local, dict) else None
    if not isinstance(value, str) or not value or ".." in value.split("/"):
        return None  # the closed-schema check has reported it
    return f".ai/{value.strip('/')}/"


def _local(facts: Facts, local: Any) -> Iterator[Finding]:
    relative = local_dir(local)
    if relative is None:
        return
    name = relative.rstrip("/")  # the ignore line and the pathspec that also match a link
    told = facts.get("git")
    if not (told.get("ignored") or {}).get(relative):
        quoted = shlex.quote(relative)
        yield Finding(
            "FAIL",
            CATEGORY,
            relative,
            f"not ignored by git — add a `{name}` line to .gitignore",
            f"git check-ignore -v --no-index {quoted} || echo {shlex.quote('not ignored')}",
        )
    yield from confinement.state_findings(facts.get("state").get("kinds") or {})
    tracked = [str(t) for t in (told.get("tracked") or {}).get(name) or []]
    if tracked:
        yield Finding(
            "FAIL",
            CATEGORY,
            relative,
            f"{len(tracked)} tracked file(s), e.g. {tracked[0]} — this checkout's own state "
            f"never travels: `git rm --cached -r {name}`",
            f"git ls-files -- {shlex.quote(name)}",
        )
