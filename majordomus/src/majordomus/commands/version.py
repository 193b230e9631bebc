"""`majordomus version`: the installed package version; reads no repository state."""

from __future__ import annotations

HELP = "print the installed version"


def installed() -> str:
    from importlib.metadata import version

    return version("majordomus")
