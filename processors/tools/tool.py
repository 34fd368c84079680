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

This module is about the tool itself: building it, calling it, validating what the model sent and making its result
JSON-safe. How its argument schema is made from type hints (or checked when given raw) lives in
:mod:`processors.tools.schema`; how a docstring becomes descriptions lives in :mod:`processors.tools.docstrings`
(``parse_docstring`` is re-exported here).
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from processors import json_limits
from processors.context import RequestContext, StreamWriter
from processors.errors import ToolArgumentsError
from processors.tools.calling import ThreadSafeWriter, discarding_writer, is_async_callable
from processors.tools.docstrings import parse_docstring
from processors.tools.schema import (
    arguments_message,
    arguments_model,
    check_raw_schema,
    format_error,
    injected_kind,
    json_type,
    model_schema,
    raw_schema_problems,
    raw_validator,
    tool_signature,
)

__all__ = ["Tool", "parse_docstring"]

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

    ``Tool(name, description, parameters=schema, execute=fn)`` checks arguments against the raw schema with
    ``jsonschema`` (every keyword at every depth; a schema jsonschema refuses gets its top level's ``required``,
    ``additionalProperties: false``, types and enums checked). ``Tool(name, description, input_model=Model,
    execute=fn)`` validates fully with pydantic; ``fn``
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
    _validator: Any  # its jsonschema validator (None: no raw schema, or one jsonschema refuses)
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
        signature = tool_signature(execute, name, None, strict=False)
        self._setup(name, description, execute, signature)
        if input_model is not None:
            if not (isinstance(input_model, type) and issubclass(input_model, BaseModel)):
                raise TypeError(f"Tool {name!r}: input_model must be a pydantic model class")
            self.input_model = input_model
            self.parameters = model_schema(input_model)
            self._schema = None
            self._validator = None
            self._kwarg_names = {field: field for field in input_model.model_fields}
            self._instance_param = self._find_instance_param(signature, input_model)
            if self._instance_param is None:
                self._check_accepts(signature, list(self._kwarg_names.values()))
        else:
            schema = check_raw_schema(name, parameters if parameters is not None else _EMPTY_SCHEMA)
            self.input_model = None
            self.parameters = schema
            self._schema = schema
            self._validator = raw_validator(schema)
            self._kwarg_names = {}
            self._instance_param = None
            self._check_accepts(signature, list(schema.get("properties", {})))

    def _setup(
        self, name: str, description: str, execute: Callable[..., Any], signature: inspect.Signature | None
    ) -> None:
        self.name = name
        self.description = description
        self.execute = execute
        self.is_async = is_async_callable(execute)
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
                    injected = injected_kind(param)
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
        signature = tool_signature(fn, tool_name, localns, strict=True)
        if signature is None:
            raise TypeError(f"Tool {tool_name!r}: cannot read the signature of {fn!r}")
        doc_description, arg_docs = parse_docstring(inspect.getdoc(fn))

        instance = cls.__new__(cls)
        instance._setup(tool_name, doc_description if description is None else description, fn, signature)
        model, parameters, kwarg_names = arguments_model(
            tool_name,
            signature,
            arg_docs,
            injected=(instance._writer_param, instance._context_param),
            module=getattr(fn, "__module__", None) or __name__,
        )
        instance.input_model = model
        instance.parameters = parameters
        instance._schema = None
        instance._validator = None
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
                kwargs[self._writer_param] = writer if writer is not None else discarding_writer()
            result = self.execute(**kwargs)
        else:
            if self._writer_param is not None:
                target = writer if writer is not None else discarding_writer()
                kwargs[self._writer_param] = ThreadSafeWriter(target, asyncio.get_running_loop())
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
                parsed = json_limits.loads(arguments, strict=False)
            except json_limits.JsonLimitError as exc:
                raise ToolArgumentsError(f"Invalid JSON arguments for tool {self.name!r}: {exc.message}") from None
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
                f"Invalid arguments for tool {self.name!r}: expected a JSON object, got {json_type(parsed)}"
            )
        beyond = json_limits.problems(parsed)  # NaN, Infinity, nesting the message and its chunks cannot hold
        if beyond:
            raise ToolArgumentsError(arguments_message(self.name, [format_error(loc, text) for loc, text in beyond]))
        return parsed

    def _validate_model(self, parsed: dict[str, Any]) -> BaseModel:
        assert self.input_model is not None
        try:
            return self.input_model.model_validate(parsed)
        except ValidationError as exc:
            lines = [format_error(error["loc"], error["msg"]) for error in exc.errors(include_url=False)]
            raise ToolArgumentsError(arguments_message(self.name, lines)) from exc

    def _check_raw(self, parsed: dict[str, Any]) -> dict[str, Any]:
        assert self._schema is not None
        problems = raw_schema_problems(self._schema, parsed, self._validator)
        if problems:
            raise ToolArgumentsError(arguments_message(self.name, problems))
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
