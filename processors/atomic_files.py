"""Writing a file all or nothing: the one helper every file the house writes goes through.

::

    from processors.atomic_files import write_atomic

    write_atomic("report.xml", xml_text)        # the old report, or the whole new one; never half of it

The data goes to a temporary file in the target's folder (so the final move stays on one file system), is flushed
and ``fsync``'d, gets the target's permissions (those of the file it replaces, or what the process's umask gives a
new file — ``mkstemp`` would leave 0600), and is moved over the target with ``os.replace``; the folder is then
``fsync``'d too, so that the move itself survives a power cut. A failure at any point removes the temporary file and
leaves the target as it was. The umask is read without being changed: ``os.umask`` sets it for the whole process,
every thread, for as long as it takes to set it back.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

#: What a new file's permissions start from, before the umask takes its bits away (as ``open()`` does).
_NEW_FILE_MODE = 0o666
#: The umask assumed where the process's own cannot be read without changing it (no ``/proc``).
_USUAL_UMASK = 0o022


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``data`` (text is encoded with ``encoding`` first, so an unencodable character fails
    before anything is touched). Raises ``OSError`` (and ``UnicodeEncodeError``) with the target unchanged."""
    target = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            os.fsync(stream.fileno())
        with contextlib.suppress(OSError):  # a file system without permissions (FAT, some mounts) still gets the data
            os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(target.parent)


def _mode_for(target: Path) -> int:
    """The permissions the written file gets: the replaced file's, or a new file's under the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return _NEW_FILE_MODE & ~current_umask()


def current_umask() -> int:
    """The process's umask, read without changing it (Linux: ``/proc/self/status``; elsewhere the usual 022)."""
    with contextlib.suppress(OSError, ValueError, StopIteration), open("/proc/self/status", encoding="ascii") as status:
        return int(next(line for line in status if line.startswith("Umask:")).split()[1], 8)
    return _USUAL_UMASK


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable (POSIX); a platform or file system that cannot open a folder is left as it is."""
    if os.name != "posix":
        return
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)


__all__ = ["current_umask", "write_atomic"]
