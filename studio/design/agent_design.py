"""``AgentDesign``: what the editor edits — model, instructions, tools, three processor chains, retries.

A design is a pydantic model saved as versioned JSON (``to_json``/``from_json``, ``save_design``/``load_design``);
:func:`studio.design.build.build_agent` turns it into a runtime :class:`processors.Agent`, and
:func:`studio.design.export.design_to_python` exports a runnable script that builds the same agent with ``processors``.
This module is data only: it imports neither of them (nor the catalogue), so the design is the bottom of the
studio's house. The editor never mutates a design in place outside its
undo commands.

Everything that can go wrong with a design the user wrote — a malformed file, a newer format, options a
processor refuses, a tool that is not there — raises :class:`DesignError`, whose message names where (a field
path, or a chain and position). The English message is kept with its ``template`` and ``params`` too, so the studio
shows it in the reader's language (:mod:`studio.error_texts`); logs and exported files keep the English.
"""

from __future__ import annotations

import json
import logging
import os
import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from processors import json_limits
from processors.messages.surrogates import scrub_json
from processors.models.providers import provider_for
from processors.problems import Problem, ProblemError, json_problem, pydantic_problem
from studio.design.credentials import (
    CREDENTIAL_VALUE,
    SECRET_SETTINGS,
    credential_path,
    names_credential,
    url_credential,
)
from studio.design.errors import DesignError, Lane
from studio.system.files import write_text_atomic
from studio.texts.translator import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

DESIGN_VERSION = 1

LANES: tuple[Lane, ...] = ("input", "output", "error")

#: The model id that selects the offline demo model (no API key, no network).
DEMO_MODEL = "demo"


def new_uid() -> str:
    return uuid.uuid4().hex[:12]


class ChainEntry(BaseModel):
    """One processor in a chain: its catalogue type, its options, and whether it runs."""

    model_config = ConfigDict(extra="forbid")

    uid: str = Field(default_factory=new_uid, description="Stable identity of this entry inside the design")
    type: str = Field(description="Catalogue type name, e.g. 'RegexFilter'")
    options: dict[str, Any] = Field(default_factory=dict)
    enabled: bool = True


class McpServerConfig(BaseModel):
    """An MCP server the agent takes tools from: a program run over stdio, or a Streamable HTTP URL.

    Credentials never live here (designs get shared): an HTTP server's ``Authorization`` header comes from the
    keyring when a run starts, and an ``env`` or ``headers`` entry that names or holds a credential is refused.
    Starting a stdio server from someone else's design runs a program: the studio asks first, showing
    :meth:`command_line`. Only the tools in ``enabled_tools`` are given to the agent.
    """

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$", description="Shown in tool errors and in the settings")
    transport: Literal["stdio", "http"] = "stdio"
    command: str = Field(default="", description="stdio: the program to run")
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict, description="stdio: extra environment variables")
    url: str = Field(default="", description="http: the server's endpoint, e.g. http://127.0.0.1:8000/mcp")
    headers: dict[str, str] = Field(default_factory=dict, description="http: extra headers (no credentials)")
    enabled_tools: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> McpServerConfig:
        if self.transport == "stdio" and not self.command.strip():
            raise ProblemError(Problem("mcp:needs_command", "a stdio MCP server needs a command"))
        if self.transport == "http":
            if not re.match(r"^https?://[^/\s]+", self.url.strip()):
                raise ProblemError(Problem("mcp:needs_url", "an http MCP server needs an http:// or https:// URL"))
            if url_credential(self.url):
                raise ProblemError(
                    Problem(
                        "mcp:url_credential",
                        "the URL carries a credential; credentials belong in the keyring, not a design",
                    )
                )
        for where, values in (("env", self.env), ("headers", self.headers)):
            for name, value in values.items():
                if names_credential(name) or CREDENTIAL_VALUE.match(value):
                    raise ProblemError(
                        Problem(
                            "mcp:credential_saved",
                            "{field}: credentials must not be saved in a design, where anyone it is shared with "
                            "reads them; the studio reads them from the keyring",
                            field=f"{where}.{name}",
                        )
                    )
        return self

    def command_line(self) -> str:
        """The exact command a stdio server runs (what the user is shown before it starts)."""
        import shlex

        return shlex.join([self.command, *self.args])


