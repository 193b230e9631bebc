from __future__ import annotations

import pytest
from mj_watch import hookscan

DOCTOR = hookscan.call_pattern(["majordomus"], "doctor")


def one(text: str) -> hookscan.Call:
    found = hookscan.calls(text, DOCTOR)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    "text",
    [
        "#!/bin/sh\nmajordomus doctor || exit $?\necho after\n",
        "#!/bin/sh\nmajordomus doctor\n",
        "#!/bin/sh\nset -e\nmajordomus doctor\necho after\n",
        "#!/bin/sh -e\nmajordomus doctor\necho after\n",
        "#!/bin/sh\nexec majordomus doctor\n",
        "#!/bin/sh\n/opt/venv/bin/majordomus doctor || exit 1\necho after\n",
        "#!/bin/sh\nif ! majordomus doctor; then\n  exit 1\nfi\necho after\n",
        "#!/bin/sh\nmajordomus doctor || exit $?\n# majordomus doctor || true\n",
    ],
)
def test_propagating_calls(text: str) -> None:
    assert one(text).swallow is None


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("#!/bin/sh\nmajordomus doctor || true\n", "|| true"),
        ("#!/bin/sh\nmajordomus doctor || exit 0\n", "|| exit 0"),
        ("#!/bin/sh\nmajordomus doctor || :\n", "|| :"),
        ("#!/bin/sh\nmajordomus doctor; true\n", "; true"),
        ("#!/bin/sh\nset -e\nset +e\nmajordomus doctor\necho after\n", "set +e"),
        ("#!/bin/sh\nmajordomus doctor\necho after\n", "carries on"),
    ],
)
def test_swallowing_calls(text: str, why: str) -> None:
    call = one(text)
    assert call.swallow is not None and why in call.swallow


def test_explicit_swallow_is_marked() -> None:
    assert one("majordomus doctor || true\n").explicit
    assert not one("majordomus doctor\necho x\n").explicit


def test_other_subcommands_and_words_do_not_match() -> None:
    assert hookscan.calls("majordomus finish --check\n", DOCTOR) == []
    assert hookscan.calls("echo notmajordomus doctor-ish\n", DOCTOR) == []
    assert hookscan.calls("majordomus doctors\n", DOCTOR) == []
