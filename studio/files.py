"""Writing the user's files: all or nothing, and names a file dialog can suggest.

Every file the studio writes (a design, an exported script, an exported thread) goes through
:func:`write_text_atomic`: the text is encoded *first*, written to a temporary file in the same folder, flushed
to disk and then moved over the target with ``os.replace``. A failure at any point — a character that cannot be
encoded, a full disk, a folder the user may not write — leaves the old file exactly as it was (opening the
target for writing would have truncated it to 0 bytes before the error) and raises :class:`FileWriteError`
with a sentence the UI can show.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import unicodedata
from pathlib import Path

#: Longest file name stem a suggestion gets (well below every file system's 255-byte limit).
MAX_STEM = 60


class FileWriteError(OSError):
    """A file could not be written; the message says which and why, and that the old file is unchanged."""


def write_text_atomic(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` so that it holds either its old content or all of the new, never less."""
    target = Path(path)
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError as error:
        raise FileWriteError(f"{target.name} was not written: the text cannot be encoded ({error.reason})") from error
    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise FileWriteError(f"{target.name} was not written: {_reason(error)}") from error
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if target.exists():  # keep the permissions the user gave the file (mkstemp makes it 0600)
            with contextlib.suppress(OSError):
                os.chmod(temp_name, target.stat().st_mode & 0o7777)
        else:
            with contextlib.suppress(OSError):
                os.chmod(temp_name, 0o666 & ~_umask())
        os.replace(temp_name, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        if isinstance(error, OSError):
            raise FileWriteError(f"{target.name} was not written: {_reason(error)}") from error
        raise


def _reason(error: OSError) -> str:
    return f"{error.strerror or error} (the existing file, if any, is unchanged)"


def _umask() -> int:
    """The process's umask, read without changing it (``os.umask`` would, for every thread, for a moment)."""
    with contextlib.suppress(OSError, ValueError, StopIteration), open("/proc/self/status", encoding="ascii") as status:
        return int(next(line for line in status if line.startswith("Umask:")).split()[1], 8)
    return 0o022


def suggested_file_name(name: str, suffix: str, *, fallback: str = "agent") -> str:
    """A safe file name for ``name`` (a design's or thread's): ASCII letters, digits, ``_`` and ``-`` only,
    lower case, words joined by ``_``; ``fallback`` when nothing is left. ``"Support agent (offline demo)"``
    with ``".py"`` gives ``support_agent_offline_demo.py``."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[A-Za-z0-9]+", ascii_name)
    stem = "_".join(words).lower()[:MAX_STEM].strip("_") or fallback
    if suffix == ".py" and stem[0].isdigit():  # an importable module name, too
        stem = f"{fallback}_{stem}"
    return stem + suffix


__all__ = ["FileWriteError", "suggested_file_name", "write_text_atomic"]
