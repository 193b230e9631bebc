"""Side by side, in one run: `majordomus update` for twelve providers against Ruler
(`ruler apply`) and rulesync (`rulesync generate`) on the same two rules.

    python packages/mj-watch/benchmarks/peers.py --prefix <npm prefix> [--samples 10] [--rulesync
    SPEC]

The npm prefix holds `@intellectronica/ruler` and rulesync (installed there when absent, by
`npm install` run inside the prefix; `--rulesync` is the package spec, `rulesync` by
default: its releases from 2.x on call `fs.globSync`, which Node.js 20 lacks, where
`rulesync@0.67.0` runs). Each tool writes its files into its own scratch repository; before
every sample the files it wrote are removed, so every sample generates all of them. A sample
is one whole process, timed from spawn to exit; the tools take turns, one sample each per
round, so a change in the machine's load falls on all of them alike. The result is each
tool's median and the ratio of medians; a tool that cannot run here is named with its first
error line.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROVIDERS = {  # majordomus → (target, Ruler agent, rulesync target)
    "claude-code": ("CLAUDE.md", "claude", "claudecode"),
    "codex": ("AGENTS.md", "codex", "codexcli"),
    "gemini": ("GEMINI.md", "gemini-cli", "geminicli"),
    "cursor": (".cursor/rules/majordomus.mdc", "cursor", "cursor"),
    "copilot": (".github/copilot-instructions.md", "copilot", "copilot"),
    "opencode": ("AGENTS.md", "opencode", "opencode"),
    "qwen-code": ("QWEN.md", "qwen", "qwencode"),
    "windsurf": (".windsurf/rules/majordomus.md", "windsurf", "windsurf"),
    "cline": (".clinerules/majordomus.md", "cline", "cline"),
    "kilo-code": (".kilocode/rules/majordomus.md", "kilocode", "kilo"),
    "roo-code": (".roo/rules/majordomus.md", "roo", "roo"),
    "junie": (".junie/guidelines.md", "junie", "junie"),
}
RULES = {
    "no-print": (
        "No print in library code",
        "Library code never calls print(); it uses the logging module.",
        None,
    ),
    "api-errors": (
        "API handlers return problem details",
        "Every error an API handler returns is an application/problem+json body.",
        "src/api/**",
    ),
}


UNKNOWN_TARGETS = re.compile(r"Invalid tool targets: ([a-z0-9,-]+)\.")


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(("git", "init", "-q"), cwd=path, check=True)
    (path / "README.md").write_text("# scratch\n\nAI workers: read AGENTS.md.\n")
    return path


def majordomus_repo(path: Path) -> list[str]:
    subprocess.run(("majordomus", "init"), cwd=git_repo(path), check=True, capture_output=True)
    policy = path / ".ai/repo/policy.yaml"
    text = policy.read_text()
    lines = ["", "projections:"]
    seen = set()
    for provider, (target, _, _) in PROVIDERS.items():
        if target in seen:  # OpenCode reads the AGENTS.md Codex reads
            continue
        seen.add(target)
        lines += [f"  - provider: {provider}", f"    target: {target}"]
    policy.write_text(text[: text.index("\nprojections:")] + "\n".join(lines) + "\n")
    for slug, (title, statement, glob) in RULES.items():
        scope = f"paths:\n  - {glob}\n" if glob else "always_loaded: true\n"
        (path / f".ai/repo/rules/project/{slug}.md").write_text(
            f"---\nid: project.{slug}\nversion: 1\nkind: rule\ntitle: {title}\n"
            f"description: {title}.\nstatement: {statement}\nstatus: active\n"
            f"class: advisory\ndepends_on: []\ntags: []\n{scope}---\n"
        )
    return ["majordomus", "update"]


def ruler_repo(path: Path, prefix: Path) -> list[str]:
    ruler = str(prefix / "node_modules/.bin/ruler")
    subprocess.run((ruler, "init"), cwd=git_repo(path), check=True, capture_output=True)
    for slug, (title, statement, _) in RULES.items():
        (path / ".ruler" / f"{slug}.md").write_text(f"# {title}\n\n{statement}\n")
    agents = ",".join(ruler_agent for _, ruler_agent, _ in PROVIDERS.values())
    return [ruler, "apply", "--agents", agents, "--no-backup", "--no-gitignore", "--no-mcp"]


def rulesync_repo(path: Path, prefix: Path) -> list[str]:
    rulesync = str(prefix / "node_modules/.bin/rulesync")
    rules = git_repo(path) / ".rulesync" / "rules"
    rules.mkdir(parents=True)
    for index, (slug, (title, statement, glob)) in enumerate(RULES.items()):
        globs = f'["{glob}"]' if glob else '["**/*"]'
        root = "true" if index == 0 else "false"
        (rules / f"{slug}.md").write_text(
            f'---\nroot: {root}\ntargets: ["*"]\ndescription: "{title}"\nglobs: {globs}\n'
            f"---\n\n# {title}\n\n{statement}\n"
        )
    targets = ",".join(sorted({t for _, _, t in PROVIDERS.values()}))
    return [rulesync, "generate", "--targets", targets, "--features", "rules"]


def untracked(repo: Path) -> list[Path]:
    out = subprocess.run(
        ("git", "ls-files", "-o", "--exclude-standard", "-z"),
        cwd=repo,
        capture_output=True,
        check=True,
    ).stdout.decode()
    keep = (".ai/", ".ruler/", ".rulesync/", "README.md")
    return [repo / p for p in out.split("\0") if p and not p.startswith(keep)]


def first_run(argv: list[str], repo: Path) -> tuple[list[Path] | None, str]:
    """The files one run writes (what every sample regenerates), or None and the first error."""
    first = subprocess.run(argv, cwd=repo, capture_output=True, text=True, check=False)
    if first.returncode != 0:
        said = (first.stderr.strip() or first.stdout.strip() or "no output").splitlines()
        return None, next((s for s in said if "rror" in s), said[0])
    written = untracked(repo)
    return written, f"{len(written)} files"


def sample(argv: list[str], repo: Path, written: list[Path]) -> float:
    for path in written:
        path.unlink(missing_ok=True)
    start = time.perf_counter()
    subprocess.run(argv, cwd=repo, capture_output=True, check=True)
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prefix", type=Path, required=True, help="npm prefix of the peers")
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--rulesync", default="rulesync", help="rulesync's npm package spec")
    options = parser.parse_args()
    if not (options.prefix / "node_modules/.bin/rulesync").exists():
        npm = shutil.which("npm") or "npm"
        options.prefix.mkdir(parents=True, exist_ok=True)
        manifest = options.prefix / "package.json"
        if not manifest.exists():
            manifest.write_text('{"private": true}\n')
        install = (npm, "install", "-q", "@intellectronica/ruler", options.rulesync)
        subprocess.run(install, cwd=options.prefix, check=False)  # a peer missing is reported
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        runs = {
            "majordomus update": (majordomus_repo(base / "mj"), base / "mj"),
            "ruler apply": (ruler_repo(base / "ruler", options.prefix), base / "ruler"),
            "rulesync generate": (
                rulesync_repo(base / "rulesync", options.prefix),
                base / "rulesync",
            ),
        }
        firsts = {name: first_run(argv, repo) for name, (argv, repo) in runs.items()}
        argv, repo = runs["rulesync generate"]
        unknown = UNKNOWN_TARGETS.search(firsts["rulesync generate"][1])
        if firsts["rulesync generate"][0] is None and unknown:  # an older release: fewer targets
            dropped = set(unknown.group(1).split(","))
            kept = [t for t in argv[argv.index("--targets") + 1].split(",") if t not in dropped]
            argv[argv.index("--targets") + 1] = ",".join(kept)
            written, note = first_run(argv, repo)
            firsts["rulesync generate"] = (
                written,
                f"{note}; {len(kept)} targets, no {unknown.group(1)}",
            )
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(options.samples):
            for name, (argv, repo) in runs.items():
                written = firsts[name][0]
                if written is not None:
                    times[name].append(sample(argv, repo, written))
    medians = {name: statistics.median(t) if t else None for name, t in times.items()}
    ours = medians["majordomus update"]
    print(f"{'tool':<20} {'median ms':>10}  ratio to majordomus  notes")
    for name, median in medians.items():
        note = firsts[name][1]
        if median is None:
            print(f"{name:<20} {'—':>10}  {'—':>19}  could not run here: {note}")
            continue
        ratio = f"{median / ours:.1f}×" if ours else "—"
        print(f"{name:<20} {median:>10.1f}  {ratio:>19}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