class ModelConfig(BaseModel):
    """Which model the agent talks to, and how."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(default=DEMO_MODEL, description="litellm model id ('provider/model') or 'demo'")
    api_base: str | None = Field(default=None, description="Base URL for local servers (Ollama, LM Studio)")
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_tokens: int | None = Field(default=None, ge=1)
    top_p: float | None = Field(default=None, ge=0, le=1)
    extra: dict[str, Any] = Field(default_factory=dict, description="Other call settings passed to the model")

    @property
    def is_demo(self) -> bool:
        """Whether the model answers offline, without a key (the demo's provider, or another offline one): the
        provider registry says, not a comparison with the demo's id."""
        return provider_for(self.model).offline

    def call_settings(self) -> dict[str, Any]:
        """The keyword settings the model is called with: ``extra``, then the named fields that are set.

        Raises :class:`DesignError` for a credential in the model settings (:meth:`check_credentials`) and for an
        ``extra`` key naming a setting the model's own fields already cover.
        """
        self.check_credentials()
        for key in self.extra:
            if key in _RESERVED_SETTINGS:
                raise DesignError.of(
                    QT_TRANSLATE_NOOP(
                        "DesignError",
                        "model.extra.{key}: '{key}' is set by the model settings themselves, not as an extra setting",
                    ),
                    path=f"model.extra.{key}",
                    key=key,
                )
        named = {"temperature": self.temperature, "max_tokens": self.max_tokens, "top_p": self.top_p}
        return {**self.extra, **{key: value for key, value in named.items() if value is not None}}

    def check_credentials(self) -> None:
        """Raise :class:`DesignError` for a credential anywhere in the model settings: an ``extra`` key such as
        ``api_key`` (secrets belong in the keyring, and designs get shared), a setting or header that names or holds
        one (``Authorization``, ``x-api-key``, ``Bearer …``), an ``api_base`` with a password or a key.

        Whatever the model: the offline demo model sends nothing, but the design is saved, stored and exported
        all the same, and a credential in it would travel with it (and come back into use once the model is
        changed to a real one).
        """
        if self.api_base and url_credential(self.api_base):
            raise DesignError.of(
                QT_TRANSLATE_NOOP(
                    "DesignError",
                    "model.api_base: credentials (a user name and password, or a key in the query) must not be saved "
                    "in a design, where anyone it is shared with reads them; the studio reads API keys from the "
                    "keyring when a run starts",
                ),
                path="model.api_base",
            )
        for key in self.extra:
            if key in SECRET_SETTINGS:
                raise DesignError.of(
                    QT_TRANSLATE_NOOP(
                        "DesignError",
                        "model.extra.{key}: API keys must not be saved in a design; the studio reads them from the "
                        "keyring when a run starts",
                    ),
                    path=f"model.extra.{key}",
                    key=key,
                )
            where = f"model.extra.{key}"
            credential = where if names_credential(key) else credential_path(self.extra[key], where)
            if credential is not None:
                raise DesignError.of(
                    QT_TRANSLATE_NOOP(
                        "DesignError",
                        "{credential}: credentials (keys, tokens, secrets, Authorization headers) must not be saved "
                        "in a design, where anyone it is shared with reads them; the studio reads API keys from the "
                        "keyring when a run starts",
                    ),
                    path=credential,
                    credential=credential,
                )


class AgentDesign(BaseModel):
    """A complete agent design, as saved to the store and to ``.json`` files."""

    model_config = ConfigDict(extra="forbid")

    version: int = DESIGN_VERSION
    id: str = Field(default_factory=new_uid)
    name: str = "Untitled agent"
    instructions: str = ""
    model: ModelConfig = Field(default_factory=ModelConfig)
    #: Names of tools: built-in demo tools, or ``file.py:function`` for user tool files.
    tools: list[str] = Field(default_factory=list)
    #: MCP servers whose enabled tools the agent also gets.
    mcp_servers: list[McpServerConfig] = Field(default_factory=list)
    input: list[ChainEntry] = Field(default_factory=list)
    output: list[ChainEntry] = Field(default_factory=list)
    error: list[ChainEntry] = Field(default_factory=list)
    max_processor_retries: int | None = Field(default=None, ge=0, le=50)
    max_steps: int = Field(default=5, ge=1, le=100)

    def chain(self, lane: Lane) -> list[ChainEntry]:
        return {"input": self.input, "output": self.output, "error": self.error}[lane]

    def find(self, uid: str) -> tuple[Lane, int, ChainEntry] | None:
        for lane in LANES:
            for index, entry in enumerate(self.chain(lane)):
                if entry.uid == uid:
                    return lane, index, entry
        return None

    def to_json(self) -> str:
        """Pretty JSON with a stable key order: fields as declared, free-form dicts (options, extra) sorted.

        Stable output keeps saved files diff-friendly: saving an unchanged design gives the same bytes.
        """
        data = self.model_dump(mode="json")
        for lane in LANES:
            for entry in data[lane]:
                entry["options"] = _sorted_keys(entry["options"])
        data["model"]["extra"] = _sorted_keys(data["model"]["extra"])
        if not data["mcp_servers"]:
            del data["mcp_servers"]  # designs without MCP servers keep their bytes (and open in older versions)
        # a lone surrogate (half an emoji) cannot be written as UTF-8: U+FFFD instead of a failed save
        return json.dumps(scrub_json(data), indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> AgentDesign:
        """Parse a design file's text. Raises :class:`DesignError` naming the field path of each problem."""
        try:
            data = json_limits.loads(text)
        except json_limits.JsonLimitError as error:
            raise DesignError.of(
                QT_TRANSLATE_NOOP("DesignError", "Not a usable agent design: {error}"), path="", error=error.message
            ) from None
        except json.JSONDecodeError as error:
            raise DesignError.of(
                QT_TRANSLATE_NOOP("DesignError", "Not valid JSON (line {line}, column {column}): {error}"),
                path="",
                line=error.lineno,
                column=error.colno,
                error=Problem.written(f"json:{error.msg}", error.msg, fault=error.msg),  # Python's words, by code
            ) from None
        except UnicodeDecodeError as error:
            raise DesignError.of(
                QT_TRANSLATE_NOOP("DesignError", "Not a text file: {error}"), path="", error=error.reason
            ) from None
        if not isinstance(data, dict):
            raise DesignError.of(_NOT_AN_OBJECT[_json_kind(data)], path="")
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> AgentDesign:
        """Validate already-parsed JSON (from a file or the store): limits, version, then every field.

        The limits come first (:mod:`processors.json_limits`): ``NaN`` in ``extra`` would be saved back as
        ``null``, and nesting hundreds of levels deep breaks the upgrades, pydantic and the saved JSON.
        """
        limits = [(_error_path(loc), message) for loc, message in json_limits.problems(data)]
        if limits:
            listing = "\n".join(f"- {path or '(design)'}: {message}" for path, message in limits)
            raise DesignError.of(_INVALID, path=limits[0][0], problems=limits, listing=listing)
        data = _upgrade(scrub_json(data))  # "\ud83d" escapes decode to lone surrogates: make them writable
        try:
            design = cls.model_validate(data)
        except ValidationError as error:
            problems = [(_error_path(item["loc"]), _error_message(item)) for item in error.errors()]
            listing = "\n".join(f"- {path or '(design)'}: {message}" for path, message in problems)
            raise DesignError.of(_INVALID, path=problems[0][0], problems=problems, listing=listing) from None
        design.model.check_credentials()  # a design holding a key is refused, not opened, stored and passed on
        return design


#: ``extra`` model settings refused because a field of :class:`ModelConfig` (or the runtime) sets them.
_RESERVED_SETTINGS = frozenset(
    {
        "model",
        "model_id",
        "api_base",
        "base_url",
        "messages",
        "stream",
        "tools",
        "custom_llm_provider",
    }
)

_LANE_TITLES: dict[Lane, str] = {
    "input": QT_TRANSLATE_NOOP("DesignError", "Input chain"),
    "output": QT_TRANSLATE_NOOP("DesignError", "Output chain"),
    "error": QT_TRANSLATE_NOOP("DesignError", "Error chain"),
}

#: Upgrades of older design formats: ``_UPGRADES[n]`` turns version ``n`` data into version ``n + 1``.
_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


# ----------------------------------------------------------------------------------------- JSON and files


def _upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Check the format version and bring older data up to :data:`DESIGN_VERSION`."""
    if "version" not in data:
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "version: missing — this does not look like an agent design file"),
            path="version",
        )
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "version: must be a whole number, got {value}"),
            path="version",
            value=json.dumps(version),
        )
    if version > DESIGN_VERSION:
        raise DesignError.of(
            QT_TRANSLATE_NOOP(
                "DesignError",
                "version: this design was saved by a newer Processor Studio (design format {version}; this version "
                "reads formats up to {supported}). Update Processor Studio to open it.",
            ),
            path="version",
            version=version,
            supported=DESIGN_VERSION,
        )
    if version < 1:
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "version: unknown design format {version}"),
            path="version",
            version=version,
        )
    while version < DESIGN_VERSION:
        data = _UPGRADES[version](dict(data))
        version += 1
        data["version"] = version
    return data


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(item) for item in value]
    return value


def _error_path(loc: Iterable[int | str]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _error_message(item: Any) -> str:
    """One problem of a design, coded where the studio words it (a check's own problem, an unknown or missing
    field); pydantic's other words as written."""
    if item["type"] == "extra_forbidden":
        return Problem("design:unknown_field", "unknown field")
    if item["type"] == "missing":
        return Problem("design:missing", "missing")
    return pydantic_problem(item, bare=True)  # a check's coded problem, else pydantic's words (no "Value error, ")


#: "An agent design is a JSON object, not …", one sentence per kind of JSON value (a translator words each).
_NOT_AN_OBJECT = {
    "a list": QT_TRANSLATE_NOOP("DesignError", "An agent design is a JSON object, not a list"),
    "a string": QT_TRANSLATE_NOOP("DesignError", "An agent design is a JSON object, not a string"),
    "null": QT_TRANSLATE_NOOP("DesignError", "An agent design is a JSON object, not null"),
    "a boolean": QT_TRANSLATE_NOOP("DesignError", "An agent design is a JSON object, not a boolean"),
    "a number": QT_TRANSLATE_NOOP("DesignError", "An agent design is a JSON object, not a number"),
}
#: Every problem of a design, one per line (``listing``: ``- path: message``, rebuilt translated where shown).
_INVALID = QT_TRANSLATE_NOOP("DesignError", "Invalid agent design:\n{listing}")


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    return "a boolean" if isinstance(value, bool) else "a number"


def load_design(path: str | os.PathLike[str]) -> AgentDesign:
    """Read a design file. Raises :class:`DesignError` (naming the file) when it cannot be read or is invalid."""
    file = Path(path)
    try:
        text = file.read_bytes()
    except OSError as error:
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "{file}: cannot read the file: {error}"),
            path="",
            file=file.name,
            error=error.strerror or str(error),
        ) from error
    try:
        return AgentDesign.from_json(text)
    except DesignError as error:
        raise DesignError.of(
            QT_TRANSLATE_NOOP("DesignError", "{file}: {error}"),
            path=error.path,
            problems=error.problems,
            file=file.name,
            error=error,
        ) from None


