"""`mj_state.task.own_writes`: a file is the tool's own only when some sequence of the commands that
write it makes it of the file at the task's start — never by its look alone."""

from __future__ import annotations

from pathlib import Path

from mj_policy.projection.tool_writes import Writer
from mj_state.task import own_writes as ownwrites


def _settings(old: str | None) -> str | None:  # writes only where there is no file
    return '{"hooks": 1}\n' if old is None else old


def _mcp(old: str | None) -> str | None:  # adds its entry to whatever is there
    return (old or "") + "mcp\n"


WRITERS = [Writer("capture", _settings), Writer("mcp", _mcp)]


def test_a_file_two_commands_wrote_in_either_order_is_reached() -> None:
    assert ownwrites._reached('{"hooks": 1}\n', None, WRITERS)
    assert ownwrites._reached('{"hooks": 1}\nmcp\n', None, WRITERS)
    assert ownwrites._reached("mine\nmcp\n", "mine\n", WRITERS)


def test_what_no_command_makes_of_the_start_is_not() -> None:
    assert not ownwrites._reached('{"hooks": 2}\n', None, WRITERS)
    assert not ownwrites._reached('{"hooks": 1}\n', "mine\n", WRITERS)  # never overwrites
    assert not ownwrites._reached("mine\n", "mine\n", WRITERS)  # unchanged: not a write
    assert not ownwrites._reached(ownwrites.FOREIGN, None, WRITERS)
    assert not ownwrites._reached('{"hooks": 1}\n', ownwrites.FOREIGN, WRITERS)


def test_only_a_regular_file_reached_through_real_directories_is_read(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "f").write_text("text\n")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "l").symlink_to(tmp_path / "real" / "f")
    assert ownwrites._on_disk(tmp_path, "real/f") == "text\n"
    assert ownwrites._on_disk(tmp_path, "link/f") is ownwrites.FOREIGN
    assert ownwrites._on_disk(tmp_path, "real/l") is ownwrites.FOREIGN
    assert ownwrites._on_disk(tmp_path, "real") is ownwrites.FOREIGN
    assert ownwrites._on_disk(tmp_path, "real/absent") is None
    (tmp_path / "real" / "bytes").write_bytes(b"\xff\xfe")
    assert ownwrites._on_disk(tmp_path, "real/bytes") is ownwrites.FOREIGN


def test_git_entries_other_than_plain_files_are_not_files() -> None:
    entries = ["100644 blob aaa\ta", "100755 blob bbb\tb", "120000 blob ccc\tc",
               "160000 commit ddd\td", "040000 tree eee\te"]  # fmt: skip
    listing = "".join(f"{entry}\x00" for entry in entries)
    assert ownwrites._entries(listing) == {"a": "aaa", "b": "bbb", "c": None, "d": None, "e": None}
