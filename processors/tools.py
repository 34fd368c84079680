"""Tools an agent can call: a schema the model reads, and a safe way to run what the model asked for.

A :class:`Tool` pairs a name, a description and a JSON schema of its arguments (what OpenAI-style function calling
sends to the model) with the Python callable that does the work. ``@tool`` builds all of it from a function's type
hints and docstring::

    from typing import Literal

    from processors.context import StreamWriter
    from processors.tools import tool

    @tool
    def get_weather(city: str, unit: Literal["c", "f"] = "c") -> dict[str, object]:
        \"\"\"Get the current weather for a city.

        Args:
            city: The city name, e.g. "Paris".
            unit: Temperature unit.
        \"\"\"
        return {"city": city, "temperature": 21, "unit": unit}

    @tool(name="lookup-customer")
    async def lookup(customer_id: int, writer: StreamWriter) -> dict[str, object]:
        \"\"\"Find a customer by id.\"\"\"
        await writer.custom({"type": "data-progress", "data": "looking up", "transient": True})
        return {"id": customer_id}

    get_weather.to_openai()     # {"type": "function", "function": {"name": "get_weather", ...}}
    await get_weather.call('{"city": "Paris"}')          # {'city': 'Paris', 'temperature': 21, 'unit': 'c'}

Parameters annotated ``StreamWriter`` or ``RequestContext`` (or unannotated and named ``writer`` /
``request_context``) are injected by the runtime and never appear in the schema. The explicit form takes a raw JSON
schema or a pydantic model: ``Tool("add", "Add two numbers", parameters={...}, execute=add)``.

What :meth:`Tool.call` raises: :class:`~processors.errors.ToolArgumentsError` when the model's arguments are not
valid JSON or do not match the schema (the message is written for the model to correct itself); whatever the
tool's own function raises, unchanged (``asyncio.CancelledError`` included). Sync functions run in a worker thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import inspect
import json
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, Union, overload

import pydantic_core
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.fields import FieldInfo

from processors.context import RequestContext, StreamWriter
from processors.errors import ToolArgumentsError

__all__ = ["Tool", "parse_docstring", "serialize_result", "tool", "tools_by_name"]

_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise ValueError(
            f"Invalid tool name {name!r}: a tool name must match ^[a-zA-Z0-9_-]{{1,64}}$ "
            "(letters, digits, '_' and '-', 1 to 64 characters)"
        )
    return name


# --------------------------------------------------------------------------------------------------------------
# The tool


class Tool:
    """A callable tool: ``name``, ``description``, ``parameters`` (the JSON schema of an object) and ``execute``.

    ``Tool(name, description, parameters=schema, execute=fn)`` checks arguments minimally against the raw schema
    (an object, required keys present, ``additionalProperties: false``, the JSON type and ``enum`` of each top-level
    property). ``Tool(name, description, input_model=Model, execute=fn)`` validates fully with pydantic; ``fn``
    receives the model's fields as keyword arguments, or the model instance itself when its only (non-injected)
    parameter is annotated with ``Model``. ``@tool`` builds the model from a function's signature.
    """

    name: str
    description: str
    parameters: dict[str, Any]
    input_model: type[BaseModel] | None
    execute: Callable[..., Any]
    is_async: bool
    requires_writer: bool
    requires_request_context: bool

    _schema: dict[str, Any] | None  # the raw schema to check against, when there is no input model
    _kwarg_names: dict[str, str]  # input-model field -> keyword argument of execute
    _instance_param: str | None  # execute's parameter that takes the whole input-model instance
    _writer_param: str | None
    _context_param: str | None
    _named_params: frozenset[str]
    _var_kwargs: bool

    def __init__(
        self,
        name: str,
        description: str = "",
        *,
        parameters: Mapping[str, Any] | None = None,
        input_model: type[BaseModel] | None = None,
        execute: Callable[..., Any],
    ) -> None:
        _check_name(name)
        if not callable(execute):
            raise TypeError(f"Tool {name!r}: execute must be callable, got {type(execute).__name__}")
        if parameters is not None and input_model is not None:
            raise TypeError(f"Tool {name!r}: give parameters= (a JSON schema) or input_model=, not both")
        signature = _signature(execute, name, None, strict=False)
        self._setup(name, description, execute, signature)
        if input_model is not None:
            if not (isinstance(input_model, type) and issubclass(input_model, BaseModel)):
                raise TypeError(f"Tool {name!r}: input_model must be a pydantic model class")
            self.input_model = input_model
            self.parameters = _model_schema(input_model)
            self._schema = None
            self._kwarg_names = {field: field for field in input_model.model_fields}
            self._instance_param = self._find_instance_param(signature, input_model)
            if self._instance_param is None:
                self._check_accepts(signature, list(self._kwarg_names.values()))
        else:
            schema = _check_raw_schema(name, parameters if parameters is not None else _EMPTY_SCHEMA)
            self.input_model = None
            self.parameters = schema
            self._schema = schema
            self._kwarg_names = {}
            self._instance_param = None
            self._check_accepts(signature, list(schema.get("properties", {})))

    def _setup(
        self, name: str, description: str, execute: Callable[..., Any], signature: inspect.Signature | None
    ) -> None:
        self.name = name
        self.description = description
        self.execute = execute
        self.is_async = _is_async_callable(execute)
        self._writer_param = None
        self._context_param = None
        self._named_params = frozenset()
        self._var_kwargs = signature is None
        if signature is not None:
            named: set[str] = set()
            for param in signature.parameters.values():
                if param.kind is param.VAR_KEYWORD:
                    self._var_kwargs = True
                elif param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
                    injected = _injected_kind(param)
                    if injected == "writer" and self._writer_param is None:
                        self._writer_param = param.name
                    elif injected == "request_context" and self._context_param is None:
                        self._context_param = param.name
                    else:
                        named.add(param.name)
            self._named_params = frozenset(named)
        self.requires_writer = self._writer_param is not None
        self.requires_request_context = self._context_param is not None

    def _find_instance_param(self, signature: inspect.Signature | None, model: type[BaseModel]) -> str | None:
        if signature is None or len(self._named_params) != 1:
            return None
        (param_name,) = self._named_params
        annotation = signature.parameters[param_name].annotation
        return param_name if annotation is model or annotation == model.__name__ else None

    def _check_accepts(self, signature: inspect.Signature | None, names: list[str]) -> None:
        if signature is None or self._var_kwargs:
            return
        missing = [name for name in names if name not in self._named_params]
        if missing:
            raise TypeError(
                f"Tool {self.name!r}: the schema declares {', '.join(map(repr, missing))} but execute does not "
                "accept them as keyword arguments"
            )

    @classmethod
    def _from_function(
        cls, fn: Callable[..., Any], name: str | None, description: str | None, localns: dict[str, Any] | None
    ) -> Tool:
        """What ``@tool`` does: a pydantic model built from ``fn``'s signature validates the arguments."""
        if not callable(fn):
            raise TypeError(f"@tool needs a function, got {type(fn).__name__}")
        tool_name = name if name is not None else getattr(fn, "__name__", None)
        if tool_name is None:
            raise ValueError(f"@tool cannot name {fn!r}: pass name=")
        _check_name(tool_name)
        signature = _signature(fn, tool_name, localns, strict=True)
        if signature is None:
            raise TypeError(f"Tool {tool_name!r}: cannot read the signature of {fn!r}")
        doc_description, arg_docs = parse_docstring(inspect.getdoc(fn))

        instance = cls.__new__(cls)
        instance._setup(tool_name, doc_description if description is None else description, fn, signature)
        fields: dict[str, Any] = {}
        kwarg_names: dict[str, str] = {}
        for index, param in enumerate(signature.parameters.values()):
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            if param.name in (instance._writer_param, instance._context_param):
                continue
            if param.kind is param.POSITIONAL_ONLY:
                raise TypeError(f"Tool {tool_name!r}: parameter {param.name!r} is positional-only; tools take keywords")
            annotation = Any if param.annotation is param.empty else param.annotation
            # Internal field names (the parameter is the alias) so that names such as ``json``, ``schema`` or
            # ``model_config`` cannot clash with BaseModel's attributes; errors and the schema show the alias.
            field_name = f"p{index}_{param.name}"
            overrides: dict[str, Any] = {"alias": param.name}
            doc = arg_docs.get(param.name)
            if doc and not _has_description(annotation):
                overrides["description"] = doc
            default = param.default
            if isinstance(default, FieldInfo):  # def f(x: int = Field(3, ge=0)): what it sets explicitly wins
                field = FieldInfo.merge_field_infos(Field(**overrides), default)
            elif default is param.empty:
                field = Field(**overrides)
            else:
                field = Field(default, **overrides)
            fields[field_name] = (annotation, field)
            kwarg_names[field_name] = param.name
        model_name = "".join(part.capitalize() for part in re.split(r"[_-]+", tool_name)) + "Arguments"
        try:
            model: type[BaseModel] = create_model(
                model_name,
                __config__=ConfigDict(extra="ignore", protected_namespaces=()),
                __module__=getattr(fn, "__module__", None) or __name__,
                **fields,
            )
            parameters = _model_schema(model)
        except Exception as exc:
            raise TypeError(f"Tool {tool_name!r}: cannot build an argument schema from its type hints: {exc}") from exc
        instance.input_model = model
        instance.parameters = parameters
        instance._schema = None
        instance._kwarg_names = kwarg_names
        instance._instance_param = None
        return instance

    # -- public API -------------------------------------------------------------------------------------------

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI chat-completions ``tools`` entry: ``{"type": "function", "function": {...}}``."""
        function: dict[str, Any] = {"name": self.name}
        if self.description:
            function["description"] = self.description
        function["parameters"] = copy.deepcopy(self.parameters)
        return {"type": "function", "function": function}

    def validate(self, arguments: str | Mapping[str, Any]) -> dict[str, Any]:
        """Parse and validate the model's arguments; return them JSON-safe, coerced, with defaults filled in.

        The result can be given back to :meth:`call`. Raises :class:`ToolArgumentsError`.
        """
        parsed = self._parse(arguments)
        if self.input_model is None:
            return self._check_raw(parsed)
        instance = self._validate_model(parsed)
        return instance.model_dump(mode="json", by_alias=True, fallback=str)

    async def call(
        self,
        arguments: str | Mapping[str, Any],
        *,
        writer: StreamWriter | None = None,
        request_context: RequestContext | None = None,
    ) -> Any:
        """Validate ``arguments`` and run the tool; return what it returned (see :func:`serialize_result`).

        ``writer`` / ``request_context`` are injected when the function declares them (a discarding writer and an
        empty context stand in when they are not given). A sync function runs in a worker thread, where the writer
        hands each chunk to the event loop and waits for it, so chunks arrive in order and before the result.
        Raises :class:`ToolArgumentsError` for bad arguments; the tool's own exceptions propagate unchanged.
        """
        kwargs = self._kwargs(self._parse(arguments))
        if self._context_param is not None:
            kwargs[self._context_param] = request_context if request_context is not None else RequestContext()
        if self.is_async:
            if self._writer_param is not None:
                kwargs[self._writer_param] = writer if writer is not None else _discarding_writer()
            result = self.execute(**kwargs)
        else:
            if self._writer_param is not None:
                target = writer if writer is not None else _discarding_writer()
                kwargs[self._writer_param] = _ThreadSafeWriter(target, asyncio.get_running_loop())
            result = await asyncio.to_thread(self.execute, **kwargs)
        if inspect.isawaitable(result):
            result = await result
        return result

    def renamed(self, name: str) -> Tool:
        """A copy of this tool under another name (how a ``{"name": tool}`` mapping names its tools)."""
        _check_name(name)
        clone = copy.copy(self)
        clone.name = name
        return clone

    def __repr__(self) -> str:
        return f"Tool(name={self.name!r}, description={self.description!r})"

    # -- internals --------------------------------------------------------------------------------------------

    def _parse(self, arguments: str | Mapping[str, Any]) -> dict[str, Any]:
        if isinstance(arguments, str):
            if not arguments.strip():
                return {}
            try:
                parsed = json.loads(arguments, strict=False)
            except json.JSONDecodeError as exc:
                raise ToolArgumentsError(
                    f"Invalid JSON arguments for tool {self.name!r}: {exc.msg} at line {exc.lineno} column {exc.colno}"
                ) from exc
        elif isinstance(arguments, Mapping):
            parsed = dict(arguments)
        else:
            raise TypeError(f"tool arguments must be a JSON string or a mapping, got {type(arguments).__name__}")
        if not isinstance(parsed, dict):
            raise ToolArgumentsError(
                f"Invalid arguments for tool {self.name!r}: expected a JSON object, got {_json_type(parsed)}"
            )
        return parsed

    def _validate_model(self, parsed: dict[str, Any]) -> BaseModel:
        assert self.input_model is not None
        try:
            return self.input_model.model_validate(parsed)
        except ValidationError as exc:
            lines = [_format_error(error["loc"], error["msg"]) for error in exc.errors(include_url=False)]
            raise ToolArgumentsError(_arguments_message(self.name, lines)) from exc

    def _check_raw(self, parsed: dict[str, Any]) -> dict[str, Any]:
        assert self._schema is not None
        problems = _raw_schema_problems(self._schema, parsed)
        if problems:
            raise ToolArgumentsError(_arguments_message(self.name, problems))
        return parsed

    def _kwargs(self, parsed: dict[str, Any]) -> dict[str, Any]:
        if self.input_model is None:
            checked = self._check_raw(parsed)
            if self._var_kwargs:
                return dict(checked)
            return {key: value for key, value in checked.items() if key in self._named_params}
        instance = self._validate_model(parsed)
        if self._instance_param is not None:
            return {self._instance_param: instance}
        return {kwarg: getattr(instance, field) for field, kwarg in self._kwarg_names.items()}


# --------------------------------------------------------------------------------------------------------------
# @tool


@overload
def tool(fn: Callable[..., Any], /, *, name: str | None = None, description: str | None = None) -> Tool: ...


@overload
def tool(*, name: str | None = None, description: str | None = None) -> Callable[[Callable[..., Any]], Tool]: ...


def tool(
    fn: Callable[..., Any] | None = None, /, *, name: str | None = None, description: str | None = None
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Make a :class:`Tool` from a function (sync or async): ``@tool``, ``@tool(name=..., description=...)``.

    The schema comes from the type hints (through a pydantic model, so ``Literal``, enums, ``Optional``, lists,
    pydantic models and ``Annotated[..., Field(...)]`` all work); parameters with defaults are optional. The
    description is the docstring's text before its first section; each argument's description comes from a
    Google-style ``Args:`` section, ``:param x:`` fields or a numpy-style ``Parameters`` section. A bad name is a
    ``ValueError`` at once.
    """
    frame = sys._getframe(1)
    localns = dict(frame.f_locals) if frame.f_locals is not frame.f_globals else None
    del frame

    def decorate(function: Callable[..., Any]) -> Tool:
        return Tool._from_function(function, name, description, localns)

    if fn is None:
        return decorate
    return decorate(fn)


