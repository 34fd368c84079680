"""check_connection: the provider a model id names builds the model and sends its connection request."""

from __future__ import annotations

from studio.controllers.connection import check_connection
from tests.support.openai_server import OpenAIServer


async def test_the_demo_model_connects_offline_without_a_key() -> None:
    verdict = await check_connection("demo", api_key=None, api_base=None)
    assert verdict.startswith("Connected to demo — it replied “")


async def test_a_hosted_provider_without_a_key_is_not_called() -> None:
    verdict = await check_connection("anthropic/claude-x", api_key=None, api_base=None)
    assert verdict == ("No API key is set for anthropic: save one above (or set the provider's environment variable).")


async def test_the_providers_connection_request_is_what_the_server_gets(openai_server: OpenAIServer) -> None:
    openai_server.reply_text("OK")
    verdict = await check_connection("openai/test-model", api_key=None, api_base=openai_server.base_url)
    assert verdict == "Connected to openai/test-model — it replied “OK”"
    sent = openai_server.requests[0]
    assert sent["messages"] == [{"role": "user", "content": "Reply with the word OK."}]
    assert sent["max_tokens"] == 8
    assert openai_server.request_headers[0]["authorization"] == "Bearer no-key"  # never the environment's key
