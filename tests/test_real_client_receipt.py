"""Proof with the real clients that the load receipt (`majordomus receipt`) is what each client
sends its model (`realclients.py`, a recording server on 127.0.0.1): every `always`, `nested`
and `import` item of the receipt is in the captured requests, the text found there hashes to
the item's sha256, no instruction text of the repository reaches a request that is not on the
receipt, and a `scoped` rule file reaches the model only after the client read a file it
applies to. A client that differs from share/providers.yaml fails here, and the table is
corrected with the version seen in its `source`.

One repository: Claude Code, Codex CLI, Gemini CLI, GitHub Copilot CLI and Qwen Code
declared, a rule always loaded and one scoped to `lib/**`, nested files (one `update` writes,
others by hand), a rule file written by hand that imports another file, and an `@path` line in
two nested files (Gemini CLI's, and Claude Code's, which Copilot CLI expands too). Each client
is run once, working on (or made to read) `lib/core.py`; Copilot CLI and Qwen Code run only
where they install (`realclients.extra`). OpenCode is not run: it has no offline mode here.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
import realclients
from conftest import Repo
from conftest import make_repo
from test_providers import ALWAYS_RULE
from test_providers import SCOPED_RULE
from test_shared_targets import declare

ASKED = "lib/core.py"
HAND = {
    "lib/CLAUDE.md": "# lib\n\nCLAUDE-NESTED-MARK: the lib code logs through one logger.\n\n"
    "@../docs/logging.md\n",
    "docs/logging.md": "# Logging\n\nLOGGING-MARK: one logger a module, named after it.\n\n\n",
    "lib/GEMINI.md": "# lib\n\nGEMINI-NESTED-MARK: lib code is typed.\n\n@../docs/conventions.md\n",
    "lib/sub/AGENTS.md": "# lib/sub\n\nAGENTS-SUB-MARK: nothing here imports lib/core.py.\n",
    "lib/sub/CLAUDE.md": "# lib/sub\n\nCLAUDE-SUB-MARK: a file below lib/sub.\n",
    ".claude/rules/team.md": "---\ndescription: team\n---\n# Team\n\nTEAM-MARK: reviews are"
    " done daily.\n\n<!-- a note for maintainers -->\n@../../docs/conventions.md\n",
    "docs/conventions.md": "# Conventions\n\nCONVENTIONS-MARK: names say what a thing is.\n",
    "docs/unused.md": "# Unused\n\nUNUSED-MARK: no client is pointed at this file.\n",
    "lib/core.py": "VALUE = 1\n",
    "lib/sub/deep.py": "VALUE = 2\n",
}
MARKS = ("UNUSED-MARK", "AGENTS-SUB-MARK", "CLAUDE-SUB-MARK")  # on no receipt below


@pytest.fixture(scope="session")
def prefix() -> Path:
    return realclients.clients()


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    base = tmp_path_factory.mktemp("receipt-real")
    made = make_repo(base / "repo", base / "home")
    assert made.mj("init").code == 0
    made.write(".ai/repo/rules/project/no-print.md", ALWAYS_RULE)
    scoped = SCOPED_RULE.replace("src/api/**", "lib/**").replace("api-errors", "lib-errors")
    made.write(".ai/repo/rules/project/lib-errors.md", scoped)
    for name, text in HAND.items():
        made.write(name, text)
    declare(
        made,
        [
            ("claude-code", "CLAUDE.md"),
            ("codex", "AGENTS.md"),
            ("gemini", "GEMINI.md"),
            ("copilot", ".github/copilot-instructions.md"),
            ("qwen-code", "QWEN.md"),
        ],
    )
    assert made.mj("update").code == 0
    made.commit("the receipt's repository")
    return made


def receipt(repo: Repo, provider: str) -> list[dict[str, Any]]:
    done = repo.mj("receipt", "--json", "--for", provider, "--path", ASKED)
    assert done.code == 0, done
    found = [json.loads(line) for line in done.out.splitlines()]
    return [r for r in found if r["kind"] == "load"]


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def strings(body: Any) -> list[str]:
    """Every string of a request body."""
    if isinstance(body, dict):
        return [s for v in body.values() for s in strings(v)]
    if isinstance(body, list):
        return [s for v in body for s in strings(v)]
    return [body] if isinstance(body, str) else []


def unlisted(repo: Repo, items: list[dict[str, Any]], sent: str) -> list[str]:
    """Lines of the repository's instruction files that reached the request though no file on
    the receipt holds them (a line any file on it holds may arrive through that file)."""
    on = {r["path"] for r in items if r["loaded"]}
    held = "\n".join((repo.root / p).read_text(encoding="utf-8") for p in on)
    names = repo.git("ls-files", "-co", "--exclude-standard", "--", "*.md").split("\n")
    found = []
    for name in filter(None, names):
        if name in on:
            continue
        for raw in (repo.root / name).read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if len(line) > 24 and line not in held and line in sent:
                found.append(f"{name}: {line}")
    return found


def check_scoped(items: list[dict[str, Any]], first: str, later: str, header: str) -> None:
    """A scoped rule file reaches the model (`header`, its path put in) only once the client
    read a file it applies to."""
    scoped = [r for r in items if r["why"] == "scoped" and r["loaded"]]
    assert scoped, "the receipt scopes no rule file to lib/core.py"
    for record in scoped:
        assert header.format(record["path"]) not in first, record
        assert header.format(record["path"]) in later, record


def test_claude_code_sends_what_its_receipt_lists(prefix: Path, repo: Repo) -> None:
    items = receipt(repo, "claude-code")
    with realclients.Recorder(read=str(repo.root / ASKED)) as server:
        run = realclients.run_claude(prefix, repo.root, Path(repo.env["HOME"]) / "c", server)
    assert run.returncode == 0, run.stderr
    assert len(server.requests) >= 2, "the client did not read lib/core.py"
    texts = ["\n".join(strings(r["body"])) for r in server.requests]
    sent = "\n".join(texts)
    header = re.compile(r"Contents of (\S+?)(?: \(project instructions[^)]*\))?:\n\n")
    found: dict[str, str] = {}
    for text in (s for r in server.requests for s in strings(r["body"])):
        marks = list(header.finditer(text))
        for i, mark in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            body = text[mark.end() : end]
            body = re.split(r"\n+(?:# currentDate|</system-reminder>|\s+IMPORTANT: this)", body)[0]
            found.setdefault(mark.group(1), body.strip())
    root = f"{repo.root}/"
    listed = {r["path"]: r for r in items if r["loaded"]}
    assert sorted(p.removeprefix(root) for p in found) == sorted(
        p for p, r in listed.items() if r["why"] in ("always", "import", "nested", "scoped")
    )
    for path, record in listed.items():
        if record["why"] in ("always", "import", "nested", "scoped"):
            assert sha(found[root + path]) == record["sha256"], (path, found[root + path])
    assert [r["path"] for r in items if r["why"] == "nested" and r["loaded"]] == ["lib/CLAUDE.md"]
    check_scoped(items, texts[0], texts[-1], f"Contents of {repo.root}/{{}}")
    assert "lib/CLAUDE.md" not in texts[0]  # a nested file arrives once lib/ is read
    assert unlisted(repo, items, sent) == []
    assert not [m for m in MARKS if m in sent]


def test_codex_sends_what_its_receipt_lists(prefix: Path, repo: Repo) -> None:
    items = receipt(repo, "codex")
    with realclients.Recorder() as server:
        run = realclients.run_codex(prefix, repo.root / "lib", Path(repo.env["HOME"]) / "x", server)
    assert run.returncode == 0, run.stderr
    sent = "\n".join(s for r in server.requests for s in strings(r["body"]))
    blocks = re.findall(r"<INSTRUCTIONS>\n(.*?)\n</INSTRUCTIONS>", sent, re.S)
    assert blocks, "no AGENTS.md instructions in the request"
    loaded = [r for r in items if r["loaded"] and r["why"] in ("always", "nested", "import")]
    assert [r["path"] for r in loaded] == ["AGENTS.md", "lib/AGENTS.md"]
    # the files from the root down to where it starts, each as it is on disk, a blank line
    # between them: cut the block at the receipt's sizes and hash each piece
    block, start = blocks[0].encode(), 0
    for record in loaded:
        piece = block[start : start + record["bytes"]]
        assert hashlib.sha256(piece).hexdigest() == record["sha256"], record["path"]
        start += record["bytes"] + 2
    assert start - 2 == len(block)  # nothing in the block that is not on the receipt
    assert unlisted(repo, items, sent) == []
    assert not [m for m in MARKS if m in sent]


def test_gemini_cli_sends_what_its_receipt_lists(prefix: Path, repo: Repo) -> None:
    items = receipt(repo, "gemini")
    script = [("read_file", {"file_path": str(repo.root / ASKED)}), None]
    with realclients.Recorder(script=script) as server:
        home = Path(repo.env["HOME"]) / "g"
        run = realclients.run_gemini(prefix, repo.root, home, server, flags=("--yolo",))
    assert run.returncode == 0, run.stderr
    texts = ["\n".join(strings(r["body"])) for r in server.requests]
    sent = "\n".join(texts)
    context = re.compile(
        r"--- Context from: (\S+) ---\n(.*?)\n--- End of Context from: \1 ---", re.S
    )
    imported = re.compile(
        r"<!-- Imported from: (\S+) -->\n(.*?)\n<!-- End of import from: \1 -->", re.S
    )
    found: dict[str, str] = {}
    for text in texts:
        for path, body in context.findall(text):
            for name, inner in imported.findall(body):
                found.setdefault(f"@{path}:{name}", inner)
            found.setdefault(path, imported.sub(lambda m: f"@{m.group(1)}", body))
    root = f"{repo.root}/"
    listed = [r for r in items if r["loaded"] and r["why"] in ("always", "nested", "import")]
    for record in listed:
        if record["why"] == "import":
            importer = next(r for r in items if r["path"] == record["from"])
            relative = os.path.relpath(record["path"], os.path.dirname(importer["path"]) or ".")
            text = found[f"@{root}{importer['path']}:{relative}"]
        else:
            text = found[root + record["path"]]
        assert sha(text) == record["sha256"], record["path"]
    files = sorted(p.removeprefix(root) for p in found if not p.startswith("@"))
    assert files == sorted(r["path"] for r in listed if r["why"] != "import")
    assert "lib/GEMINI.md" not in texts[0]  # a nested file arrives once lib/ is read
    assert unlisted(repo, items, sent) == []
    assert not [m for m in MARKS if m in sent]


IMPORTED = re.compile(
    r'\n\n<imported_custom_instruction source="([^"]+)">\n'
    r"((?:(?!<imported_custom_instruction ).)*?)\n</imported_custom_instruction>",
    re.S,
)


def copilot_imports(text: str, found: dict[str, str]) -> str:
    """`text` with the files Copilot CLI put after its `@path` lines taken out again (the
    innermost first), each one's text kept in `found` by its absolute path."""
    while True:
        match = IMPORTED.search(text)
        if match is None:
            return text
        found.setdefault(match.group(1), match.group(2))
        text = text[: match.start()] + text[match.end() :]