# --------------------------------------------------------------------------------------------------------------
# tools_by_name


def tools_by_name(
    tools: Iterable[Tool | Callable[..., Any]] | Mapping[str, Tool | Callable[..., Any]] | None,
) -> dict[str, Tool]:
    """The agent's tools keyed by name, from a list (names from the tools) or a mapping (the keys name them).

    Plain functions are wrapped with :func:`tool`. Raises ``ValueError`` on a duplicate or invalid name and
    ``TypeError`` on something that is not a tool.
    """
    if tools is None:
        return {}
    result: dict[str, Tool] = {}
    if isinstance(tools, Mapping):
        for key, item in tools.items():
            if not isinstance(key, str):
                raise TypeError(f"tool mapping keys must be names (str), got {key!r}")
            found = _as_tool(item)
            result[key] = found if found.name == key else found.renamed(key)
        return result
    if isinstance(tools, (str, bytes)):
        raise TypeError("tools must be a list or a mapping of tools, not a string")
    for item in tools:
        found = _as_tool(item)
        if found.name in result:
            raise ValueError(f"Duplicate tool name {found.name!r}: every tool given to an agent needs its own name")
        result[found.name] = found
    return result


def _as_tool(item: object) -> Tool:
    if isinstance(item, Tool):
        return item
    if callable(item):
        return Tool._from_function(item, None, None, None)
    raise TypeError(f"expected a Tool or a function, got {type(item).__name__}")


