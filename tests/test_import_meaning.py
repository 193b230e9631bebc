"""Nothing the person wrote is lost: the meaning of a repository's instructions, diffed before
`init --import` and after `update` handed the files over.

What each provider loads is read off the repository as the provider table says
(`share/providers.yaml`: the target it loads into every conversation, a nested file for the
directories below, its rule files with their own front matter: always, scoped to globs, or on
request, and the files of others its `also_loads` names), plus what the table does not list
and the clients still read — Cursor's `.cursorrules`, Claude Code's and Gemini CLI's nested
files, the files a CLAUDE.md names with `@path`. For every provider and every file a worker
may touch, each sentence it was given before it is given after, never less widely; each
on-request sentence is still somewhere a worker is pointed at; and every imported sentence is
in some rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from conftest import Repo
from importrepo import FILES
from importrepo import seed

TABLE = Path(__file__).resolve().parents[1] / "share" / "providers.yaml"
# the files a worker touches: each glob and nested directory of the fixture reaches one
TOUCHED = ["src/api/book.ts", "src/api/view.tsx", "lib/core.py", "tools/run.py", "README.md"]
ALWAYS, ON_REQUEST = "*always*", "*on-request*"


def test_every_sentence_reaches_every_provider_it_reached(git_repo: Repo) -> None:
    seed(git_repo)
    before = receipt(git_repo.root)
    given = {(p, w, s) for p, seen in before.items() for w, said in seen.items() for s in said}
    # six clients with files of their own, and four more that read AGENTS.md (also_loads)
    assert len(given) == 45 and len({p for p, _, _ in given}) == 10
    assert git_repo.mj("init", "--import").code == 0
    result = git_repo.mj("update")
    assert result.code == 0, result
    after = receipt(git_repo.root)
    lost = []
    for provider, seen in before.items():
        for where, said in seen.items():
            reached = after.get(provider, {})
            for sentence in said - reached.get(where, set()) - reached.get(ALWAYS, set()):
                lost.append((provider, where, sentence))
    assert lost == []
    ruled = "\n".join(
        p.read_text() for p in (git_repo.root / ".ai/repo/rules/project").glob("*.md")
    )
    written = {s for name, text in FILES.items() if name != "lib/core.py" for s in sentences(text)}
    assert sorted(s for s in written if s not in ruled) == []


def test_the_diff_sees_a_lost_sentence(git_repo: Repo) -> None:
    """The diff can fail: a sentence taken out of its rule before `update --force` is found."""
    seed(git_repo)
    before = receipt(git_repo.root)
    assert git_repo.mj("init", "--import").code == 0
    path = git_repo.root / ".ai/repo/rules/project/commits.v1.md"
    path.write_text(path.read_text().replace("Write commit messages in the imperative mood.", ""))
    assert git_repo.mj("update").code == 15  # the hand-over refuses it
    assert git_repo.mj("update", "--force").code == 0
    after = receipt(git_repo.root)
    sentence = "Write commit messages in the imperative mood."
    assert sentence in before["codex"][ALWAYS]
    assert sentence not in after["codex"][ALWAYS]


def receipt(root: Path) -> dict[str, dict[str, set[str]]]:
    """Provider → where (a touched file, ALWAYS or ON_REQUEST) → the sentences it is given."""
    table = yaml.safe_load(TABLE.read_text(encoding="utf-8"))["providers"]
    out: dict[str, dict[str, set[str]]] = {}
    for name, row in table.items():
        if row["loads"] != "always":
            continue
        seen: dict[str, set[str]] = out.setdefault(name, {})
        loaded = _loaded(root, row, name)
        for text, scope in loaded:
            for where in _where(scope):
                seen.setdefault(where, set()).update(sentences(text))
    return out


def _loaded(root: Path, row: dict, name: str) -> list[tuple[str, object]]:
    """(text, scope) of each file the provider loads: scope is ALWAYS, ON_REQUEST or globs."""
    found: list[tuple[str, object]] = []
    target = root / row["target"]
    also = row.get("also_loads") or {}  # the root files of others the client also loads
    for path in [target, *(root / t for t in also.get("targets") or [])]:
        if not path.is_file():
            continue
        found.append((_expanded(root, path, row) if path == target else path.read_text(), ALWAYS))
        if "`.ai/repo/rules/`" in path.read_text():  # the bootstrap points a worker there
            rules_dir = root / ".ai/repo/rules/project"
            found += [(p.read_text(), ON_REQUEST) for p in sorted(rules_dir.glob("*.md"))]
    for folder in also.get("rule_dirs") or []:  # rule files of others, their scoping honoured
        found += [_rule_file(p.read_text(), "paths") for p in sorted((root / folder).glob("*.md"))]
    nested = row.get("nested") or {"claude-code": "CLAUDE.md", "gemini": "GEMINI.md"}.get(name)
    for path in sorted(root.glob(f"*/**/{nested}")) if nested else []:
        folder = path.parent.relative_to(root).as_posix()
        found.append((path.read_text(), [f"{folder}/**"]))
    rules = row.get("rules")
    if rules and (root / rules["dir"]).is_dir():
        for path in sorted((root / rules["dir"]).glob(f"*{rules['suffix']}")):
            if path.as_posix() != target.as_posix():
                found.append(_rule_file(path.read_text(), rules["front_matter"]))
    if name == "cursor" and (root / ".cursorrules").is_file():
        found.append(((root / ".cursorrules").read_text(), ALWAYS))
    return found


def _expanded(root: Path, path: Path, row: dict) -> str:
    """The file as its client reads it: `@path` lines expanded where the client expands them."""
    text = path.read_text()
    if not row.get("imports"):
        return text
    named = re.findall(r"(?m)^@(\S+)$", text)
    return text + "".join((root / n).read_text() for n in named if (root / n).is_file())


def _rule_file(text: str, style: str) -> tuple[str, object]:
    front: dict = {}
    if text.startswith("---\n"):
        head, text = text[4:].split("\n---\n", 1)
        for line in head.splitlines():
            key, _, value = line.partition(":")
            front[key.strip()] = value.strip().strip('"')
        if style == "paths" and "paths" in front:
            front["paths"] = re.findall(r'(?m)^  - "?([^"\n]+)"?$', head)
    if style == "paths":
        return text, front.get("paths") or ALWAYS
    if style == "cursor":
        if front.get("alwaysApply") == "true":
            return text, ALWAYS
        return text, _globs(front["globs"]) if front.get("globs") else ON_REQUEST
    if style == "copilot":
        scope = front.get("applyTo", "")
        if scope in ("**", "**/*"):
            return text, ALWAYS
        return text, _globs(scope) if scope else ON_REQUEST
    return text, ALWAYS


def _globs(value: str) -> list[str]:
    """Comma-separated globs; a comma inside braces belongs to its glob."""
    return re.findall(r"(?:[^,{]|\{[^}]*\})+", value)


def _where(scope: object) -> list[str]:
    if scope in (ALWAYS, ON_REQUEST):
        return [str(scope)]
    assert isinstance(scope, list)
    return [path for path in TOUCHED if any(_matches(glob, path) for glob in scope)]


def _matches(glob: str, path: str) -> bool:
    glob = re.sub(r"\{([^}]*)\}", lambda m: "(" + m.group(1).replace(",", "|") + ")", glob)
    pattern = re.escape(glob).replace(r"\(", "(").replace(r"\)", ")").replace(r"\|", "|")
    pattern = pattern.replace(r"\*\*/", "(.*/)?").replace(r"\*\*", ".*").replace(r"\*", "[^/]*")
    return re.fullmatch(pattern.replace(r"\?", "[^/]"), path) is not None


def sentences(text: str) -> set[str]:
    """The lines a person wrote to be followed: not blank, not a heading, not front matter,
    not an `@path` line."""
    if text.startswith("---\n") and "\n---\n" in text[4:]:
        text = text[4:].split("\n---\n", 1)[1]
    out = set()
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", "@", "<!-- generated", "<!-- majordomus")):
            out.add(line)
    return out