def save_design(design: AgentDesign, path: str | os.PathLike[str]) -> None:
    """Write ``design`` to ``path`` atomically: a crash mid-write leaves the old file, never half a new one.

    Raises :class:`DesignError`, writing nothing, when the model settings hold a credential."""
    design.model.check_credentials()
    write_text_atomic(path, design.to_json())  # FileWriteError (an OSError) says why; the old file is unchanged


# ---------------------------------------------------------------------------------------- building an agent


def explain_option_error(options: Mapping[str, Any], path: str, message: str) -> str:
    """A JSON field kept as the text the user typed (it was no JSON) says so, rather than "Input should be a valid
    list": the chain entry and the refused run then name the real problem."""
    value = options.get(path.partition(".")[0])
    if not isinstance(value, str) or value.lstrip()[:1] not in ("{", "["):
        return message
    try:
        json.loads(value)
    except json.JSONDecodeError as error:
        return Problem("option:not_json", "Not valid JSON: {error}", error=json_problem(error))
    except ValueError as error:
        return Problem("option:not_json", "Not valid JSON: {error}", error=str(error))
    return message


__all__ = [
    "DEMO_MODEL",
    "DESIGN_VERSION",
    "LANES",
    "AgentDesign",
    "ChainEntry",
    "DesignError",
    "Lane",
    "ModelConfig",
    "explain_option_error",
    "load_design",
    "new_uid",
    "save_design",
]
