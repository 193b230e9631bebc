"""argparse imported without gettext, its messages as written; gettext itself left whole."""

from __future__ import annotations

import subprocess
import sys


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_argparse_comes_without_gettext_and_says_its_messages_as_written() -> None:
    out = run(
        "import sys, io\n"
        "from mj_core.english import argparse\n"
        "assert 'gettext' not in sys.modules, 'gettext imported'\n"
        "p = argparse.ArgumentParser(prog='x')\n"
        "p.add_argument('name')\n"
        "sys.stderr = io.StringIO()\n"
        "try:\n"
        "    p.parse_args([])\n"
        "except SystemExit:\n"
        "    print(sys.stderr.getvalue().splitlines()[-1])\n"
        "print(argparse.ngettext('one', 'many', 2))\n"
        "import gettext\n"
        "print(gettext.__file__ is not None and hasattr(gettext, 'translation'))\n"
    )
    assert out == "x: error: the following arguments are required: name\nmany\nTrue\n"


def test_a_gettext_imported_first_is_kept_and_argparse_still_speaks_as_written() -> None:
    out = run(
        "import gettext, sys\n"
        "from mj_core.english import argparse\n"
        "assert sys.modules['gettext'] is gettext\n"
        "print(argparse._('usage: '), argparse.ngettext('a', 'b', 1))\n"
    )
    assert out == "usage:  a\n"
