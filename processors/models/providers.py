"""The provider registry: every model provider the runtime and the studio know, and the one rule for model ids.

A :class:`Provider` says everything the house needs about one provider — how a model id names it, the environment
variable its key is read from, where its key goes by default, whether it needs one, how its
:class:`~processors.models.base.LanguageModel` is built, which request tests a connection and what an exported
script imports to build the same model. Nothing else lists providers: the studio's key store, endpoint rules,
settings, model box, connection test and export all ask this module.

Providers register like processors, through an entry-point group (``processor_studio.providers``); each entry
point names a :class:`Provider` object, and the built-ins register there the same way a third-party package does::

    [project.entry-points."processor_studio.providers"]
    toy = "toy_provider:PROVIDER"

    from processors.models.providers import provider_for
    provider = provider_for("toy/small")           # the toy Provider ("toy/..." ids name it)
    model = provider.build("toy/small", api_key="k")

**One rule for model ids** (:func:`provider_name`): ``"name/model"`` names the provider ``name``; a bare id that a
provider claims whole (``"demo"``) names that provider; any other bare id (``"gpt-4o"``) names
:data:`DEFAULT_PROVIDER`, OpenAI, as litellm reads it. A prefix no provider registers is still a litellm provider
(litellm knows a hundred): :func:`provider_for` gives it a plain litellm :class:`Provider` whose key is read from
``<NAME>_API_KEY``.

When this project runs from a source tree whose installed metadata predates the group (an editable install made
before it existed), the group is read from the tree's ``pyproject.toml`` instead, so that file stays the one list.
A provider entry point that fails to load, or names something that is no :class:`Provider`, is logged and skipped.
"""

from __future__ import annotations

import importlib
import logging
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from processors.models.base import LanguageModel, ModelRequest

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_PROVIDER",
    "ENTRY_POINT_GROUP",
    "LITELLM_FACTORY",
    "Provider",
    "clear_providers",
    "default_hosted_model",
    "provider_for",
    "provider_name",
    "provider_named",
    "providers",
]

ENTRY_POINT_GROUP = "processor_studio.providers"
#: The provider of a bare model id that no provider claims (``"gpt-4o-mini"``): litellm's own default.
DEFAULT_PROVIDER = "openai"
#: The distribution whose entry points are the built-ins.
DISTRIBUTION = "processor-studio"
#: The constructor of every litellm provider: ``LiteLLMModel(model_id, api_base=..., api_key=..., **settings)``.
LITELLM_FACTORY = "processors.models:LiteLLMModel"
#: The prompt of a connection test: a reply of one word costs next to nothing.
CONNECTION_PROMPT = "Reply with the word OK."


@dataclass(frozen=True)
class Provider:
    """One model provider (see the module docstring). Only ``name`` and ``label`` are required: the defaults
    describe a hosted litellm provider whose key is read from ``<NAME>_API_KEY``."""

    #: How a model id names it: ``"<name>/<model>"``; also the name its key is stored under.
    name: str
    #: How the studio shows it (``"OpenAI"``).
    label: str
    #: ``"module:callable"`` building its model. Called ``(model_id, *, api_base, api_key, **settings)``, or with
    #: no argument at all for an ``offline`` provider; an exported script imports and calls it the same way.
    factory: str = LITELLM_FACTORY
    #: The environment variables its key may be read from, in order; the first is the usual one (what an exported
    #: script reads). Empty: ``<NAME>_API_KEY``.
    key_variables: tuple[str, ...] = ()
    #: Where its key goes when a design names no API base (keys are bound to it); ``None``: unknown (a per-user
    #: deployment such as Azure's, or a local server).
    default_endpoint: str | None = None
    #: A server on the user's machine (Ollama, LM Studio): it needs no key, and ``api_base_hint`` is its usual URL.
    local: bool = False
    #: The API base the model box suggests for it (a local server's usual address).
    api_base_hint: str | None = None
    #: Answers without a key and without the network (the demo model); its factory takes no argument.
    offline: bool = False
    #: Whole model ids that name it without a ``name/`` prefix (the demo's ``"demo"``).
    bare_ids: tuple[str, ...] = ()
    #: Model ids the model box offers for it.
    suggested_models: tuple[str, ...] = ()
    #: What an exported script needs installed for it, besides ``processors`` (``""``: nothing).
    script_needs: str = "litellm"
    #: Settings → API keys offers to store its key (``False`` for a provider whose credentials are not one key,
    #: such as Vertex AI's service account; local and offline providers are never offered).
    stores_key: bool = True

    @property
    def needs_key(self) -> bool:
        """Whether a call without a key is pointless (hosted providers); local and offline ones need none."""
        return not (self.local or self.offline)

    @property
    def offers_key(self) -> bool:
        """Whether Settings → API keys lists it."""
        return self.stores_key and self.needs_key

    @property
    def key_variable(self) -> str | None:
        """The environment variable its key is read from (``None`` for an offline provider)."""
        if self.offline:
            return None
        return self.key_variables[0] if self.key_variables else re.sub(r"\W", "_", self.name).upper() + "_API_KEY"

    def environment_key(self, environ: Mapping[str, str]) -> str | None:
        """Its key as ``environ`` holds it: the first of its variables that is set (``None`` for an offline one)."""
        names = self.key_variables or ((self.key_variable,) if self.key_variable else ())
        return None if self.offline else next((environ[name] for name in names if environ.get(name)), None)

    def owns(self, model_id: str) -> bool:
        """Whether ``model_id`` names this provider (:func:`provider_name`'s rule)."""
        return provider_name(model_id) == self.name

    def factory_parts(self) -> tuple[str, str]:
        """``(module, attribute)`` of :attr:`factory`: what an exported script imports."""
        module, _, attribute = self.factory.partition(":")
        return module, attribute

    def load_factory(self) -> Callable[..., LanguageModel]:
        module, attribute = self.factory_parts()
        value: Any = importlib.import_module(module)
        for part in attribute.split("."):
            value = getattr(value, part)
        if not callable(value):
            raise TypeError(f"provider {self.name}: {self.factory} is not callable")
        return value  # type: ignore[no-any-return]

    def build(
        self, model_id: str, *, api_base: str | None = None, api_key: str | None = None, **settings: Any
    ) -> LanguageModel:
        """Its model for ``model_id`` (an offline provider ignores every argument). Raises ``TypeError`` when the
        factory makes something that is no :class:`LanguageModel`."""
        factory = self.load_factory()
        model = factory() if self.offline else factory(model_id, api_base=api_base, api_key=api_key, **settings)
        if not isinstance(model, LanguageModel):
            raise TypeError(f"provider {self.name}: {self.factory} made a {type(model).__name__}, not a model")
        return model

    def connection_request(self) -> ModelRequest:
        """The request "Test connection" sends: a one-word reply, eight tokens at most."""
        return ModelRequest(messages=[{"role": "user", "content": CONNECTION_PROMPT}], settings={"max_tokens": 8})


