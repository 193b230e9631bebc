"""The concept index of `docs/ARCHITECTURE.md`, and what each folder imports and is imported
by (the last lines of its `__init__.py` docstring), generated from the source tree.

`python -m majordomus.conceptgen` writes both; `--check` writes nothing and exits 10 when
either differs (tox's lint environment runs it). Every module belongs to one concept of
`CONCEPTS`, by the longest prefix of its dotted name that the table lists; a module the table
does not place stops the generator, so a new folder or module is placed when it is added.
Imports are read with `ast`, those inside functions and for the type checker included.
"""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

# (concept, what it is, the dotted prefixes of its modules); the longest prefix places a module
CONCEPTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("task", "the one scoped task: its start, scope, check and finish contract",
     ("mj_state.task", "mj_state.evidence", "mj_state.finish", "mj_state.facts", "mj_watch.finish",
      "majordomus.commands.task.start", "majordomus.commands.task.check",
      "majordomus.commands.task.finish", "majordomus.commands.task.evidence")),
    ("ledger", "the append-only, hash-chained record of what happened",
     ("mj_state.ledger", "mj_state.history", "mj_state.appending", "mj_core.line_hash",
      "majordomus.commands.memory.history")),
    ("records", "checkpoints, handovers, decisions and questions, and their recovery",
     ("mj_state.records", "mj_state.checkpoint", "mj_state.handover", "mj_state.decision",
      "mj_state.question", "mj_state.recover",
      "majordomus.commands.context.checkpoint",
      "majordomus.commands.context.handover", "majordomus.commands.memory.decision",
      "majordomus.commands.memory.question", "majordomus.commands.system.recover")),
    ("sessions", "episodes and the prompt archive",
     ("mj_state.session", "mj_state.capture", "majordomus.commands.context.session",
      "majordomus.commands.system.capture")),
    ("plan", "milestones and issues as a dependency graph, and their claims",
     ("mj_policy.plan", "mj_state.plan", "mj_context.plan_sections", "mj_watch.doctor.plan",
      "mj_watch.plan",
      "majordomus.plan_fast", "majordomus.commands.task.plan")),
    ("knowledge", "the reference graph, its pointers, candidates and promotion",
     ("mj_knowledge", "mj_policy.knowledge", "mj_state.records.promote",
      "mj_state.promote",
      "mj_watch.doctor.knowledge", "majordomus.commands.memory.knowledge")),
    ("ADRs", "architecture decision records and their numbers",
     ("mj_policy.adr", "mj_state.records.adr_check", "mj_state.records.adr_facts",
      "mj_state.records.adr_judge", "mj_state.records.adr_propose", "mj_watch.adr",
      "majordomus.commands.memory.adr")),
    ("skills", "skills as files and as projections",
     ("mj_policy.skills", "majordomus.commands.memory.skills")),
    ("projections", "the policy rendered into each provider's files, stamped and judged",
     ("mj_policy.projection", "mj_watch.doctrine.projections",
      "mj_watch.doctrine.context_budget", "majordomus.commands.system.update")),
    ("hooks", "git's and the clients' hooks: written, proven wired, and held at the act",
     ("mj_policy.hooks", "mj_watch.wiring", "mj_watch.act", "mj_state.hook_pass",
      "mj_watch.doctor.capture_check", "majordomus.stop_hook", "majordomus.tool_hook_cli")),
    ("remote", "the git remote as coordinator and forward-only witness",
     ("mj_state.remote", "mj_state.mirror", "mj_watch.doctor.remote",
      "majordomus.commands.task.sync", "majordomus.commands.task.claims")),
    ("verify", "CI's judge, with the base's rules",
     ("mj_state.verifyfacts", "mj_watch.verify", "majordomus.commands.task.verify")),
    ("receipt", "what each client loads, proven",
     ("mj_policy.receipt", "mj_watch.doctor.reach", "majordomus.commands.rules.receipt")),
    ("layer", "the human-edited layer: manifest, policy, profiles, context documents, prompts",
     ("mj_policy.layer", "mj_policy.context", "mj_policy.prompts", "mj_policy.providers",
      "majordomus.commands.system.init", "majordomus.commands.system.init_clients",
      "majordomus.commands.memory.prompt")),
    ("rules", "the effective rule set and the vendored package",
     ("mj_policy.rules", "majordomus.commands.rules.rules")),
    ("adoption", "existing instruction files taken into the layer",
     ("mj_policy.adoption", "majordomus.commands.system.init_import")),
    ("archive", "the repository packed by profile",
     ("mj_policy.archive", "majordomus.commands.system.archive")),
    ("briefing", "what the next worker is told, within its budget",
     ("mj_context", "mj_state.brief_render", "mj_state.context_facts", "mj_state.context_reads",
      "majordomus.commands.context.context")),
    ("doctor", "whether what the policy declares is real here, doctrine by doctrine",
     ("mj_watch.doctor", "mj_watch.doctrine", "mj_watch.gather", "mj_watch.repro",
      "majordomus.commands.system.doctor", "majordomus.commands.rules.doctrine")),
    ("watch", "drift in the work, and the ratchet on existing dirt",
     ("mj_watch.watch", "mj_watch.ratchet", "majordomus.commands.system.watch",
      "majordomus.commands.rules.ratchet")),
    ("search", "the records searched, and served over MCP",
     ("mj_state.search", "mj_watch.doctor.mcp_check", "mj_policy.hooks.mcp_wiring",
      "mj_policy.mcp_install",
      "majordomus.mcp", "majordomus.commands.memory.search", "majordomus.commands.system.mcp")),
    ("identity", "who and where, computed from git",
     ("mj_state.identity", "mj_state.state_id", "mj_state.worktree_id")),
    ("shell", "the POSIX shell grammar the hook proof and the tool hook read",
     ("mj_watch.shell",)),
    ("bench", "the benchmark harness", ("mj_watch.bench", "majordomus.commands.system.bench")),
    ("commands", "the command surface: declared once, parsed, composed, rendered",
     ("majordomus", "mj_core.cli", "mj_core.funnel", "mj_core.declaration", "mj_policy.cli",
      "mj_state.cli", "mj_context.cli", "mj_knowledge.cli", "mj_watch.cli")),
    ("core", "the shared vocabulary: streams, strict YAML, writes, git, errors", ("mj_core",)),
)  # fmt: skip

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ("packages/mj-core/src", "packages/mj-policy/src", "packages/mj-state/src",
           "packages/mj-context/src", "packages/mj-knowledge/src", "packages/mj-watch/src",
           "majordomus/src")  # fmt: skip
