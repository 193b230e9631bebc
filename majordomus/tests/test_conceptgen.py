"""The concept index and the folders' import lines are what the tree says (`conceptgen`), and
they go stale when the tree changes under them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from majordomus import conceptgen

ROOT = conceptgen.ROOT


def test_the_index_and_every_folder_docstring_are_current() -> None:
    stale = [p for p, text in conceptgen.generate(ROOT).items() if p.read_text("utf-8") != text]
    assert stale == []


def test_every_module_is_placed_in_one_concept() -> None:
    found = conceptgen.modules(ROOT)
    assert len(found) > 300
    concepts = {conceptgen.concept_of(name) for name in found if "." in name}
    assert concepts == {c for c, _, _ in conceptgen.CONCEPTS}  # no concept is left empty
    with pytest.raises(conceptgen.Stop, match=r"mj_state\.unplaced: no concept"):
        conceptgen.concept_of("mj_state.unplaced")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for source in conceptgen.SOURCES:
        ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
        shutil.copytree(ROOT / source, tmp_path / source, symlinks=True, ignore=ignore)
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / conceptgen.INDEX, tmp_path / conceptgen.INDEX)
    return tmp_path


def test_an_import_added_makes_the_folder_docstring_stale(tree: Path) -> None:
    shell = tree / "packages/mj-watch/src/mj_watch/shell/lexer.py"
    shell.write_text(
        shell.read_text() + "\n\ndef _added() -> None:\n    import mj_policy.archive.file\n"
    )
    wanted = conceptgen.generate(tree)
    stale = sorted(str(p.relative_to(tree)) for p, t in wanted.items() if p.read_text() != t)
    assert stale == [
        "packages/mj-policy/src/mj_policy/archive/__init__.py",  # imported by mj_watch now
        "packages/mj-watch/src/mj_watch/shell/__init__.py",
    ]
    assert "Imports: `mj_policy.archive`." in wanted[shell.parent / "__init__.py"]


def test_an_index_without_its_markers_is_refused(tree: Path) -> None:
    index = tree / conceptgen.INDEX
    index.write_text(index.read_text().replace(conceptgen.END, ""))
    with pytest.raises(conceptgen.Stop, match="no `<!-- concepts:begin"):
        conceptgen.generate(tree)


def test_an_unknown_argument_is_a_usage_error() -> None:
    assert conceptgen.main(["--chek"]) == 2


def test_a_module_added_makes_the_index_stale(tree: Path) -> None:
    added = tree / "packages/mj-state/src/mj_state/ledger/seal.py"
    added.write_text('"""A new module."""\n')
    wanted = conceptgen.generate(tree)
    index = tree / conceptgen.INDEX
    assert wanted[index] != index.read_text() and "seal" in wanted[index]


def test_the_docstring_keeps_what_the_folder_owns_and_the_code_after_it(tmp_path: Path) -> None:
    init = tmp_path / "__init__.py"
    init.write_text(
        '"""Owns this.\n\nAnd that.\n\nImports: `old`.\nImported by: `old`.\n"""\n\nX = 1\n'
    )
    out = conceptgen.docstring(init, "Imports: `new`.\nImported by: `new`.")
    assert (
        out == '"""Owns this.\n\nAnd that.\n\nImports: `new`.\nImported by: `new`.\n"""\n\nX = 1\n'
    )
