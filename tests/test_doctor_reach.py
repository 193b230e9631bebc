"""Doctor's rule reach, read off the declared clients' load receipts: a rule no declared client
puts in front of its model is WARN (FAIL for a blocking rule), naming each client and why; a
rule a tool enforces is not judged by it."""

from __future__ import annotations

import re

from conftest import FINDING
from conftest import Repo
from test_providers import ALWAYS_RULE
from test_providers import SCOPED_RULE
from test_shared_targets import declare

ASKED = """---
id: project.small-commits
version: 1
kind: rule
title: Small commits
description: One change a commit.
statement: A commit holds one change a reviewer can read in one sitting.
status: active
class: advisory
depends_on: []
tags: []
---
"""


def reach(repo: Repo) -> dict[str, tuple[str, str]]:
    """subject → (level, message) of each `reach` finding of doctor."""
    out = repo.mj("doctor").out
    found = {}
    for line in out.splitlines():
        match = FINDING.match(line)
        if match and match.group(2) == "reach":
            found[match.group(3)] = (match.group(1), match.group(4))
    return found


def test_a_rule_read_only_on_request_reaches_no_client_and_is_warned(layer_repo: Repo) -> None:
    layer_repo.write(".ai/repo/rules/project/small-commits.md", ASKED)
    layer_repo.write(".ai/repo/rules/project/no-print.md", ALWAYS_RULE)
    declare(layer_repo, [("claude-code", "CLAUDE.md"), ("codex", "AGENTS.md")])
    assert layer_repo.mj("update").code == 0
    found = reach(layer_repo)
    level, message = found["project.small-commits@1"]
    assert level == "WARN", found
    assert "claude-code: .ai/repo/rules/project/small-commits.md is read only on request" in message
    assert "codex: .ai/repo/rules/project/small-commits.md is read only on request" in message
    assert message.endswith(
        "declare `paths` or `always_loaded: true` in .ai/repo/rules/project/small-commits.md"
    )
    assert found["project.no-print@1"] == ("OK", "reaches claude-code, codex")
    # the vendored rules are enforced by the tool's validators: not judged here
    assert not [s for s in found if s.startswith("majordomus.")]
    assert layer_repo.mj("doctor").code in (0, 10)  # a WARN alone fails nothing
    blocking = ASKED.replace("class: advisory", "class: blocking")
    layer_repo.write(".ai/repo/rules/project/small-commits.md", blocking)
    assert reach(layer_repo)["project.small-commits@1"][0] == "FAIL"


def test_a_scoped_rule_only_an_on_request_file_carries_reaches_no_client(
    layer_repo: Repo,
) -> None:
    """Aider reads CONVENTIONS.md only when it is given; the README only points at AGENTS.md."""
    scoped = SCOPED_RULE.replace("class: advisory", "class: blocking")
    layer_repo.write(".ai/repo/rules/project/api-errors.md", scoped)
    declare(layer_repo, [("aider", "CONVENTIONS.md")])
    assert layer_repo.mj("update").code == 0
    level, message = reach(layer_repo)["project.api-errors@1"]
    assert level == "FAIL"
    assert re.search(r"aider: .*CONVENTIONS\.md is read only on request", message), message
    doctor = layer_repo.mj("doctor")
    assert doctor.code == 10, doctor
    declare(layer_repo, [("aider", "CONVENTIONS.md"), ("cursor", ".cursor/rules/majordomus.mdc")])
    assert layer_repo.mj("update").code == 0
    assert reach(layer_repo)["project.api-errors@1"] == ("OK", "reaches cursor")
