"""The demo model calls any tool the design offers when the message names it: arguments from its JSON schema.

A newcomer who adds an MCP server or a tool of their own wants to see it called without a key or a mock server.
So when the user's message names a tool of the request (``Use add with 20 and 22``, ``use shout on hello``,
``Use fetch_doc to fetch the document q3``), the demo model fills the tool's parameters from the message and calls
it; it stays deterministic (a pure function of the message and the schema). Each parameter is read, in order:

1. said outright: ``name=value`` or ``name: value`` (a quoted text, a JSON value or one word);
2. for a number, the next number of the message; for a boolean, yes/no/true/false; for an enum, the value named;
3. for a text: a URL or an e-mail address when the parameter asks for one, the word after a word of the
   parameter's name (``doc_id`` ← "document **q3**"), a quoted text, or else the rest of the message after the
   tool's name (its last word for an id-like parameter: ``id``, ``key``, ``name``, ``url``, ``path`` ...).

Only required parameters (or the one parameter of a tool that requires none) are guessed; optional ones are
filled only when said outright, so their defaults apply. When a required parameter cannot be read, the model
does not call the tool: it says what the tool takes and how to ask (:func:`describe_parameters`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["NamedCall", "describe_parameters", "example_request", "find_named_tool", "named_call", "offered_schemas"]

#: Words between a tool's name and what it should work on ("use shout **on** hello").
_CONNECTORS = frozenset(
    {"to", "on", "with", "for", "about", "of", "in", "at", "from", "the", "a", "an", "and", "please"}
    | {"tool", "function", "call", "use", "using", "run", "ask", "it", "me"}
)
#: Parameter name parts that mean one word (an identifier), not a sentence.
_ID_LIKE = frozenset(
    {"id", "ids", "key", "name", "code", "slug", "ref", "path", "file", "filename", "url", "uri", "link", "host"}
    | {"domain", "user"}
)
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*\w)")
#: A quoted text: straight, typographic (U+201C/D, U+2018/9), backticks or Chinese corner brackets.
_QUOTED = re.compile(r"\"([^\"]+)\"|'([^']+)'|\u201c([^\u201d]+)\u201d|\u2018([^\u2019]+)\u2019|`([^`]+)`|「([^」]+)」")
_URL = re.compile(r"https?://[^\s\"'<>`]+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_WORD = re.compile(r"[^\s,;]+")
_TRUE = frozenset({"true", "yes", "on"})
_FALSE = frozenset({"false", "no", "off"})


@dataclass(frozen=True)
class NamedCall:
    """The tool a message names, with the arguments read from it, or the required parameters it lacks."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    missing: tuple[str, ...] = ()


