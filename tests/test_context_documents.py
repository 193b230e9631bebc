"""`majordomus context validate|list|resolve|explain` and `majordomus prompt` on a real layer."""

from __future__ import annotations

import os

from conftest import Repo

BAD = """---
schema: context/v1
id: ai.extra
kind: context
title: Extra
description: One sentence.
status: active
scope: subtree
providers: ["*"]
audience: [human, agent]
composition: extend
order: 5
colour: red
---
"""


def test_a_fresh_layer_validates_and_resolves(layer_repo: Repo) -> None:
    result = layer_repo.mj("context", "validate")
    assert result.code == 0, result
    layer_repo.write("lib/a", "a\n")
    listed = layer_repo.mj("context", "list")
    assert listed.code == 0 and ".ai/README.md:1" in listed.out
    resolved = layer_repo.mj("context", "resolve", "lib")
    assert resolved.code == 0, resolved
    assert resolved.out.splitlines()[0].split()[1] == ".ai/README.md:1"
    explained = layer_repo.mj("context", "explain", "lib/a")
    assert explained.code == 0 and explained.out.startswith("applies ")
    assert "skipped" in explained.out  # deeper documents whose scope does not reach lib/a


def test_an_invalid_tree_fails_validation_and_resolves_nothing(layer_repo: Repo) -> None:
    layer_repo.write(".ai/repo/extra/README.md", BAD)
    result = layer_repo.mj("context", "validate")
    assert result.code == 10, result
    assert "unknown-key" in result.out and ".ai/repo/extra/README.md:13" in result.out
    assert "[reproduce: majordomus context validate]" in result.out
    assert layer_repo.shell("majordomus context validate").code == 10
    resolved = layer_repo.mj("context", "resolve", ".")
    assert resolved.code == 10 and "resolves nothing" in resolved.err
    assert resolved.err.count("\n") == 1


def test_targets_outside_or_through_a_symlink_are_refused(layer_repo: Repo) -> None:
    layer_repo.write("lib/a", "a\n")
    os.symlink(layer_repo.root / "lib", layer_repo.root / "link")
    for target in ("..", "/tmp", "link", "link/a", "missing"):
        result = layer_repo.mj("context", "resolve", target)
        assert result.code == 15, (target, result)
        assert "refused-path" in result.err
    assert layer_repo.mj("context", "resolve").code == 2


def test_prompt_list_show_render_and_errors(layer_repo: Repo) -> None:
    listed = layer_repo.mj("prompt", "list")
    assert listed.code == 0
    assert {line.split()[0] for line in listed.out.splitlines()} >= {"debug", "resume"}
    assert layer_repo.mj("prompt", "show", "debug").out.startswith("# debug — ")
    rendered = layer_repo.mj("prompt", "render", "debug")
    assert rendered.code == 0 and "{{" not in rendered.out
    assert layer_repo.mj("prompt", "render", "nope").code == 12
    layer_repo.write(
        ".ai/repo/prompts/bad.md", "---\nname: bad\ndescription: d\n---\nx\n{{TSAK}}\n"
    )
    bad = layer_repo.mj("prompt", "render", "bad")
    assert bad.code == 10 and ".ai/repo/prompts/bad.md:6: unknown token {{TSAK}}" in bad.err
    layer_repo.write(
        ".ai/repo/prompts/bad.md", "---\nname: bad\ndescription: d\n---\na {{HANDOVER}}\n"
    )
    bad = layer_repo.mj("prompt", "show", "bad")
    assert bad.code == 10 and "bad.md:5: block token {{HANDOVER}}" in bad.err


def test_resolve_filters_by_provider_and_audience(layer_repo: Repo) -> None:
    layer_repo.write("lib/a", "a\n")
    layer_repo.write(
        ".ai/repo/extra/README.md",
        BAD.replace("colour: red\n", "paths: [lib]\n")
        .replace("scope: subtree", "scope: explicit")
        .replace('providers: ["*"]', "providers: [codex]")
        .replace("audience: [human, agent]", "audience: [human]"),
    )
    assert layer_repo.mj("context", "validate").code == 0
    every = layer_repo.mj("context", "resolve", "lib").out
    assert "ai.extra" in every
    for flags in (("--provider", "claude-code"), ("--audience", "agent")):
        narrowed = layer_repo.mj("context", "resolve", "lib", *flags)
        assert narrowed.code == 0 and "ai.extra" not in narrowed.out
    assert "ai.extra" in layer_repo.mj("context", "resolve", "lib", "--provider", "codex").out
    assert layer_repo.mj("context", "resolve", "lib", "--provider", "nobody").code == 2
