"""What every built-in processor shares: options validated by a pydantic ``Options`` model.

A built-in is constructed from its options (``RegexFilter(presets=["pii"], strategy="redact")`` or
``RegexFilter.from_options({...})``), so a design file can name a type and its options and the studio can
generate a form from ``Options.model_json_schema()``. Bad options raise :class:`InvalidOptionsError`, whose
message names the field.

A built-in's sentences for people — its tripwire reasons, its own checks of its options — are English templates in
its ``texts`` by key; it raises them with :meth:`BuiltinProcessor.tripwire` / :func:`option_problem`, which carry
the code ``"<TypeName>.<key>"`` and the values, so the studio translates by code (the English stays the API's text).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import PydanticCustomError

from processors.errors import ProcessorsError
from processors.pipeline.processor import Processor
from processors.problems import Problem, problem_of
from processors.tripwire import TripWire


class InvalidOptionsError(ProcessorsError, ValueError):
    """A built-in processor got options it cannot use. ``errors`` maps field path → English message; ``codes``
    maps the same paths → ``(code, params)``: pydantic's error type and context (``"greater_than_equal"``,
    ``{"ge": 1}``), a built-in's own code (``"RegexFilter.needs_rule"``) or a coded problem's (``"pattern:invalid"``,
    its values as :meth:`processors.problems.Problem.to_dict` writes them), for a reader in another language."""

    def __init__(
        self,
        processor_type: str,
        errors: dict[str, str],
        codes: dict[str, tuple[str, dict[str, Any]]] | None = None,
    ) -> None:
        details = "; ".join(f"{field}: {message}" for field, message in errors.items())
        super().__init__(f"Invalid options for {processor_type}: {details}")
        self.processor_type = processor_type
        self.errors = errors
        self.codes: dict[str, tuple[str, dict[str, Any]]] = dict(codes or {})

    @classmethod
    def of_validation(cls, processor_type: str, error: ValidationError) -> InvalidOptionsError:
        """pydantic's refusal of ``processor_type``'s options, field by field: the message without pydantic's
        "Value error, " (a validator's own words), the code a check's coded problem's, else pydantic's error type
        and context. Also what a plug-in that validates its options with its own pydantic model is refused with."""
        errors: dict[str, str] = {}
        codes: dict[str, tuple[str, dict[str, Any]]] = {}
        for item in error.errors():
            field = ".".join(str(p) for p in item["loc"]) or "options"
            errors[field] = item["msg"].removeprefix("Value error, ")
            problem = problem_of((item.get("ctx") or {}).get("error"))
            if problem is not None:  # a check that raised a coded problem (a pattern that does not compile)
                codes[field] = (problem.code, problem.to_dict()["params"])
                continue
            context = {key: _json_safe(value) for key, value in (item.get("ctx") or {}).items()}
            codes[field] = (item["type"], context)
        return cls(processor_type, errors, codes)


def text_code(owner: type[Any] | str, key: str) -> str:
    """The stable code of sentence ``key`` of a processor class (or a type name): ``"TokenLimiter.limit_exceeded"``."""
    name = owner if isinstance(owner, str) else getattr(owner, "type_name", "") or owner.__name__
    return f"{name}.{key}"


def _json_safe(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)


class ProcessorOptions(BaseModel):
    """Base of every ``Options`` model: unknown fields are refused (a typo must not be silently ignored).

    ``texts`` holds the English of the model's own checks by key; a validator raises ``cls.problem(key, **values)``
    and pydantic reports it with that English and the code ``"<OptionsClass>.<key>"`` (the studio translates it).
    """

    model_config = ConfigDict(extra="forbid", validate_assignment=True, arbitrary_types_allowed=True)
    texts: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def problem(cls, key: str, **params: Any) -> PydanticCustomError:
        """The error of check ``key`` (raise it in a validator): English ``texts[key]`` written with ``params``."""
        owner = next(c for c in cls.__mro__ if key in vars(c).get("texts", {}))  # the class that declares it
        return PydanticCustomError(text_code(owner.__name__, key), vars(owner)["texts"][key], params)


class BuiltinProcessor(Processor):
    """Base of the built-ins. Subclasses set ``Options`` and read ``self.options``.

    Class attributes the catalogue reads: ``type_name`` (stable name used in design files, e.g.
    ``"RegexFilter"``), ``needs_model`` (True when a model judge is required rather than optional), ``texts``
    (the English sentences it writes for people, by key; the studio translates them by ``"<type_name>.<key>"``).
    """

    Options: ClassVar[type[ProcessorOptions]] = ProcessorOptions
    type_name: ClassVar[str] = ""
    needs_model: ClassVar[bool] = False
    texts: ClassVar[Mapping[str, str]] = {}

    def __init__(self, **options: Any) -> None:
        self.options = self.parse_options(options)
        custom_id = options.get("id") if "id" in type(self.options).model_fields else None
        if custom_id:
            self.id = custom_id

    @classmethod
    def parse_options(cls, options: Mapping[str, Any]) -> Any:
        try:
            return cls.Options.model_validate(dict(options))
        except ValidationError as error:
            raise InvalidOptionsError.of_validation(cls.type_name or cls.__name__, error) from None

    def sentence(self, key: str, **params: Any) -> Problem:
        """Sentence ``key`` of ``texts`` written with ``params``, carrying its code ``"<type_name>.<key>"`` and the
        values: a violation report's message (``report_violation(self, self.id, self.sentence("near", ...))``), which
        the studio translates like a tripwire."""
        return Problem(text_code(type(self), key), self.texts[key], **params)

    def tripwire(self, key: str, *, retry: bool = False, metadata: Any = None, **params: Any) -> TripWire:
        """The tripwire of sentence ``key``: its English reason is ``texts[key]`` written with ``params``, its code
        ``"<type_name>.<key>"`` (``raise self.tripwire("limit_exceeded", limit=100, current=120)``)."""
        return TripWire(
            self.texts[key].format(**params),
            retry=retry,
            metadata=metadata,
            processor_id=self.id,
            code=text_code(type(self), key),
            params=params,
        )

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | ProcessorOptions | None = None) -> BuiltinProcessor:
        if isinstance(options, ProcessorOptions):
            options = options.model_dump()
        return cls(**dict(options or {}))