INDEX = "docs/ARCHITECTURE.md"
BEGIN = "<!-- concepts:begin (python -m majordomus.conceptgen) -->"
END = "<!-- concepts:end -->"
MARK = "Imports:"  # where the generated lines of a folder's docstring begin
WIDTH = 96


class Stop(Exception):
    """What the generator cannot go on from, with its exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def modules(root: Path) -> dict[str, Path]:
    """Every module of the sources by dotted name (a folder by its `__init__`)."""
    found = {}
    for source in SOURCES:
        for path in sorted((root / source).rglob("*.py")):
            if path.name == "__main__.py":
                continue
            parts = path.relative_to(root / source).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(path: Path, known: set[str]) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in out if name in known}


def folders(found: dict[str, Path]) -> list[str]:
    """The folders below a package's top (`mj_state.ledger`), by name."""
    return sorted(n for n, p in found.items() if p.name == "__init__.py" and "." in n)


def unit(name: str, inner: list[str]) -> str:
    """The folder holding module `name`, else its package."""
    held = [f for f in inner if name == f or name.startswith(f + ".")]
    return max(held, key=len) if held else name.split(".", maxsplit=1)[0]


def edges(found: dict[str, Path]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    inner = folders(found)
    out: dict[str, set[str]] = {}
    into: dict[str, set[str]] = {}
    known = set(found)
    for name, path in found.items():
        here = unit(name, inner)
        for other in imported(path, known):
            there = unit(other, inner)
            if there != here:
                out.setdefault(here, set()).add(there)
                into.setdefault(there, set()).add(here)
    return out, into


def _named(units: set[str], top: str, collapse: bool) -> str:
    """Units of `top`'s own package by folder; other packages by folder, or whole when
    `collapse` (what imports a shared folder is told by package)."""
    own = sorted(u for u in units if u.split(".")[0] == top)
    rest = sorted(u for u in units if u.split(".")[0] != top)
    if collapse:
        rest = sorted({u.split(".")[0] for u in rest})
    return ", ".join(f"`{u}`" for u in own + rest) or "nothing else of the tool"


def block(folder: str, out: dict[str, set[str]], into: dict[str, set[str]]) -> str:
    top = folder.split(".", maxsplit=1)[0]
    lines = [
        f"{MARK} {_named(out.get(folder, set()), top, collapse=False)}.",
        f"Imported by: {_named(into.get(folder, set()), top, collapse=True)}.",
    ]
    return "\n".join(textwrap.fill(line, WIDTH, break_on_hyphens=False) for line in lines)


def docstring(path: Path, generated: str) -> str:
    """`path`'s text with its docstring's generated lines replaced by `generated`."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    first = tree.body[0] if tree.body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)):
        raise Stop(f"{path}: no docstring to say what the folder owns", 10)
    own = str(first.value.value).split("\n\n" + MARK)[0].strip()
    rest = "\n".join(text.split("\n")[first.end_lineno :]).lstrip("\n")
    return f'"""{own}\n\n{generated}\n"""\n' + ("\n" + rest if rest else "")


def concept_of(name: str) -> str:
    held = [(p, c) for c, _, prefixes in CONCEPTS for p in prefixes
            if name == p or name.startswith(p + ".")]  # fmt: skip
    if not held:
        raise Stop(f"{name}: no concept of CONCEPTS (majordomus/conceptgen.py) places it", 10)
    return max(held, key=lambda pc: len(pc[0]))[1]


def _listed(names: list[str]) -> str:
    """`names` below a package, a folder's modules after its name: `task/` (check, scope)."""
    held: dict[str, list[str]] = {}
    for name in names:
        first, _, below = name.partition(".")
        held.setdefault(first, [])
        if below:
            held[first].append(below)
    return ", ".join(f"`{k}/` ({', '.join(v)})" if v else f"`{k}`" for k, v in held.items())


def index(found: dict[str, Path]) -> str:
    inner = set(folders(found))
    placed: dict[str, dict[str, list[str]]] = {}
    for name in sorted(found):
        if "." not in name or name in inner:
            continue
        top, _, below = name.partition(".")
        placed.setdefault(concept_of(name), {}).setdefault(top, []).append(below)
    rows = ["| concept | package | modules |", "|---|---|---|"]
    for concept, what, _ in CONCEPTS:
        for number, (top, names) in enumerate(sorted(placed.get(concept, {}).items())):
            label = f"**{concept}**: {what}" if number == 0 else ""
            rows.append(f"| {label} | `{top}` | {_listed(names)} |")
    return "\n".join([BEGIN, *rows, END])


def generate(root: Path) -> dict[Path, str]:
    found = modules(root)
    out, into = edges(found)
    wanted = {}
    for folder in folders(found):
        path = found[folder]
        wanted[path] = docstring(path, block(folder, out, into))
    doc = root / INDEX
    text = doc.read_text(encoding="utf-8")
    head, begun, tail = text.partition(BEGIN)
    _, ended, tail = tail.partition(END)
    if not (begun and ended):
        raise Stop(f"{INDEX}: no `{BEGIN}` … `{END}` to write the index between", 12)
    wanted[doc] = head + index(found) + tail
    return wanted


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print("usage: python -m majordomus.conceptgen [--check]", file=sys.stderr)
        return 2
    try:
        wanted = generate(ROOT)
    except Stop as stop:
        print(f"conceptgen: {stop}", file=sys.stderr)
        return stop.code
    stale = [p for p, text in wanted.items() if p.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is stale: run `python -m majordomus.conceptgen`",
                  file=sys.stderr)  # fmt: skip
        return 10 if stale else 0
    from mj_core.write import atomic

    for path in stale:
        atomic.create(path, wanted[path].encode("utf-8"), replace=True, root=ROOT)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
