"""Shared by the language tests: find English a reader of a Chinese studio would meet (``in_language``, the
fixture that installs a language for one test, is in ``tests/studio/conftest.py``).

:func:`english_words` is the judge of "untranslated": it removes what is legitimately English in a Chinese UI
(identifiers, ids, wire values, model and product names, keys on the keyboard, file patterns, URLs) and
returns the English words left.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Names that stay as they are in every language: products, protocols, keys on the keyboard, parameter names.
PROPER_NAMES = (
    "Processor Studio",
    "LM Studio",
    "Ollama",
    "litellm",
    "LiteLLM",
    "Python",
    "PySide6",
    "Qt",
    "GNU",
    "LGPL",
    "Mastra",
    "Unicode",
    "pydantic",
    "promptfoo",
    "Enter",
    "Shift",
    "Ctrl",
    "Alt",
    "Esc",
    "Del",
    "Backspace",
    "Up",
    "Down",
    "Top p",
    "top p",
    "Retry-After",
    "demo",
    "python",
    "qt.io",
    "English",
    "Top &p",
    # finish reasons (wire values the inspector shows as they are)
    "stop",
    "length",
    "other",
    "abort",
    "tool-calls",
    "content-filter",
)
#: Tokens that are code or data, not prose.
_CODE = [
    r"\b\w+=\S*",  # option=value summaries of chain entries
    r"https?://\S+",  # URLs
    r"\b[\w.-]+/[\w.:/-]+",  # provider/model ids, paths
    r"\b[\w-]+(?:\.[\w-]+)+\b",  # host names: api.openai.com
    r"\*\.\w+",  # file patterns
    r"\b[\w.-]+\.(?:json|py|db|ini)\b",  # file names
    r"\b\w*_\w+\b",  # snake_case: hooks, option names, environment variables
    r"\b[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b",  # kebab-case: processor ids, wire values, fail-open
    r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b",  # CamelCase: type names, LanguageModel
    r"\b[A-Z]{2,}[A-Za-z0-9]*\b",  # acronyms: API, JSON, PII, NFKC, IBAN
    r"\b[A-Za-z]+\d[A-Za-z0-9.]*\b",  # names with digits: qwen3guard, shiboken6, llama3.1
    r"\{[^{}]*\}",  # JSON objects in examples
    r"<[^<>]+>",  # markup
    r"&\w+;",  # entities
    r"\(&\w\)",  # accelerators after a translated menu text: 文件(&F)
]


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` once code, ids, names and the ``allowed`` words are taken out."""
    rest = re.sub(r"'[^'\n]*'", " ", text)  # quoted text: a message's or a model's own words (repr in a summary)
    for name in sorted(PROPER_NAMES, key=len, reverse=True):
        rest = re.sub(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", " ", rest)
    for pattern in _CODE:
        rest = re.sub(pattern, " ", rest)
    words = set(allowed)
    return [word for word in re.findall(r"[A-Za-z]{3,}", rest) if word not in words]
