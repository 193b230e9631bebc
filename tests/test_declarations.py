"""Workspaces and deployments as schema-validated declarations (SCHEMAS workspace/v1,
deployment/v1; Decision 14: declared only): doctor FAILs (10) every defect, a credential-shaped
value named by file, line and key and never echoed, and `context` names the declared workspace
of the task's scope."""

from __future__ import annotations

import pytest
from conftest import Repo
from conftest import failures
from conftest import wire

WORKSPACE = """schema: workspace/v1
kind: workspace
id: chatgpt-design
title: The design project
description: Design conversations this repository reads.
status: declared
vendor:
  id: chatgpt
  name: ChatGPT
  origins:
    - https://chatgpt.com
upstream:
  id: g-p-0123456789abcdef
  kind: project
  url: https://chatgpt.com/g/g-p-0123456789abcdef/project
authorisation:
  asserted_by: The maintainer
  asserted_at: "2026-09-09"
  statement: "The maintainer may read this project's conversations for this repository."
  write: false
access:
  browser_profile: default
  transports: [browser]
capabilities:
  - workspace.read
  - conversations.read
scope:
  - docs
"""
DEPLOYMENT = """schema: deployment/v1
kind: deployment
id: service
title: The service
description: Serves the API to its operators.
status: declared
application: service
build:
  package: service-cli
  binary: service
  profile: release
  inputs: [src, share]
listen:
  port: 8080
  interface: all
health:
  liveness: /api/v1/live
  readiness: /api/v1/ready
  grace_seconds: 2
  interval_seconds: 15
  timeout_seconds: 2
resources:
  cpu_kind: shared
  cpus: 1
  memory_mb: 256
machines:
  count: 1
  min_running: 0
  autostart: true
  autostop: true
region: fra
"""
WS = ".ai/repo/workspaces/chatgpt-design.yaml"
DEP = ".ai/repo/deployments/service.yaml"
TOKEN = "ghp_" + "Zq8" * 12  # a GitHub token's shape, built so no literal sits in the tree
AWS = "AKIA" + "Q7" * 8
WORD = "Hunter2" * 2  # a URL's password, built so none sits in the tree


@pytest.fixture
def declared(layer_repo: Repo) -> Repo:
    wire(layer_repo)
    assert layer_repo.mj("update").code == 0
    layer_repo.write(WS, WORKSPACE)
    layer_repo.write(DEP, DEPLOYMENT)
    layer_repo.commit("declarations")
    return layer_repo


def _declaration_failures(repo: Repo) -> tuple[int, list[tuple[str, str, str, str]], str]:
    result = repo.mj("doctor")
    found = [f for f in failures(result.out) if f[0] == "declaration"]
    return result.code, found, result.out + result.err


def test_valid_declarations_pass_doctor(declared: Repo) -> None:
    result = declared.mj("doctor")
    assert result.code == 0, result
    assert "OK   declaration .ai/repo — 1 workspace(s), 1 deployment(s) hold to their schemas" in (
        result.out
    )


CREDENTIALS = [
    (DEP, DEPLOYMENT.replace("region: fra", f"region: {TOKEN}"), "region", "GitHub Token"),
    (
        DEP,
        DEPLOYMENT.replace("  memory_mb: 256", f'  memory_mb: "{AWS}"'),
        "resources.memory_mb",
        "AWS Access Key",
    ),
    (DEP, DEPLOYMENT + f"token: {TOKEN}\n", "token", "GitHub Token"),
    (
        WS,
        WORKSPACE.replace("https://chatgpt.com/g", "https://me:" + WORD + "@chatgpt.com/g"),
        "upstream.url",
        "Basic Auth Credentials",
    ),
    (
        WS,
        WORKSPACE.replace("  browser_profile: default", "  browser_profile: Bearer s3cr3tv4lue99"),
        "access.browser_profile",
        "authorization header value",
    ),
]


@pytest.mark.parametrize(
    ("path", "text", "key", "shape"), CREDENTIALS, ids=[c[2] for c in CREDENTIALS]
)
def test_a_credential_shaped_value_is_10_naming_the_key_never_the_value(
    declared: Repo, path: str, text: str, key: str, shape: str
) -> None:
    declared.write(path, text)
    code, found, said = _declaration_failures(declared)
    assert code == 10, said
    assert any(s.startswith(f"{path}:") and m.startswith(f"{key}: ") and shape in m
               for _, s, m, _ in found), found  # fmt: skip
    as_json = declared.mj("doctor", "--json")
    assert as_json.code == 10
    for secret in (TOKEN, AWS, WORD, "s3cr3tv4lue99"):
        assert secret not in said and secret not in as_json.out + as_json.err


DEFECTS = [
    (DEP, DEPLOYMENT + "provider: fly\n", "unknown key 'provider'"),
    (DEP, DEPLOYMENT.replace("region: fra\n", ""), "missing key 'region'"),
    (DEP, DEPLOYMENT.replace("status: declared", "status: live"), "status"),
    (DEP, DEPLOYMENT.replace("port: 8080", "port: 80"), "port"),
    (DEP, DEPLOYMENT.replace("min_running: 0", "min_running: 3"), "min_running is over count"),
    (DEP, DEPLOYMENT.replace("id: service", "id: other"), "is not the file name (service)"),
    (
        WS,
        WORKSPACE.replace("browser_profile: default", "browser_profile: /home/me/.cfg"),
        "browser_profile",
    ),
    (WS, WORKSPACE.replace("write: false", "write: maybe"), "write"),
    (WS, WORKSPACE.replace("  id: chatgpt\n", "  id: chatgpt\n  id: again\n"), "duplicate"),
]


@pytest.mark.parametrize(("path", "text", "said"), DEFECTS, ids=[d[2] for d in DEFECTS])
def test_doctor_fails_each_defect_naming_file_and_line(
    declared: Repo, path: str, text: str, said: str
) -> None:
    declared.write(path, text)
    code, found, out = _declaration_failures(declared)
    assert code == 10, out
    assert any(s.startswith(path) and said in m for _, s, m, _ in found), found
    assert all(reproduce == "majordomus doctor" for *_, reproduce in found)


def test_context_names_the_declared_workspace_of_the_tasks_scope(declared: Repo) -> None:
    elsewhere = WORKSPACE.replace("id: chatgpt-design", "id: elsewhere")
    declared.write(".ai/repo/workspaces/elsewhere.yaml", elsewhere.replace("  - docs", "  - src/a"))
    retired = WORKSPACE.replace("id: chatgpt-design", "id: retired")
    declared.write(".ai/repo/workspaces/retired.yaml", retired.replace("declared", "retired"))
    declared.commit("more workspaces")
    assert declared.mj("start", "write the guide", "--scope", "docs/guide").code == 0
    briefing = declared.mj("context")
    assert briefing.code == 0, briefing
    lines = briefing.out.splitlines()
    at = lines.index(
        "## WORKSPACES (declared for the scope; read only, never a source of this repository)"
    )
    assert lines[at + 1].startswith("- chatgpt-design: The design project — ChatGPT, https://")
    assert "elsewhere" not in briefing.out and "retired:" not in briefing.out


def test_context_says_when_no_declared_workspace_is_for_the_scope(declared: Repo) -> None:
    assert declared.mj("start", "fix the api", "--scope", "src").code == 0
    briefing = declared.mj("context")
    assert briefing.code == 0 and "- workspaces — none of the 1 declared is for the scope" in (
        briefing.out
    )