# --------------------------------------------------------------------------------------------------------------
# serialize_result


def serialize_result(value: Any) -> Any:
    """A JSON-safe copy of a tool's result (Mastra's ``ensureSerializable``).

    pydantic models are dumped in JSON mode, dataclasses become dicts, tuples and sets lists, datetimes ISO
    strings, enums their values, UUIDs/Decimals/paths strings, non-finite floats ``None``, bytes UTF-8 text (or
    base64); anything else becomes ``str(value)`` (and the whole value does when it cannot be walked, e.g. a cycle).
    """
    for bytes_mode in ("utf8", "base64"):
        try:
            return pydantic_core.to_jsonable_python(
                value, fallback=_fallback, inf_nan_mode="null", bytes_mode=bytes_mode
            )
        except UnicodeDecodeError:
            continue
        except Exception:
            break
    return _fallback(value)


def _fallback(value: Any) -> str:
    try:
        return str(value)
    except Exception:
        return object.__repr__(value)


# --------------------------------------------------------------------------------------------------------------
# Docstrings

_GOOGLE_ARGS = {"args", "arguments", "parameters", "params", "keyword args", "keyword arguments", "kwargs"}
_GOOGLE_SECTIONS = _GOOGLE_ARGS | {
    "other parameters", "returns", "return", "yields", "yield", "raises", "exceptions", "example", "examples",
    "note", "notes", "attributes", "warning", "warnings", "see also", "references", "todo",
}  # fmt: skip
_GOOGLE_HEADER_RE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*$")
_GOOGLE_ENTRY_RE = re.compile(r"^\*{0,2}([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_REST_FIELD_RE = re.compile(
    r"^\s*:(param|parameter|arg|argument|key|keyword|type|raises?|except|exception|returns?|rtype|yields?|ytype|var|ivar|cvar)\b"
)
_REST_PARAM_RE = re.compile(r"^\s*:(?:param|parameter|arg|argument|key|keyword)\s+(?:[^:]*\s)?\*{0,2}(\w+)\s*:\s*(.*)$")
_NUMPY_UNDERLINE_RE = re.compile(r"^\s*-{3,}\s*$")
_NUMPY_ENTRY_RE = re.compile(r"^\*{0,2}([A-Za-z_]\w*)\s*(?::.*)?$")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a docstring into its description (text before the first section) and per-argument descriptions."""
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    index = 0
    while index < len(lines) and not _starts_section(lines, index):
        index += 1
    description = "\n".join(lines[:index]).strip()
    args: dict[str, str] = {}
    while index < len(lines):
        line = lines[index]
        header = _GOOGLE_HEADER_RE.match(line)
        if header and header.group(1).lower() in _GOOGLE_SECTIONS:
            target = args if header.group(1).lower() in _GOOGLE_ARGS else {}
            index = _parse_indented_entries(lines, index + 1, _indent(line), _GOOGLE_ENTRY_RE, target)
        elif index + 1 < len(lines) and _NUMPY_UNDERLINE_RE.match(lines[index + 1]) and line.strip():
            target = args if line.strip().lower() in {"parameters", "other parameters"} else {}
            index = _parse_numpy_section(lines, index + 2, _indent(line), target)
        elif _REST_FIELD_RE.match(line):
            index = _parse_rest_field(lines, index, args)
        else:
            index += 1
    return description, args


def _starts_section(lines: list[str], index: int) -> bool:
    line = lines[index]
    header = _GOOGLE_HEADER_RE.match(line)
    if header and header.group(1).lower() in _GOOGLE_SECTIONS:
        return True
    if _REST_FIELD_RE.match(line):
        return True
    return bool(line.strip() and index + 1 < len(lines) and _NUMPY_UNDERLINE_RE.match(lines[index + 1]))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _parse_indented_entries(
    lines: list[str], index: int, header_indent: int, entry_re: re.Pattern[str], out: dict[str, str]
) -> int:
    entry_indent: int | None = None
    current: str | None = None
    while index < len(lines):
        line = lines[index]
        if line.strip():
            indent = _indent(line)
            if indent <= header_indent:
                break
            if entry_indent is None:
                entry_indent = indent
            match = entry_re.match(line.strip()) if indent <= entry_indent else None
            if match:
                current = match.group(1)
                out[current] = match.group(2).strip()
            elif current is not None:
                out[current] = f"{out[current]} {line.strip()}".strip()
        index += 1
    return index


def _parse_numpy_section(lines: list[str], index: int, header_indent: int, out: dict[str, str]) -> int:
    current: str | None = None
    while index < len(lines):
        line = lines[index]
        if index + 1 < len(lines) and line.strip() and _NUMPY_UNDERLINE_RE.match(lines[index + 1]):
            break
        if line.strip():
            match = _NUMPY_ENTRY_RE.match(line.strip()) if _indent(line) <= header_indent else None
            if match:
                current = match.group(1)
                out[current] = ""
            elif current is not None:
                out[current] = f"{out[current]} {line.strip()}".strip()
        index += 1
    return index


def _parse_rest_field(lines: list[str], index: int, out: dict[str, str]) -> int:
    match = _REST_PARAM_RE.match(lines[index])
    field_indent = _indent(lines[index])
    text = match.group(2).strip() if match else ""
    index += 1
    while index < len(lines) and lines[index].strip() and _indent(lines[index]) > field_indent:
        text = f"{text} {lines[index].strip()}".strip()
        index += 1
    if match:
        out[match.group(1)] = text
    return index


# --------------------------------------------------------------------------------------------------------------
# Schemas and validation helpers

_SCHEMA_MAPS = frozenset({"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"})
_SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SCHEMA_VALUES = frozenset(
    {"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
     "unevaluatedProperties", "unevaluatedItems", "additionalItems"}
)  # fmt: skip


def _model_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = _strip_titles(model.model_json_schema())
    ordered: dict[str, Any] = {"type": "object", "properties": schema.pop("properties", {})}
    if "required" in schema:
        ordered["required"] = schema.pop("required")
    schema.pop("type", None)
    ordered.update(schema)
    return ordered


def _strip_titles(schema: Any) -> Any:
    """Drop the ``title`` annotations pydantic adds, leaving properties that happen to be called ``title``."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _strip_titles(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_strip_titles(sub) for sub in value]
        elif key in _SCHEMA_VALUES:
            out[key] = _strip_titles(value)
        else:
            out[key] = value
    return out


