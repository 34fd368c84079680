"""The models a strategy calls: the attacker (writes attacks) and the judge (scores what the design answered).

Either is any litellm model id (``"openai/gpt-4o-mini"``), a local OpenAI-compatible server (``api_base``), or a
:class:`~processors.models.LanguageModel` object (the tests' :class:`~processors.models.ScriptedModel`). A model id
is built by the provider registry (:mod:`processors.models.providers`) exactly as the detectors' judge builds one
(:func:`processors.builtin.judge.judge_model`): with an ``api_base`` the key is a placeholder, never the
environment's.

Every call asks for temperature 0 and passes the run's seed (``seed``), with litellm's ``drop_params`` so a provider
that takes no seed gets none instead of refusing the call: the same run gives the same attacks wherever the model
is reproducible. :func:`ask` turns any failure — an HTTP error, a timeout, an empty answer — into
:class:`~lab.strategies.errors.StrategyModelError`, which a strategy makes one variant's error (never a crash).
"""

from __future__ import annotations

import asyncio
import zlib
from dataclasses import dataclass, field
from typing import Any

from lab.strategies.errors import StrategyModelError
from processors.errors import ModelAPIError
from processors.models import resolve_model
from processors.models.base import Finish, LanguageModel, ModelRequest, TextDelta
from processors.usage import Usage

#: Seconds one attacker or judge call may take.
DEFAULT_TIMEOUT = 60.0
#: The most an attacker or judge answer may be (tokens): an attack prompt, a rewrite, a short verdict.
MAX_ANSWER_TOKENS = 1024


def strategy_model(model: LanguageModel | str, api_base: str | None = None) -> LanguageModel:
    """``model`` as a LanguageModel: an id is built by its provider (on ``api_base`` with a placeholder key)."""
    if isinstance(model, str) and api_base:
        from processors.models.providers import provider_for

        return provider_for(model).build(model, api_base=api_base, api_key="local")
    return resolve_model(model)


def costs_nothing(model: str | None, api_base: str | None = None) -> bool:
    """Whether calls of ``model`` are free: a server on this machine (``api_base`` on localhost), a local provider
    (Ollama, LM Studio) or an offline one (the demo model)."""
    if api_base:
        from urllib.parse import urlsplit

        host = (urlsplit(api_base.strip()).hostname or "").lower()
        if host in ("localhost", "127.0.0.1", "::1") or host.endswith(".localhost"):
            return True
    if not model:
        return False
    from processors.models.providers import provider_for

    provider = provider_for(model)
    return provider.local or provider.offline


def model_id_of(model: LanguageModel | str | None) -> str | None:
    """The id prices are looked up by (``None`` when there is no model)."""
    if model is None or isinstance(model, str):
        return model
    return str(getattr(model, "model_id", "") or "") or None


def numeric_seed(seed: int | str) -> int:
    """The run's seed as the integer providers take (a text seed through CRC-32: stable in every process)."""
    return seed if isinstance(seed, int) else zlib.crc32(str(seed).encode())


@dataclass
class Spend:
    """Calls made and tokens used, per role (``attacker``, ``judge``): what a run really cost beside the estimate."""

    calls: dict[str, int] = field(default_factory=dict)
    usage: dict[str, Usage] = field(default_factory=dict)

    def add(self, role: str, usage: Usage | None) -> None:
        self.calls[role] = self.calls.get(role, 0) + 1
        self.usage[role] = self.usage.get(role, Usage()) + (usage or Usage())


def request(
    messages: list[dict[str, Any]], seed: int | str, *, response_format: dict[str, Any] | None = None
) -> ModelRequest:
    """A reproducible request: temperature 0 and the seed, dropped by litellm where the provider takes none."""
    return ModelRequest(
        messages=messages,
        settings={"temperature": 0, "seed": numeric_seed(seed), "max_tokens": MAX_ANSWER_TOKENS},
        provider_options={"drop_params": True},
        response_format=response_format,
    )


async def ask(
    model: LanguageModel,
    role: str,
    call: ModelRequest,
    *,
    time_limit: float = DEFAULT_TIMEOUT,
    spend: Spend | None = None,
) -> str:
    """The model's whole answer as text. Raises :class:`StrategyModelError` naming ``role`` on any failure."""
    parts: list[str] = []
    usage: list[Usage] = []

    async def collect() -> None:
        async for event in model.stream(call):
            if type(event) is TextDelta:
                parts.append(event.text)
            elif type(event) is Finish and event.usage is not None:
                usage.append(event.usage)

    prepare = getattr(model, "prepare", None)  # LiteLLMModel: import litellm before the clock starts
    try:
        if prepare is not None:
            await prepare()
        await asyncio.wait_for(collect(), time_limit)
    except asyncio.CancelledError:
        raise
    except TimeoutError as error:
        raise StrategyModelError(role, f"no answer within {time_limit:g} s", kind="timeout") from error
    except ModelAPIError as error:
        status = f"HTTP {error.status_code}: " if error.status_code else ""
        raise StrategyModelError(role, f"{status}{error.message}", status=error.status_code, kind=error.kind) from error
    except Exception as error:  # a custom model's bug: still this variant's error, not the run's
        raise StrategyModelError(role, f"{type(error).__name__}: {error}") from error
    finally:
        if spend is not None:
            spend.add(role, usage[0] if usage else None)
    text = "".join(parts).strip()
    if not text:
        raise StrategyModelError(role, "the answer holds no text", kind="no-text")
    return text


def count_tokens(text: str, model_id: str | None = None) -> int:
    """The tokens of ``text`` (the model's tokenizer when known, an estimate otherwise): for the estimates."""
    from processors.builtin.model_data import count_tokens as count

    return count(text, model_id)
