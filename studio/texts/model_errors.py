"""A failed model call in the reader's language: the runtime's English sentence reworded from its stable ``kind``.

:class:`processors.errors.ModelAPIError` (and the ``error`` chunk or message part made from it) carries the English
``message`` and, for a failure without an HTTP answer, a ``kind`` (``timeout``, ``unreachable``,
``dropped_stream``) and the transport's ``detail``. The chat and the connection test show
:func:`model_error_message`: the sentence of that kind, translated, with the detail as the transport wrote it. A
provider's own words (an HTTP error's message) and an error without a known kind (an older stored thread, a
custom model) are shown as written. Plain Python (the chat's model imports it; no Qt by contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from studio.texts.translator import QT_TRANSLATE_NOOP, translate

__all__ = ["KIND_SENTENCES", "KNOWN_DETAILS", "model_error_message", "model_error_payload_message"]

#: The runtime's sentence for each kind (``processors.models.litellm_errors``), marked for translation.
KIND_SENTENCES: dict[str, str] = {
    "timeout": QT_TRANSLATE_NOOP("ModelError", "The provider did not answer in time"),
    "unreachable": QT_TRANSLATE_NOOP("ModelError", "Could not reach the provider"),
    "dropped_stream": QT_TRANSLATE_NOOP("ModelError", "The provider closed the stream before it finished"),
}

#: What litellm's transport says most often, beside the sentence (any other detail is shown as written).
KNOWN_DETAILS: dict[str, str] = {
    "Connection error.": QT_TRANSLATE_NOOP("ModelError", "Connection error."),
    "Request timed out.": QT_TRANSLATE_NOOP("ModelError", "Request timed out."),
}


def model_error_message(message: str, kind: str | None = None, detail: str | None = None) -> str:
    """``message`` in the studio's language when ``kind`` is known (English reads exactly as the runtime wrote it),
    else ``message`` unchanged."""
    sentence = KIND_SENTENCES.get(kind or "")
    if sentence is None:
        return message
    text = translate("ModelError", sentence)
    if detail:
        shown = translate("ModelError", KNOWN_DETAILS[detail]) if detail in KNOWN_DETAILS else detail
        return translate("ModelError", "{error} ({detail})").format(error=text, detail=shown)
    return text


def model_error_payload_message(error: Mapping[str, Any]) -> str:
    """The message of an ``error`` chunk's payload or an error part (``ModelAPIError.to_dict()``)."""
    message = str(error.get("message") or "").strip()
    kind = error.get("kind")
    detail = error.get("detail")
    return model_error_message(message, str(kind) if kind else None, str(detail) if detail else None)