def _check_raw_schema(name: str, parameters: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(parameters, Mapping):
        raise TypeError(f"Tool {name!r}: parameters must be a JSON schema dict, got {type(parameters).__name__}")
    schema = copy.deepcopy(dict(parameters))
    schema_type = schema.setdefault("type", "object")
    if schema_type != "object":
        raise ValueError(f"Tool {name!r}: parameters must describe an object (type 'object'), got {schema_type!r}")
    properties = schema.setdefault("properties", {})
    if not isinstance(properties, dict):
        raise ValueError(f"Tool {name!r}: parameters.properties must be a dict")
    return schema


_JSON_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, (list, tuple)),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def _raw_schema_problems(schema: dict[str, Any], arguments: dict[str, Any]) -> list[str]:
    properties: dict[str, Any] = schema.get("properties", {})
    problems: list[str] = []
    for key in schema.get("required", []):
        if key not in arguments:
            problems.append(f"{key}: Field required")
    for key, value in arguments.items():
        spec = properties.get(key)
        if spec is None:
            if schema.get("additionalProperties") is False:
                problems.append(f"{key}: Extra inputs are not permitted")
            continue
        if not isinstance(spec, dict):
            continue
        expected = spec.get("type")
        names = [expected] if isinstance(expected, str) else expected if isinstance(expected, list) else []
        checks = [_JSON_TYPE_CHECKS[t] for t in names if t in _JSON_TYPE_CHECKS]
        if checks and not any(check(value) for check in checks):
            problems.append(f"{key}: Input should be of type {' or '.join(names)}, got {_json_type(value)}")
            continue
        enum = spec.get("enum")
        if isinstance(enum, list) and value not in enum:
            problems.append(f"{key}: Input should be one of {', '.join(json.dumps(e) for e in enum)}")
    return problems