def test_copilot_cli_sends_what_its_receipt_lists(repo: Repo) -> None:
    items = receipt(repo, "copilot")
    imported: dict[str, str] = {}
    call = ("view", {"path": str(repo.root / ASKED)})
    with realclients.Recorder(call=call) as server:
        home = Path(repo.env["HOME"]) / "p"
        run = realclients.run_copilot(realclients.extra("copilot"), repo.root, home, server)
    assert run.returncode == 0, run.stderr
    assert len(server.requests) >= 2, "the client did not read lib/core.py"
    texts = ["\n".join(strings(r["body"])) for r in server.requests]
    first = next(t for t in strings(server.requests[0]["body"]) if "<custom_instruction>" in t)
    roots = re.findall(r"<custom_instruction>\n(.*?)\n</custom_instruction>", first, re.S)
    roots = [copilot_imports(text, imported) for text in roots]
    always = [r for r in items if r["loaded"] and r["why"] == "always"]
    targets = [r for r in always if "/" not in r["path"] or r["path"].startswith(".github/")]
    assert [sha(t) for t in roots] == [r["sha256"] for r in targets]
    # the always-loaded rule files follow the last block, a blank line around each
    tail = first[first.rfind("</custom_instruction>") + len("</custom_instruction>") :]
    tail = tail[: tail.index("Here is a list of instruction files")]
    rules = [r for r in always if r not in targets]
    pieces = [p for p in tail.split("\n\n\n") if p.strip()]
    assert [sha(p.strip("\n") + "\n") for p in pieces] == [r["sha256"] for r in rules]
    read = re.compile(
        r"Custom instructions from (\S+)\. Apply these to any code you write here:\n\n(.*?)\n*"
        r"</system_reminder>",
        re.S,
    )
    later = {
        p: copilot_imports(html.unescape(t), imported)
        for p, t in read.findall("\n".join(texts[1:]))
    }
    on_read = [r for r in items if r["loaded"] and r["why"] in ("nested", "scoped")]
    assert sorted(later) == sorted(r["path"] for r in on_read)
    for record in on_read:
        assert sha(later[record["path"]]) == record["sha256"], record["path"]
    # an `@path` line of AGENTS.md or CLAUDE.md (here the nested lib/CLAUDE.md's) brings in
    # its file; the `@path` lines of the rule files and of GEMINI.md stay as they are
    root = f"{repo.root}/"
    imports = [r for r in items if r["loaded"] and r["why"] == "import"]
    assert [(r["path"], r["from"]) for r in imports] == [("docs/logging.md", "lib/CLAUDE.md")]
    assert sorted(imported) == sorted(root + r["path"] for r in imports)
    for record in imports:
        assert sha(imported[root + record["path"]]) == record["sha256"], record["path"]
    check_scoped(items, texts[0], "\n".join(texts[1:]), "Custom instructions from {}.")
    sent = html.unescape("\n".join(texts))
    assert unlisted(repo, items, sent) == []
    assert not [m for m in MARKS if m in sent]


def test_qwen_code_sends_what_its_receipt_lists(repo: Repo) -> None:
    items = receipt(repo, "qwen-code")
    call = ("read_file", {"file_path": str(repo.root / ASKED)})
    with realclients.Recorder(call=call) as server:
        home = Path(repo.env["HOME"]) / "q"
        run = realclients.run_qwen(realclients.extra("qwen"), repo.root, home, server)
    assert run.returncode == 0, run.stderr
    assert len(server.requests) >= 2, "the client did not read lib/core.py"
    sent = "\n".join(s for r in server.requests for s in strings(r["body"]))
    context = re.compile(
        r"--- Context from: (\S+) ---\n(.*?)\n--- End of Context from: \1 ---", re.S
    )
    found = {p: t for p, t in context.findall(sent) if not p.startswith("../")}  # not $HOME's
    listed = [r for r in items if r["loaded"] and r["why"] in ("always", "nested", "import")]
    assert sorted(found) == sorted(r["path"] for r in listed)
    for record in listed:
        assert sha(found[record["path"]]) == record["sha256"], record["path"]
    assert unlisted(repo, items, sent) == []
    assert not [m for m in MARKS if m in sent]
