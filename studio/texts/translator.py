"""Translatable texts for the studio's plain-Python modules (no Qt there, by contract).

``translate(context, text)`` returns ``text`` until :mod:`studio.i18n` connects Qt's translator at import time;
``pyside6-lupdate`` finds these calls like any other ``translate("Context", "text")``. A plural text carries
``%n``: ``translate("ChatItems", "%n token(s)", None, count)``.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["QT_TRANSLATE_NOOP", "english_plural", "number", "set_number_format", "set_translator", "translate"]

Translator = Callable[[str, str, "str | None", int], str]


def _english(_context: str, text: str, _disambiguation: str | None = None, n: int = -1) -> str:
    return text.replace("%n", str(n)) if n >= 0 else text


def english_plural(text: str, n: int) -> str:
    """The English plural of a text that no catalogue translated: "1 model(s)" → "1 model", "2 model(s)" → "2 models"
    (English needs no catalogue to read right, in tests or when a ``.qm`` is missing)."""
    if n < 0 or "(s)" not in text:
        return text
    return text.replace("(s)", "" if n == 1 else "s")


_translator: list[Translator] = [_english]
_number: list[Callable[[float, int], str]] = [lambda value, decimals: f"{value:,.{decimals}f}"]


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``text`` in the studio's language (English until a translator is connected)."""
    return english_plural(_translator[0](context, text, disambiguation, n), n)


def set_translator(translator: Translator) -> None:
    """Connect the translator (``studio.i18n`` passes Qt's ``QCoreApplication.translate``)."""
    _translator[0] = translator


def QT_TRANSLATE_NOOP(_context: str, text: str) -> str:
    """Mark ``text`` for translation where it is defined (a table); :func:`translate` it where it is shown."""
    return text


def number(value: float, decimals: int = 0) -> str:
    """``value`` as the studio's locale writes numbers (``1,234``; with ``decimals`` digits after the point)."""
    return _number[0](value, decimals)


def set_number_format(formatter: Callable[[float, int], str]) -> None:
    """Connect the locale's number formatting (``studio.i18n`` passes ``QLocale.toString``)."""
    _number[0] = formatter
