"""What counts as a credential in a design: API keys must never be saved in one (they live in the OS keyring).

A setting, header or URL query name is a credential when one of its words is a credential word (``x-api-key``,
``Authorization``, ``apiKey``; not ``max_tokens``); a header value is one when it reads like ``Bearer …``; a base URL
is one when it carries user info or a key-like query parameter. :mod:`studio.design.agent_design` refuses such designs,
so a shared design file cannot leak a key.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["CREDENTIAL_VALUE", "SECRET_SETTINGS", "credential_path", "names_credential", "url_credential"]


#: ``extra`` model settings refused because they are secrets.
SECRET_SETTINGS = frozenset({"api_key"})
#: Words that make a setting or header name a credential (``Authorization``, ``x-api-key``, ``aws_secret_...``).
_CREDENTIAL_WORDS = frozenset(
    {
        "key",
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "credential",
        "credentials",
        "authorization",
        "auth",
        "cookie",
        "bearer",
        "signature",
    }
)
#: Names with a credential word that are not credentials (OpenAI's prompt cache routing hint).
_NOT_CREDENTIALS = frozenset({"prompt_cache_key"})
#: Header values that are credentials whatever the header is called.
CREDENTIAL_VALUE = re.compile(r"^\s*(bearer|basic|token)\s+\S", re.IGNORECASE)


def names_credential(name: str) -> str | None:
    """``name`` if it names a credential: one of its words (split at ``-``, ``_``, ``.``, spaces and camelCase)
    is a credential word. ``max_tokens`` is not (``tokens`` is a count); ``x-api-key`` and ``apiKey`` are."""
    if name.lower() in _NOT_CREDENTIALS:
        return None
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).lower()
    return name if _CREDENTIAL_WORDS.intersection(re.split(r"[^a-z0-9]+", words)) else None


def credential_path(value: Any, path: str) -> str | None:
    """The field path of the first credential inside an ``extra`` value (a name or a header value), if any."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for name, inner in item.items():
                if names_credential(str(name)) is not None:
                    return f"{where}.{name}"
                stack.append((inner, f"{where}.{name}"))
        elif isinstance(item, list):
            stack.extend((inner, f"{where}[{index}]") for index, inner in enumerate(item))
        elif isinstance(item, str) and CREDENTIAL_VALUE.match(item):
            return where
    return None


def url_credential(url: str) -> bool:
    """Whether a base URL carries a credential: user info (``user:pass@``) or a key-like query parameter."""
    from urllib.parse import parse_qsl, urlsplit

    try:
        parts = urlsplit(url.strip() if "://" in url else "http://" + url.strip())
    except ValueError:
        return False  # not a URL at all: refused as an endpoint when a run starts
    if parts.username or parts.password:
        return True
    return any(names_credential(name) for name, _value in parse_qsl(parts.query, keep_blank_values=True))