def _arguments_message(name: str, problems: list[str]) -> str:
    return f"Invalid arguments for tool {name!r}:\n" + "\n".join(f"- {problem}" for problem in problems)


def _format_error(loc: tuple[int | str, ...], message: str) -> str:
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return f"{path}: {message}" if path else message


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


# --------------------------------------------------------------------------------------------------------------
# Signatures, injection, async detection


def _signature(
    fn: Callable[..., Any], name: str, localns: dict[str, Any] | None, *, strict: bool
) -> inspect.Signature | None:
    """``fn``'s signature with annotations evaluated; ``None`` when it has none (some builtins).

    ``strict``: an annotation that does not evaluate is a ``TypeError`` (``@tool`` needs real types for the schema);
    otherwise the annotations stay text (the explicit ``Tool`` form only looks for injected parameters).
    """
    try:
        plain = inspect.signature(fn)
    except (ValueError, TypeError):
        return None
    try:
        return inspect.signature(fn, eval_str=True, locals=localns)
    except Exception as exc:  # NameError, SyntaxError, TypeError ... from evaluating an annotation
        if strict:
            raise TypeError(f"Tool {name!r}: cannot resolve the type hints of {fn!r}: {exc}") from exc
        return plain


def _injected_kind(param: inspect.Parameter) -> str | None:
    annotation = param.annotation
    if annotation is param.empty:
        return param.name if param.name in ("writer", "request_context") else None
    for candidate in _union_members(annotation):
        if isinstance(candidate, type):
            if issubclass(candidate, StreamWriter):
                return "writer"
            if issubclass(candidate, RequestContext):
                return "request_context"
        elif isinstance(candidate, str):  # an annotation left as text
            if re.search(r"\bStreamWriter\b", candidate):
                return "writer"
            if re.search(r"\bRequestContext\b", candidate):
                return "request_context"
    return None


