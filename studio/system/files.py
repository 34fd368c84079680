"""Writing the user's files: all or nothing, and names a file dialog can suggest.

Every file the studio writes (a design, an exported script, an exported thread) goes through
:func:`write_text_atomic`: the text is encoded *first*, then written by the house's one atomic writer
(:func:`processors.atomic_files.write_atomic`: a temporary file in the same folder, fsync'd, the target's permissions,
``os.replace``, the folder fsync'd). A failure at any point — a character that cannot be
encoded, a full disk, a folder the user may not write — leaves the old file exactly as it was (opening the
target for writing would have truncated it to 0 bytes before the error) and raises :class:`FileWriteError`
with a sentence the UI can show.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

from processors.atomic_files import write_atomic

#: Longest file name stem a suggestion gets (well below every file system's 255-byte limit).
MAX_STEM = 60


class FileWriteError(OSError):
    """A file could not be written; the message says which and why, and that the old file is unchanged."""


def write_text_atomic(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` so that it holds either its old content or all of the new, never less
    (:func:`processors.atomic_files.write_atomic`, its failures worded for the user)."""
    target = Path(path)
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError as error:
        raise FileWriteError(f"{target.name} was not written: the text cannot be encoded ({error.reason})") from error
    try:
        write_atomic(target, data)
    except OSError as error:
        raise FileWriteError(f"{target.name} was not written: {_reason(error)}") from error


def _reason(error: OSError) -> str:
    return f"{error.strerror or error} (the existing file, if any, is unchanged)"


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
