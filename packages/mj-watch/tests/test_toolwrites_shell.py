"""What a shell command certainly writes (`act.shell_writes.targets`), what a tool call asks to
write (`act.intent`), and the judge's refusals (`act.judge`): pure functions, text in, targets
out."""

from __future__ import annotations

import pytest
from mj_watch.act import intent as toolintent
from mj_watch.act import judge as tooljudge
from mj_watch.act import shell_writes as shwrites
from mj_watch.act.facts import Place


def written(text: str) -> list[tuple[str, str | None]]:
    return [(path, cwd) for path, cwd, _, _ in shwrites.targets(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("echo x > a", [("a", ".")]),
        ("echo x >> a 2>&1", [("a", ".")]),
        ("echo x 2>/dev/null", [("/dev/null", ".")]),
        ("cd lib && echo x > a", [("a", "lib")]),
        ("cd lib; echo x > a", [("a", "lib")]),
        ("cd lib || true; echo x > a", []),  # where it runs is not known: not claimed
        ("(cd lib && touch a); touch b", [("a", "lib"), ("b", ".")]),
        ("sed -i s/a/b/ f g", [("f", "."), ("g", ".")]),
        ("sed s/a/b/ f", []),
        ("cp -r a b dest", [("dest", ".")]),
        ("mv a b", [("a", "."), ("b", ".")]),
        ("rm -rf build", [("build", ".")]),
        ("env A=1 nohup tee -a log", [("log", ".")]),
        ("sh -c 'echo x > inner'", [("inner", ".")]),
        ("echo $(touch sub)", [("sub", ".")]),
        ("echo x > $HOME/a", []),  # an expansion: not certain
        ("cp --weird a b", []),  # an option not known: nothing claimed
        ("cd $D && touch a", []),  # the directory cannot be read: a relative path is unknown
        ("cd $D && touch /abs", [("/abs", None)]),
        ("dd if=a of=b", [("b", ".")]),
        ("curl -o out http://x", [("out", ".")]),
        ("cat a | tee b", [("b", ".")]),
        ("if true; then echo > c; fi", [("c", ".")]),
        ("echo 'unterminated", []),
    ],
)
def test_certain_writes_are_read_from_the_text(text: str, expected: list[object]) -> None:
    assert written(text) == expected


TABLE = {"writes": {"Edit": "file_path"}, "shell": {"Bash": "command"}}


def test_a_call_names_its_write_or_is_unjudged() -> None:
    edit = toolintent.intent(TABLE, {"tool_name": "Edit", "tool_input": {"file_path": "/r/a"}})
    assert edit is not None and edit.targets == [("/r/a", ".", "Edit", None)]
    assert toolintent.intent(TABLE, {"tool_name": "Read", "tool_input": {}}) is None
    for bad in (None, [], {"tool_name": 1}, {"tool_name": "Edit", "tool_input": []},
                {"tool_name": "Edit", "tool_input": {"file_path": ""}},
                {"tool_name": "Bash", "tool_input": {"command": 3}}):  # fmt: skip
        with pytest.raises(toolintent.Unjudged):
            toolintent.intent(TABLE, bad)


def place(rel: str | None, real: str = "/r/x") -> Place:
    return Place(real, real, rel, "Edit")


def test_the_judge_refuses_what_it_must_and_nothing_else() -> None:
    scope = ["src"]
    assert tooljudge.refused([place("src/a")], scope) == []
    assert tooljudge.refused([place(".ai/repo/x")], scope) == []
    assert tooljudge.refused([place("srcx/a")], scope)[0][1].endswith("scope")
    assert "local" in tooljudge.refused([place(".ai/local/state/x")], None)[0][1]
    assert "git" in tooljudge.refused([place(".git/config")], None)[0][1]
    assert tooljudge.refused([place("lib/a")], None) == []
    assert tooljudge.refused([place("lib/a")], None, require_task=True)[0][1].startswith("no task")
    assert tooljudge.refused([place(None, "/etc/x")], scope)[0][1].endswith("repository")
    assert tooljudge.refused([place(None, "/tmp/x")], scope, scratch=("/tmp",)) == []
    assert tooljudge.refused([place(None, "/etc/x")], None) == []
