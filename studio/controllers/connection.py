""" "Test connection": one tiny real model call, to tell a user whether key, model id and API base work.

The provider the model id names (:mod:`processors.models.providers`) builds the model and says which request tests
it; a hosted provider without a key and without an API base is not called at all.
"""

from __future__ import annotations

import asyncio

from processors.errors import ModelAPIError
from processors.models.base import Finish, TextDelta
from processors.models.providers import provider_for
from studio.keys.secrets import NO_KEY
from studio.texts.model_errors import model_error_message
from studio.texts.translator import translate

#: Seconds to wait for the provider's first answer.
TIMEOUT = 20.0


async def check_connection(model_id: str, *, api_key: str | None, api_base: str | None) -> str:
    """A one-line verdict: "Connected: <reply>" or why it failed. Never raises for provider errors."""
    timeout = TIMEOUT
    provider = provider_for(model_id)
    if not api_key and not provider.offline:
        if not api_base and provider.needs_key:
            return translate(
                "Connection",
                "No API key is set for {provider}: save one above (or set the provider's environment variable).",
            ).format(provider=provider.name)
        api_key = NO_KEY  # local servers (Ollama, LM Studio) ignore it; litellm wants one, never the environment's
    model = provider.build(model_id, api_base=api_base or None, api_key=api_key)
    request = provider.connection_request()
    reply: list[str] = []
    prepare = getattr(model, "prepare", None)
    if prepare is not None:
        await prepare()  # litellm's import (seconds on a busy machine) is not the provider's answer time
    try:
        async with asyncio.timeout(timeout):
            async for event in model.stream(request):
                if isinstance(event, TextDelta):
                    reply.append(event.text)
                elif isinstance(event, Finish):
                    break
    except TimeoutError:
        return translate("Connection", "No answer within {seconds} s from {where}.").format(
            seconds=f"{timeout:.0f}", where=api_base or provider.name
        )
    except ModelAPIError as error:
        status = f"HTTP {error.status_code}: " if error.status_code else ""
        message = model_error_message(error.message, error.kind, error.detail)
        return translate("Connection", "Failed — {error}").format(error=f"{status}{message}")
    text = "".join(reply).strip()
    if text:
        return translate("Connection", "Connected to {model} — it replied “{reply}”").format(
            model=model_id, reply=text[:40]
        )
    return translate("Connection", "Connected to {model}").format(model=model_id)
