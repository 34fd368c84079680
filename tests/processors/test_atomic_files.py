"""One atomic writer for every file the house writes (designs, scripts, thread exports, MCP approvals, the key
endpoints book, lab reports): all or nothing, fsync'd (file and folder), the replaced file's permissions kept, and
the process's umask never touched (the lab wrote its reports from a worker thread with ``os.umask(0)``)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from lab.reports import write_atomically
from processors.atomic_files import current_umask, write_atomic
from studio.keys.endpoints import EndpointBook
from studio.system.files import write_text_atomic

WRITERS: dict[str, Callable[[Path, str], None]] = {
    "the helper": lambda path, text: write_atomic(path, text),
    "studio files": lambda path, text: write_text_atomic(path, text),
    "lab reports": lambda path, text: write_atomically(path, text),
}


class Watched:
    """What the real ``os`` functions were asked while a write ran (the calls go through to them)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.synced: list[str] = []
        self.umasks: list[int] = []
        real_fsync, real_umask = os.fsync, os.umask

        def fsync(fd: int) -> None:
            self.synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
            real_fsync(fd)

        def umask(mask: int) -> int:
            self.umasks.append(mask)
            return real_umask(mask)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "umask", umask)


@pytest.mark.parametrize("writer", list(WRITERS), ids=list(WRITERS))
def test_every_writer_syncs_the_file_and_its_folder_and_leaves_the_umask_alone(
    writer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    watched = Watched(monkeypatch)
    target = tmp_path / "out.txt"
    WRITERS[writer](target, "héllo")
    assert target.read_text(encoding="utf-8") == "héllo"
    assert watched.synced == ["file", "folder"]
    assert watched.umasks == [], "os.umask changes the mask of every thread while it is set"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


@pytest.mark.parametrize("writer", list(WRITERS), ids=list(WRITERS))
def test_every_writer_keeps_the_replaced_files_permissions_and_gives_a_new_one_the_umasks(
    writer: str, tmp_path: Path
) -> None:
    kept = tmp_path / "private.txt"
    kept.write_text("old", encoding="utf-8")
    kept.chmod(0o600)
    WRITERS[writer](kept, "new")
    assert (kept.read_text(encoding="utf-8"), stat.S_IMODE(kept.stat().st_mode)) == ("new", 0o600)
    fresh = tmp_path / "fresh.txt"
    WRITERS[writer](fresh, "new")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~current_umask()


def test_a_failed_replace_leaves_the_target_as_it_was_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()  # os.replace cannot put a file over a folder
    (target / "inside").write_text("kept", encoding="utf-8")
    with pytest.raises(IsADirectoryError):
        write_atomic(target, b"data")
    assert (target / "inside").read_text(encoding="utf-8") == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def test_text_that_cannot_be_encoded_fails_before_anything_is_touched(tmp_path: Path) -> None:
    target = tmp_path / "old.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "lone \udc80 surrogate")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["old.txt"]


def test_the_key_endpoints_book_is_written_through_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    watched = Watched(monkeypatch)
    book = EndpointBook(tmp_path / "endpoints.json")
    book.approve("openai", "https://example.com/v1")
    assert watched.synced == ["file", "folder"]
    assert EndpointBook(tmp_path / "endpoints.json").approved("openai") == ["https://example.com/v1"]
