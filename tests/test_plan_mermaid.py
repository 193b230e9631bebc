"""`plan graph` is Mermaid the Mermaid CLI parses: the real `mmdc` (`@mermaid-js/mermaid-cli`
from the npm registry) renders it to SVG, and every issue is a node there with its status's
class, every dependency an edge. Skipped with the reason when npm cannot install it or no
Chromium is there for it to render with.

The CLI is installed as the real clients are (`realclients._install`: inside its own prefix,
`$MJ_REAL_CLIENTS_EXTRA/mermaid-cli` else `real-clients-extra/mermaid-cli` beside their cache, a
failure kept for the rest of the run), with `PUPPETEER_SKIP_DOWNLOAD`: puppeteer's own browser
is a download from outside the registry. The browser is `$PUPPETEER_EXECUTABLE_PATH`, else
Debian's `chromium` (`apt-get install chromium`), run without its sandbox (as root, in a
container, it has none) through a puppeteer configuration file.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import realclients
from conftest import Repo
from test_plan import BASE
from test_plan import DONE
from test_plan import PROJECT
from test_plan import STARTED
from test_plan import VERIFIED
from test_plan import issue
from test_plan import milestone

PACKAGE = "@mermaid-js/mermaid-cli"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SVG = "{http://www.w3.org/2000/svg}"
NODE = re.compile(r"flowchart-(I\d+)-\d+$")
EDGE = re.compile(r"L_(I\d+)_(I\d+)_\d+$")


def mermaid_cli(tmp: Path) -> tuple[str, Path]:
    """The `mmdc` executable and a puppeteer configuration naming the browser (else skip)."""
    base = os.environ.get("MJ_REAL_CLIENTS_EXTRA")
    prefix = Path(base) if base else realclients.cache_dir().parent / "real-clients-extra"
    prefix /= "mermaid-cli"
    binary = prefix / "node_modules" / ".bin" / "mmdc"
    if not binary.exists():
        prefix.mkdir(parents=True, exist_ok=True)
        import fcntl

        with (prefix / ".install.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not binary.exists():
                env = {**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1"}
                realclients._install(prefix, (PACKAGE,), binary, env=env)
    browser = os.environ.get("PUPPETEER_EXECUTABLE_PATH") or next(
        (found for name in BROWSERS if (found := shutil.which(name))), None
    )
    if not browser:
        pytest.skip(
            "mermaid-cli: no Chromium to render with — `apt-get install chromium`, or set "
            "PUPPETEER_EXECUTABLE_PATH (puppeteer's own browser is not downloaded)"
        )
    config = tmp / "puppeteer.json"
    config.write_text(f'{{"executablePath": "{browser}", "args": ["--no-sandbox"]}}\n')
    return str(binary), config


def render(cli: tuple[str, Path], source: str, out: Path) -> subprocess.CompletedProcess[str]:
    binary, config = cli
    given = out.with_suffix(".mmd")
    given.write_text(source, encoding="utf-8")
    argv = [binary, "-q", "-p", str(config), "-i", str(given), "-o", str(out)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)


def drawn(svg: Path) -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """(each node's id → its classes, each edge as (from, to)) of a rendered flowchart."""
    tree = ET.parse(svg)
    nodes = {}
    for group in tree.iter(f"{SVG}g"):
        classes = set((group.get("class") or "").split())
        found = NODE.search(group.get("id") or "")
        if "node" in classes and found:
            nodes[found.group(1)] = classes
    edges = set()
    for path in tree.iter(f"{SVG}path"):
        found = EDGE.search(path.get("id") or "")
        if found:
            edges.add((found.group(1), found.group(2)))
    return nodes, edges


@pytest.fixture
def planned(layer_repo: Repo) -> Repo:
    layer_repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(layer_repo, "M000")
    milestone(layer_repo, "M001", order=1)
    issue(layer_repo, "I0001", extra=DONE)
    issue(layer_repo, "I0002", "I0001", extra=VERIFIED)
    issue(layer_repo, "I0003", "I0001", extra=STARTED)
    issue(layer_repo, "I0004", "I0001")
    issue(layer_repo, "I0005", "I0002, I0003", extra="cancelled: true\n")
    issue(layer_repo, "I0006", "I0004, I0005", milestone="M001")
    text = (layer_repo.root / f"{BASE}/issues/I0004.yaml").read_text(encoding="utf-8")
    title = 'title: "Parse <b>bold</b> \\"quoted\\" & more"'
    layer_repo.write(f"{BASE}/issues/I0004.yaml", text.replace("title: Issue I0004", title))
    layer_repo.commit("a plan in every state")
    return layer_repo


STATUSES = {"I0001": "done", "I0002": "verify", "I0003": "active", "I0004": "ready",
            "I0005": "cancelled", "I0006": "blocked"}  # fmt: skip
EDGES = {("I0001", "I0002"), ("I0001", "I0003"), ("I0001", "I0004"), ("I0002", "I0005"),
         ("I0003", "I0005"), ("I0004", "I0006"), ("I0005", "I0006")}  # fmt: skip


def test_the_mermaid_cli_renders_every_issue_and_dependency(planned: Repo, tmp_path: Path) -> None:
    cli = mermaid_cli(tmp_path)
    graph = planned.mj("plan", "graph")
    assert graph.code == 0, graph
    rendered = render(cli, graph.out, tmp_path / "plan.svg")
    assert rendered.returncode == 0, rendered.stderr[-2000:]
    nodes, edges = drawn(tmp_path / "plan.svg")
    assert {ident: STATUSES[ident] in classes for ident, classes in nodes.items()} == {
        ident: True for ident in STATUSES
    }
    assert edges == EDGES
    text = (tmp_path / "plan.svg").read_text(encoding="utf-8")
    assert "quoted" in text and "Parse" in text  # the escaped title is a label, not syntax


def test_a_milestone_graph_parses_and_a_broken_one_does_not(planned: Repo, tmp_path: Path) -> None:
    cli = mermaid_cli(tmp_path)
    graph = planned.mj("plan", "graph", "--milestone", "M001").out
    assert render(cli, graph, tmp_path / "m001.svg").returncode == 0
    nodes, edges = drawn(tmp_path / "m001.svg")
    assert nodes["I0006"] >= {"node", "blocked"} and edges == {
        ("I0004", "I0006"),
        ("I0005", "I0006"),
    }
    broken = graph.replace('I0006["', 'I0006["unclosed ', 1).replace('"]', "", 1)
    refused = render(cli, broken, tmp_path / "broken.svg")  # the CLI parses: it refuses this
    assert refused.returncode != 0 and not (tmp_path / "broken.svg").exists()
