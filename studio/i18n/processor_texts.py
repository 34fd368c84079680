"""The built-in processors' texts in the studio's language, looked up by processor id.

``processors/`` carries English only (it imports no Qt). ``scripts/translations`` extracts every built-in's
title, description, option labels and option help into the ``.ts`` files under the context
``processor:<id>``; the studio asks for the same context when it shows a processor type. A third-party plug-in
or a user's own processor has no entries there, so Qt returns its English text unchanged.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

__all__ = ["context_of", "processor_text"]


def context_of(processor_id: str) -> str:
    """The translation context of one processor type's texts."""
    return f"processor:{processor_id}"


def processor_text(processor_id: str, english: str) -> str:
    """``english`` (a title, description, option label or help of the processor) in the studio's language."""
    if not english:
        return english
    return QCoreApplication.translate(context_of(processor_id), english)