def provider_name(model_id: str) -> str:
    """The name of the provider ``model_id`` names: the one rule of the module docstring."""
    text = model_id.strip()
    if "/" in text:
        return text.split("/", 1)[0]
    return _bare_ids().get(text, DEFAULT_PROVIDER)


def default_hosted_model() -> str:
    """The model id the studio offers when a design uses the offline demo and the user opens the settings to connect
    a real model: :data:`DEFAULT_PROVIDER`'s first suggested model (the registry decides, not the dialogs)."""
    provider = provider_named(DEFAULT_PROVIDER)
    return provider.suggested_models[0] if provider.suggested_models else f"{provider.name}/"


def provider_for(model_id: str) -> Provider:
    """The registered provider ``model_id`` names, else a plain litellm provider of that name."""
    return provider_named(provider_name(model_id))


def provider_named(name: str) -> Provider:
    """The registered provider called ``name`` (keys are stored under it), else a plain litellm provider."""
    return _registered().get(name) or Provider(name=name, label=name)


def providers() -> tuple[Provider, ...]:
    """Every registered provider, the built-ins first (in ``pyproject.toml``'s order), then plug-ins by name."""
    return tuple(_registered().values())


def clear_providers() -> None:
    """Forget the providers read so far: the next call reads the entry points again (tests, plug-in installs)."""
    _registered.cache_clear()
    _bare_ids.cache_clear()


@cache
def _bare_ids() -> Mapping[str, str]:
    return {bare: provider.name for provider in _registered().values() for bare in provider.bare_ids}


@cache
def _registered() -> Mapping[str, Provider]:
    found: dict[str, Provider] = {}
    builtin, plugins = _entry_points()
    for name, load, source in [*builtin, *plugins]:
        try:
            provider = load()
        except Exception:  # one broken plug-in must not hide the others
            logger.warning("provider %s (%s) could not be loaded", name, source, exc_info=True)
            continue
        if not isinstance(provider, Provider):
            logger.warning("provider %s (%s) names a %s, not a Provider", name, source, type(provider).__name__)
            continue
        if provider.name in found:
            logger.warning("provider %s (%s) is registered twice; the first one stays", provider.name, source)
            continue
        found[provider.name] = provider
    return found


_Loader = tuple[str, Callable[[], Any], str]


def _entry_points() -> tuple[list[_Loader], list[_Loader]]:
    """The group's entry points: this project's (from its metadata, else its ``pyproject.toml``) and plug-ins'."""
    try:
        listed = list(entry_points(group=ENTRY_POINT_GROUP))
    except Exception as error:  # a broken distribution's metadata must not hide every provider
        logger.warning("reading the %s entry points failed: %s", ENTRY_POINT_GROUP, error)
        listed = []
    builtin = [_loader(point) for point in listed if _is_builtin(point)]
    plugins = sorted((_loader(point) for point in listed if not _is_builtin(point)), key=lambda item: item[0])
    if not builtin:
        builtin = [(name, _target_loader(target), "builtin") for name, target in _source_tree_entry_points()]
    else:  # installed metadata is written sorted; pyproject's order (OpenAI first) is the one users see
        order = {name: index for index, (name, _) in enumerate(_source_tree_entry_points())}
        builtin.sort(key=lambda item: (order.get(item[0], len(order)), item[0]))
    return builtin, plugins


def _loader(point: EntryPoint) -> _Loader:
    dist = getattr(point, "dist", None)
    return point.name, point.load, "builtin" if _is_builtin(point) else f"plugin:{getattr(dist, 'name', '?')}"


def _is_builtin(point: EntryPoint) -> bool:
    dist = getattr(point, "dist", None)
    return (getattr(dist, "name", None) or "").lower().replace("_", "-") == DISTRIBUTION


def _target_loader(target: str) -> Callable[[], Any]:
    return lambda: EntryPoint(name="", value=target, group=ENTRY_POINT_GROUP).load()


@cache
def _source_tree_entry_points() -> tuple[tuple[str, str], ...]:
    """The group as this source tree's ``pyproject.toml`` writes it (empty when there is none: an installed copy)."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        table = tomllib.loads(pyproject.read_text("utf-8"))
    except (OSError, ValueError):
        return ()
    group = table.get("project", {}).get("entry-points", {}).get(ENTRY_POINT_GROUP, {})
    return tuple((str(name), str(target)) for name, target in group.items())
