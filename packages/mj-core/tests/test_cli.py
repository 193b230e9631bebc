from __future__ import annotations

import argparse
import io
import json
from collections.abc import Iterable
from typing import Any

from mj_core.cli import guard
from mj_core.cli import tool_main
from mj_core.errors import Refused
from mj_core.findings import Finding
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage


def _echo(options: argparse.Namespace, context: Context) -> Iterable[dict[str, Any]]:
    yield from context.records()
    if options.fail:
        yield Finding("FAIL", "test", "x", "failed", "true").record()


TABLE = {"echo": Stage(_echo)}
DECLARED = {
    "echo": {
        "help": "copy input records",
        "options": [{"name": "fail", "flag": "--fail", "help": "add a failing finding"}],
    }
}
END = b'{"kind":"summary","stage":"mj-test up","exit":0,"counts":{"x":1}}\n'


def _main(argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    code = tool_main(
        "mj-test", "test tool", TABLE, argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err,
        declared=DECLARED,
    )  # fmt: skip
    return code, out.getvalue(), err.getvalue()


def _summary(out: bytes) -> dict[str, Any]:
    return json.loads(out.splitlines()[-1])


def test_stage_copies_records_and_ends_with_its_verdict() -> None:
    code, out, err = _main(["echo"], b'{"kind":"x"}\n' + END)
    assert (code, err) == (0, "") and out.startswith(b'{"kind":"x"}\n')
    assert _summary(out) == {"kind": "summary", "stage": "mj-test echo", "exit": 0,
                             "counts": {"x": 1}}  # fmt: skip
    code, out, _ = _main(["echo", "--fail"], b'{"kind":"x"}\n' + END)
    assert code == 10 and b'"level":"FAIL"' in out and _summary(out)["exit"] == 10


def test_empty_input_fails_closed_with_12() -> None:
    code, out, err = _main(["echo"])
    assert code == 12 and err.count("\n") == 1 and _summary(out)["exit"] == 12


def test_a_stream_without_its_summary_is_13() -> None:
    code, out, err = _main(["echo"], b'{"kind":"x"}\n')
    assert code == 13 and "without its summary" in err and _summary(out)["exit"] == 13


def test_a_stream_cut_inside_its_last_line_is_13() -> None:
    """A producer that died mid-write: every line before the last is a record, the last is cut
    short. That is a broken stage (13), never a YAML document with a syntax error (10)."""
    whole = b'{"kind":"x"}\n{"kind":"x","n":1}\n' + END
    for cut in (len(whole) - 5, len(whole) - len(END) // 2, 20):
        code, out, err = _main(["echo"], whole[:cut])
        assert code == 13 and err.count("\n") == 1, (cut, err)
        assert "cut inside line" in err and "yaml" not in err.lower(), err
        assert _summary(out)["exit"] == 13


def test_a_bad_line_inside_a_stream_names_it() -> None:
    code, _, err = _main(["echo"], b'{"kind":"x"}\n{"kind": x}\n' + END)
    assert code == 10 and err.count("\n") == 1 and ":2:" in err and "yaml" not in err.lower()


def test_an_upstream_failure_passes_its_code_on_without_a_word() -> None:
    failed = b'{"kind":"summary","stage":"mj-test up","exit":15,"counts":{},"error":"x: refused"}\n'
    code, out, err = _main(["echo"], failed)
    assert (code, err) == (15, "") and _summary(out)["exit"] == 15
    verdict = b'{"kind":"x"}\n{"kind":"summary","stage":"mj-test up","exit":10,"counts":{"x":1}}\n'
    code, out, _ = _main(["echo"], verdict)
    assert code == 10 and _summary(out)["exit"] == 10  # a complete stream's verdict passes on


def test_one_yaml_document_on_stdin_is_one_record_and_needs_no_summary() -> None:
    code, out, _ = _main(["echo"], b"kind: x\nvalue: 1\n")
    assert code == 0 and json.loads(out.splitlines()[0]) == {"kind": "x", "value": 1}


def test_malformed_input_is_one_line_with_code_10() -> None:
    code, _, err = _main(["echo"], b"{not json\n")
    assert code == 10
    assert err.count("\n") == 1 and err.startswith("mj-test: <stdin>")


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