def _union_members(annotation: Any) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _union_members(typing.get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return [member for arg in typing.get_args(annotation) for member in _union_members(arg)]
    return [annotation]


def _has_description(annotation: Any) -> bool:
    if typing.get_origin(annotation) is not Annotated:
        return False
    return any(isinstance(meta, FieldInfo) and meta.description for meta in typing.get_args(annotation)[1:])


def _is_async_callable(fn: Callable[..., Any]) -> bool:
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)  # noqa: B004 - a callable object's async __call__
    return call is not None and not inspect.isfunction(fn) and inspect.iscoroutinefunction(call)


# --------------------------------------------------------------------------------------------------------------
# Writers


def _discard(_chunk: Any) -> None:
    return None


def _discarding_writer() -> StreamWriter:
    return StreamWriter(emit=_discard)


class _ThreadSafeWriter(StreamWriter):
    """The writer a sync tool gets in its worker thread: each ``custom`` call runs on the event loop and waits.

    So chunks keep their order, reach the stream before the tool's result, and errors (an invalid chunk) are
    raised in the tool, exactly as for an async tool.
    """

    __slots__ = ("_loop", "_target")

    def __init__(self, target: StreamWriter, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(emit=_discard)
        self._target = target
        self._loop = loop

    def custom(self, chunk: Any, **options: Any) -> Any:
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(self._target.custom(chunk, **options))
            except BaseException as exc:
                done.set_exception(exc)

        self._loop.call_soon_threadsafe(run)
        return done.result()
