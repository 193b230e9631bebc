"""`doctor` and `update --check` at head, for `verify`'s layer judgement: each run as this
interpreter's `majordomus` in the checkout, which must stand at head (CI checks head out);
standing elsewhere, the layer is not judged and the judge says so. Their findings are kept
(FAIL and DRIFT only), with each command's exit code. Doctor's `wiring` findings are left out:
the hooks wired are a checkout's own, not the commit's, and a CI clone has none; whether a
commit went past them is what coverage and the re-proof judge."""

from __future__ import annotations

import json
import subprocess
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

COMMANDS = (("doctor",), ("update", "--check"))
NOT_THE_COMMITS = ("wiring",)


def fact(root: Path, rng: Record) -> Record:
    out: Record = {"kind": "fact", "fact": "verify-layer", "head": rng["head"], "runs": []}
    if rng["checked_out"] != rng["head"]:
        out["judged"] = False
        return out
    out["judged"] = True
    from mj_core.git import questions as git

    started = []  # both at once: each is a Python start-up and a read of the layer
    for args in COMMANDS:
        argv = [sys.executable, "-m", "majordomus", *args, "--json"]
        started.append((args, subprocess.Popen(argv, cwd=root, env=git.clean_env(),
                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE)))  # fmt: skip
    for args, proc in started:
        stdout, stderr = proc.communicate()
        out["runs"].append(_one(args, proc.returncode, stdout, stderr))
    return out


def _one(args: tuple[str, ...], returncode: int, stdout: bytes, stderr: bytes) -> Record:
    failed = []
    for line in stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("kind") != "finding" or record.get("category") in NOT_THE_COMMITS:
            continue
        if record.get("level") in ("FAIL", "DRIFT"):
            failed.append(f"{record['category']} {record['subject']}: {record['message']}")
    code = 0 if returncode in (10, 11) and not failed else returncode
    error = stderr.decode("utf-8", "replace").strip().splitlines()
    return {"command": "majordomus " + " ".join(args), "exit": code,
            "failed": failed[:5], "error": error[-1] if error else None}  # fmt: skip
