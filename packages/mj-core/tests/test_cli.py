from __future__ import annotations

import argparse
import io
from collections.abc import Iterable
from typing import Any

from mj_core.cli import Context
from mj_core.cli import Stage
from mj_core.cli import guard
from mj_core.cli import tool_main
from mj_core.errors import Refused
from mj_core.findings import Finding


def _echo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fail", action="store_true")


def _echo(options: argparse.Namespace, context: Context) -> Iterable[dict[str, Any]]:
    yield from context.records()
    if options.fail:
        yield Finding("FAIL", "test", "x", "failed", "true").record()


TABLE = {"echo": Stage("copy input records", _echo_arguments, _echo)}


def _main(argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    code = tool_main(
        "mj-test", "test tool", TABLE, argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err
    )
    return code, out.getvalue(), err.getvalue()


def test_stage_copies_records_and_returns_the_verdict() -> None:
    assert _main(["echo"], b'{"kind":"x"}\n') == (0, b'{"kind":"x"}\n', "")
    code, out, _ = _main(["echo", "--fail"])
    assert code == 10 and b'"level":"FAIL"' in out


def test_empty_input_is_valid_and_silent() -> None:
    assert _main(["echo"]) == (0, b"", "")


def test_malformed_input_is_one_line_with_code_10() -> None:
    code, _, err = _main(["echo"], b"not json\n")
    assert code == 10
    assert err.count("\n") == 1 and err.startswith("mj-test: <stdin>:1: not JSON")


def test_usage_errors_are_one_line_and_exit_2() -> None:
    code, _, err = _main(["nope"])
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    code, _, err = _main(["echo", "--bogus"])
    assert code == 2 and "unrecognized arguments" in err


def test_guard_turns_errors_into_codes() -> None:
    err = io.StringIO()

    def refuse() -> int:
        raise Refused("x.yaml: already exists")

    assert guard("mj-test", refuse, err) == 15
    assert err.getvalue() == "mj-test: x.yaml: already exists\n"

    def crash() -> int:
        raise RuntimeError("boom\nsecond line")

    err = io.StringIO()
    assert guard("mj-test", crash, err) == 13
    assert err.getvalue().startswith("mj-test: internal error: RuntimeError: boom")
