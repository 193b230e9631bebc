"""Reproduce commands: what a person pastes in the repository root to see the problem."""

from __future__ import annotations

import re
import shlex

_POSITION = r"^\S*?:(\d+):(\d+): "  # compiled (and cached) by `re` on the first parse error


def line_of(where: str) -> int:
    """The line of a `file:line:col` position (1 when it carries none)."""
    parts = where.rsplit(":", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else 1


def error_line(message: str) -> int | None:
    """The line a one-line `file:line:col: what — fix` error names, if it names one."""
    match = re.match(_POSITION, message)
    return int(match.group(1)) if match else None


def show_line(file: str, line: int) -> str:
    return f"sed -n '{line}p' {shlex.quote(file)}"


def show_error(file: str, message: str) -> str:
    """The line a parse error points at, or the head of the file when it points nowhere."""
    line = error_line(message)
    if line is None:
        return f"head -n 5 {shlex.quote(file)}"
    return show_line(file, line)


def last_key(dotted: str) -> str:
    return re.split(r"[.\]]", dotted)[-1].split("[")[0] or dotted


def show_key(file: str, dotted: str) -> str:
    """Every line where the key `dotted` ends in is written (`grep -n`)."""
    return f"grep -nF -e {shlex.quote(last_key(dotted) + ':')} {shlex.quote(file)}"


def show_absent(file: str, dotted: str) -> str:
    key = last_key(dotted)
    absent = shlex.quote(f"no '{key}:' line")
    return f"grep -nF -e {shlex.quote(key + ':')} {shlex.quote(file)} || echo {absent}"


def show_path(path: str) -> str:
    return f"ls -ld {shlex.quote(path)}"