def offered_schemas(tools: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``{name: parameters schema}`` of a request's OpenAI tool definitions."""
    offered: dict[str, dict[str, Any]] = {}
    for definition in tools:
        function = definition.get("function") or {}
        name = function.get("name")
        if isinstance(name, str) and name:
            parameters = function.get("parameters")
            offered[name] = parameters if isinstance(parameters, dict) else {}
    return offered


def _mention(name: str) -> re.Pattern[str]:
    """The tool's name as a whole word, its ``_``/``-`` also written as spaces (``fetch_doc``, ``fetch doc``)."""
    parts = [re.escape(part) for part in re.split(r"[_\-\s]+", name) if part]
    return re.compile(r"(?<![\w-])" + r"[_\-\s]?".join(parts) + r"(?![\w-])", re.IGNORECASE)


def find_named_tool(text: str, names: Collection[str]) -> tuple[str, int] | None:
    """The offered tool the message names (the longest name when several match) and where the mention ends."""
    found: tuple[str, int] | None = None
    for name in sorted(names, key=len, reverse=True):
        match = _mention(name).search(text)
        if match is not None and (found is None or len(name) > len(found[0])):
            found = (name, match.end())
    return found


def named_call(text: str, name: str, schema: Mapping[str, Any], after: int = 0) -> NamedCall:
    """The call of ``name`` the message asks for; ``after`` is where its mention ends (the rest is its input)."""
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    required = [key for key in schema.get("required") or () if key in properties]
    reader = _Reader(text, text[after:])
    arguments: dict[str, Any] = {}
    for key, spec in properties.items():
        value = reader.explicit(key, spec)
        if value is not _NONE:
            arguments[key] = value
    guessed = required if required else list(properties)[:1] if len(properties) == 1 else []
    for key in guessed:
        if key in arguments:
            continue
        value = reader.implicit(key, properties[key])
        if value is not _NONE:
            arguments[key] = value
    missing = tuple(key for key in required if key not in arguments)
    return NamedCall(name, arguments, missing)


def describe_parameters(schema: Mapping[str, Any], *, required_word: str = "required") -> str:
    """One line a parameter: ``- `doc_id` (string, required): The document's id.``"""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return "- (no parameters)"
    required = set(schema.get("required") or ())
    lines = []
    for key, spec in properties.items():
        kind = _type(spec)
        note = f", {required_word}" if key in required else ""
        description = spec.get("description") if isinstance(spec, Mapping) else None
        lines.append(f"- `{key}` ({kind}{note})" + (f": {description}" if description else ""))
    return "\n".join(lines)


def example_request(name: str, schema: Mapping[str, Any]) -> str:
    """``Use fetch_doc with doc_id=q3``-like: how to ask for the tool with every required parameter said."""
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    keys = [key for key in schema.get("required") or () if key in properties] or list(properties)[:1]
    examples = {"integer": "2", "number": "2.5", "boolean": "true", "array": "[...]", "object": "{...}"}
    said = [f"{key}={examples.get(_type(properties[key]), '...')}" for key in keys]
    return f"Use {name} with {' '.join(said)}" if said else f"Use {name}"


# ------------------------------------------------------------------------------------------------ reading

_NONE: Any = object()


def _type(spec: Any) -> str:
    """A parameter's JSON type; ``Optional[int]``'s ``anyOf`` reads as ``integer``."""
    if not isinstance(spec, Mapping):
        return "string"
    kind = spec.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if isinstance(kind, str):
        return kind
    for option in spec.get("anyOf") or spec.get("oneOf") or ():
        found = _type(option)
        if isinstance(option, Mapping) and option.get("type") != "null":
            return found
    return "string"


def _name_words(key: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key)
    return [word.lower() for word in re.split(r"[_\-\s]+", spaced) if word]


class _Reader:
    """Reads parameter values from a message, each piece of it used at most once."""

    def __init__(self, text: str, rest: str) -> None:
        self.text = text
        self.rest = rest
        self.used: set[str] = set()
        #: The ``key=value`` pieces read outright.
        self.said: list[str] = []

    # --- said outright: key=value, key: value ---
    def explicit(self, key: str, spec: Any) -> Any:
        pattern = re.compile(r"(?<![\w-])" + re.escape(key) + r"\s*[=:]\s*", re.IGNORECASE)
        match = pattern.search(self.text)
        if match is None:
            return _NONE
        raw, end = self._value_at(match.end())
        if raw is None:
            return _NONE
        value = _coerce(raw, spec)
        if value is not _NONE:
            self.used.add(str(raw))
            self.said.append(self.text[match.start() : end])  # not part of a free text any more
        return value

    def _value_at(self, start: int) -> tuple[Any, int]:
        """The value written at ``start`` and where it ends; ``None`` when there is none."""
        text = self.text
        quoted = _QUOTED.match(text, start)
        if quoted is not None:
            return next(group for group in quoted.groups() if group is not None), quoted.end()
        if text.startswith(("[", "{"), start):
            try:
                return json.JSONDecoder().raw_decode(text, start)
            except ValueError:
                return None, start
        word = _WORD.match(text, start)
        return (word.group().rstrip(".!?"), word.end()) if word is not None else (None, start)

    # --- guessed from the message ---
    def implicit(self, key: str, spec: Any) -> Any:
        kind = _type(spec)
        enum = spec.get("enum") if isinstance(spec, Mapping) else None
        if isinstance(enum, list) and enum:
            return self._enum(enum)
        if kind in ("integer", "number"):
            return self._number(kind)
        if kind == "boolean":
            words = {word.lower().strip(".,!?") for word in self.rest.split()}
            return True if words & _TRUE else False if words & _FALSE else _NONE
        if kind == "string":
            return self._string(key, spec)
        return _NONE

    def _enum(self, options: list[Any]) -> Any:
        for option in options:
            if re.search(r"(?<!\w)" + re.escape(str(option)) + r"(?!\w)", self.text, re.IGNORECASE):
                return option
        return _NONE

    def _numbers(self) -> Iterator[str]:
        for match in _NUMBER.finditer(self.rest):
            if match.group() not in self.used:
                yield match.group()

    def _number(self, kind: str) -> Any:
        for raw in self._numbers():
            value = _coerce(raw, {"type": kind})
            if value is not _NONE:
                self.used.add(raw)
                return value
        return _NONE

    def _string(self, key: str, spec: Any) -> Any:
        words = _name_words(key)
        form = str(spec.get("format", "")) if isinstance(spec, Mapping) else ""
        wants_url = form in ("uri", "url") or bool(set(words) & {"url", "uri", "link"})
        if wants_url and (url := _URL.search(self.text)) is not None:
            return self._take(url.group().rstrip(".,!?)"))
        wants_email = form == "email" or bool(set(words) & {"email", "mail"})
        if wants_email and (email := _EMAIL.search(self.text)) is not None:
            return self._take(email.group())
        if (cued := self._after_name_word(words)) is not None:
            return self._take(cued)
        for quoted in _QUOTED.finditer(self.text):
            value = next(group for group in quoted.groups() if group is not None)
            if value not in self.used:
                return self._take(value)
        free = self._free_text()
        if not free:
            return _NONE
        return self._take(free.split()[-1] if set(words) & _ID_LIKE else free)

    def _after_name_word(self, words: list[str]) -> str | None:
        """The word after one that starts with a word of the parameter's name ("document q3" for ``doc_id``)."""
        tokens = [token.strip(".,;:!?\"'()") for token in self.rest.split()]
        for word in (w for w in words if len(w) >= 3):
            for index, token in enumerate(tokens[:-1]):
                if token.lower().startswith(word) and tokens[index + 1] and tokens[index + 1] not in self.used:
                    following = tokens[index + 1]
                    if following.lower() not in _CONNECTORS:
                        return following
        return None

    def _free_text(self) -> str:
        """The message after the tool's name, without the words that lead to the input ("to", "on", "with" ...)."""
        rest = self.rest
        for piece in self.said:
            rest = rest.replace(piece, " ")
        words = rest.strip().split()
        while words and (words[0].lower().strip(":,.") in _CONNECTORS or not words[0].strip(":,.;-")):
            words.pop(0)  # "to", "on", "with" ... and lone punctuation ("use shout: hello")
        return " ".join(words).strip().rstrip(".!?").strip()

    def _take(self, value: str) -> str:
        self.used.add(value)
        return value


def _coerce(raw: Any, spec: Any) -> Any:
    """``raw`` (a word, a quoted text or a JSON value) as the parameter's type, or ``_NONE`` when it is not one."""
    kind = _type(spec)
    if kind == "string":
        return raw if isinstance(raw, str) else json.dumps(raw)
    if kind in ("array", "object"):
        return raw if isinstance(raw, list if kind == "array" else dict) else _NONE
    text = str(raw).strip()
    if kind == "boolean":
        return True if text.lower() in _TRUE else False if text.lower() in _FALSE else _NONE
    try:
        number = float(text)
    except ValueError:
        return _NONE
    if kind == "integer":
        return int(number) if number.is_integer() else _NONE
    return int(number) if number.is_integer() and "." not in text else number
