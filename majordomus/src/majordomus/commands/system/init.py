"""`majordomus init`: create the `.ai/` layer from the shipped skeleton; installs nothing else.

The writing happens in `mj-policy init-write` (after `init-facts` and `init-judge`); this
module prints what was created (with `--import`, each rule made and where its text came from,
and what was not imported), the hook lines the
policy's enforcement asks for (it installs none) and the next commands: followed as printed,
they end in a first commit that passes its own pre-commit hook. Then, per client the policy
declares, the steps that wire its session hooks and its MCP server (`initclients`). Those
adoption steps are the bootstrap's, offered by the run that records `layer.adopted` (the first
in this checkout); a later `init --extend` prints what it added and the hook lines, and no
adoption steps.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    from mj_core.findings import render_text
    from mj_policy.hooks import lines as hooklines

    from majordomus import render as show

    if getattr(options, "ci", None):
        return _ci(records, inv)
    created: list[str] = []
    adopted: list[Record] = []
    hatched: list[bool] = []  # the ledger's layer.adopted line written by this run

    def text(record: Record) -> str | None:
        if record.get("kind") == "created":
            created.append(str(record["path"]))
        elif record.get("kind") == "record" and record.get("event") == "layer.adopted":
            hatched.append(True)
        elif record.get("kind") in ("imported", "not-imported"):
            adopted.append(record)
        elif record.get("kind") == "finding":
            return render_text(record)
        return None

    if inv.json:  # the hook lines to install, before the summary that ends the stream
        records = _with_hooks(records, inv.root())
    code, summary = show.stream(records, inv, text)
    if code or summary.get("error") or inv.json:
        return code
    lines = hooklines.lines(inv.root())
    if not hatched and not options.imports:  # the hatch was shut: the adoption is behind it
        inv.stdout.write(_since(created, lines))
        return code
    targets = _targets(inv.root()) + _replaced(inv.root(), adopted)
    out = _text(created, lines, list(dict.fromkeys(targets)))
    if options.imports:  # after what was created, before the next steps
        from majordomus.commands.system import init_import as initimport

        head, _, tail = out.partition("local state: ")
        out = head + initimport.text(adopted) + "local state: " + tail
    if hatched:
        out += (
            "ledger: layer.adopted recorded; the bootstrap is done here, and a later "
            "`majordomus init --extend` only adds what is missing\n"
        )
    from majordomus.commands.system import init_clients as initclients

    inv.stdout.write(out + initclients.text(inv.root()))
    return code


def _with_hooks(records: Iterable[Record], root: Path) -> Iterator[Record]:
    """The stream, a `hook` record for each hook line before a summary that says all went
    well (the summary counts its stage's records; these are the dispatcher's)."""
    from mj_policy.hooks import lines as hooklines

    for record in records:
        if record.get("kind") == "summary" and not record.get("exit"):
            for hook, line in hooklines.lines(root):
                yield {"kind": "hook", "file": hook, "line": line}
        yield record


def _targets(root: Path) -> list[str]:
    """The projection targets `update` will write (what the commit adds): those the policy
    declares, and the rule and skill files they carry."""
    from mj_core.errors import MjError
    from mj_policy.layer import loader as layer
    from mj_policy.projection import plan as projectionplan

    try:
        return [p.target for p in projectionplan.planned(layer.load(root))]
    except MjError:
        return []


def _replaced(root: Path, adopted: list[Record]) -> list[str]:
    """The imported instruction files git tracks: `update` replaces or removes them, and the
    commit records that (an untracked one it removes is no path for `git add`)."""
    from mj_core.git import questions as git
    from mj_policy.adoption import sources as importsources

    named = [
        str(s["file"])
        for r in adopted
        if r["kind"] == "imported"
        for s in r["sources"]
        if importsources.classify(str(s["file"])) is not None
    ]
    return git.ls_files(root, *dict.fromkeys(named)) if named else []


def _since(created: list[str], lines: list[tuple[str, str]]) -> str:
    """What `init --extend` added to an adopted layer, the hook lines for reference, and no
    adoption steps: this checkout's ledger already holds its adoption."""
    out = ["created", *(f"  {path}" for path in created)] if created else ["nothing to add"]
    out.append("adopted already (this checkout keeps a ledger); the hook lines:")
    out += [f"  {hook}: {line}" for hook, line in lines]
    out.append("next: majordomus doctor      # verify the layer and that the hooks are wired")
    return "\n".join(out) + "\n"


def _text(created: list[str], lines: list[tuple[str, str]], targets: list[str]) -> str:
    """What was made and the next steps, in the order that ends in a first commit that passes
    its own pre-commit hook: projections, hooks, doctor, then add and commit."""
    import shlex

    out = ["created", *(f"  {path}" for path in created)] if created else ["nothing to add"]
    out.append("local state: .ai/local/state/ (ignored by git; this checkout's own)")
    out.append(
        "next: majordomus update      # the provider files the policy declares "
        "(README.md gets a region naming AGENTS.md)"
    )
    out.append(
        "next: install each hook below (majordomus installs none): a file whose first line is "
        "#!/bin/sh, then its line; make it executable (chmod +x)"
    )
    out += [f"  {hook}: {line}" for hook, line in lines]
    out.append(
        "next: pin the project's test command: in .ai/repo/policy.yaml, under `verification:`, "
        "uncomment `commands:` and list it (e.g. `- make test`); finish then runs it itself, "
        "and until it is pinned doctor warns on every commit"
    )
    out.append("next: majordomus doctor      # verify the layer and that the hooks are wired")
    out.append(f"next: {shlex.join(['git', 'add', '.ai', '.gitignore', *targets])}")
    out.append("next: git commit -m 'Adopt majordomus'   # its pre-commit hook runs doctor")
    return "\n".join(out) + "\n"


def _ci(records: Iterable[Record], inv: Invocation) -> int:
    """`init --ci`: the job written, and what it does once committed."""
    from majordomus import render as show

    def text(record: Record) -> str | None:
        if record.get("kind") != "created":
            return None
        said = "on every push and pull request CI fetches refs/majordomus/* and verifies the range"
        return f"created {record['path']}: {said} — commit it"

    code, _ = show.stream(records, inv, text)
    return code
