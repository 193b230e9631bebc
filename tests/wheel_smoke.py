"""Wheels smoke test: the non-editable install initialises and checks a scratch repository.

Run by the `wheels` tox environment as `python tests/wheel_smoke.py <bin dir>`. It proves that
`share/` ships with the install: `init` copies the skeleton and the rule package out of it, and
`doctor` validates them against the shipped schemas.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path


def _install_hooks(root: Path) -> None:
    """The two hook lines `init` prints (CLI-REFERENCE §2.31)."""
    hooks = root / ".git" / "hooks"
    lines = {
        "pre-commit": "majordomus doctor || exit $?",
        "pre-push": "majordomus finish --check || exit $?",
    }
    for name, line in lines.items():
        hook = hooks / name
        hook.write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
        hook.chmod(0o755)


def _redacts(tool: Path, root: Path, env: dict[str, str]) -> bool:
    """The credential detector works from the wheels: a prompt's key (found by the library's
    keyword plugin, not by a shape of our own) is archived redacted."""
    import json

    value = "-".join(("Zq8x71", "kPwQ3v"))  # built here: no credential sits in this file
    payload = {"hook_event_name": "UserPromptSubmit", "prompt": f"db_password: {value}"}
    subprocess.run([str(tool), "capture", "prompt"], cwd=root, env=env, check=False,
                   input=json.dumps(payload), capture_output=True, text=True)  # fmt: skip
    archived = list((root / ".ai" / "local" / "prompts").glob("*.json"))
    text = archived[0].read_text(encoding="utf-8") if archived else ""
    kinds = json.loads(text).get("redactions") if text else None
    print(f"$ majordomus capture prompt  (redactions: {kinds})")
    if value in text or kinds != {"Secret Keyword": 1}:
        print("the prompt was not archived redacted by the detector library")
        return False
    return True


def main(bin_dir: str) -> int:
    tool = Path(bin_dir) / "majordomus"
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(
            GIT_CONFIG_GLOBAL="/dev/null",
            GIT_CONFIG_NOSYSTEM="1",
            GIT_AUTHOR_NAME="mj",
            GIT_AUTHOR_EMAIL="mj@example.invalid",
            GIT_COMMITTER_NAME="mj",
            GIT_COMMITTER_EMAIL="mj@example.invalid",
        )
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, env=env, check=True)
        # doctor requires the README to name AGENTS.md, where every provider's bootstrap points
        (root / "README.md").write_text("# scratch\n\nWorkers: see AGENTS.md.\n", encoding="utf-8")
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
        for argv in (["version"], ["init"], ["update"], ["doctor"]):
            if argv == ["doctor"]:
                _install_hooks(root)
            proc = subprocess.run(
                [str(tool), *argv], cwd=root, env=env, capture_output=True, text=True, check=False
            )
            print(f"$ majordomus {' '.join(argv)}  (exit {proc.returncode})")
            print(proc.stdout + proc.stderr, end="")
            if proc.returncode != 0:
                return 1
        if not (
            root / ".ai" / "repo" / "rules" / "vendor" / "majordomus" / "manifest.yaml"
        ).is_file():
            print("the vendored rule package was not written: share/ did not ship")
            return 1
        if not _redacts(tool, root, env):
            return 1
    print("wheels smoke: ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
