"""The built-in litellm providers, each registered in ``pyproject.toml``'s ``processor_studio.providers`` group.

Every one is built by :class:`~processors.models.litellm.LiteLLMModel` (the :class:`Provider` default); they
differ in the key's variable, the endpoint a key goes to by default, and whether they run on the user's machine.
The default endpoints are where litellm sends each provider's calls when no ``api_base`` is given.
"""

from __future__ import annotations

from processors.models.providers import Provider

__all__ = [
    "ANTHROPIC",
    "DEEPSEEK",
    "GEMINI",
    "GROQ",
    "LM_STUDIO",
    "MISTRAL",
    "OLLAMA",
    "OLLAMA_CHAT",
    "OPENAI",
    "OPENROUTER",
    "TOGETHER_AI",
    "VERTEX_AI",
]

OPENAI = Provider(
    "openai",
    "OpenAI",
    key_variables=("OPENAI_API_KEY",),
    default_endpoint="https://api.openai.com/v1",
    suggested_models=("openai/gpt-4o-mini",),
)
ANTHROPIC = Provider(
    "anthropic",
    "Anthropic",
    key_variables=("ANTHROPIC_API_KEY",),
    default_endpoint="https://api.anthropic.com",
    suggested_models=("anthropic/claude-3-5-haiku-latest",),
)
GEMINI = Provider(
    "gemini",
    "Google Gemini",
    key_variables=("GEMINI_API_KEY",),
    default_endpoint="https://generativelanguage.googleapis.com",
)
MISTRAL = Provider(
    "mistral", "Mistral", key_variables=("MISTRAL_API_KEY",), default_endpoint="https://api.mistral.ai/v1"
)
GROQ = Provider("groq", "Groq", key_variables=("GROQ_API_KEY",), default_endpoint="https://api.groq.com/openai/v1")
OPENROUTER = Provider(
    "openrouter", "OpenRouter", key_variables=("OPENROUTER_API_KEY",), default_endpoint="https://openrouter.ai/api/v1"
)
DEEPSEEK = Provider(
    "deepseek", "DeepSeek", key_variables=("DEEPSEEK_API_KEY",), default_endpoint="https://api.deepseek.com"
)
TOGETHER_AI = Provider(
    "together_ai", "Together AI", key_variables=("TOGETHERAI_API_KEY",), default_endpoint="https://api.together.xyz/v1"
)
#: Its credentials are a Google service account; the variable is the one litellm reads for a plain key.
VERTEX_AI = Provider("vertex_ai", "Vertex AI", key_variables=("VERTEXAI_API_KEY",), stores_key=False)
OLLAMA = Provider(
    "ollama",
    "Ollama",
    local=True,
    api_base_hint="http://localhost:11434",
    suggested_models=("ollama/llama3.1",),
)
OLLAMA_CHAT = Provider("ollama_chat", "Ollama (chat API)", local=True, api_base_hint="http://localhost:11434")
LM_STUDIO = Provider(
    "lm_studio",
    "LM Studio",
    local=True,
    api_base_hint="http://localhost:1234/v1",
    suggested_models=("lm_studio/qwen2.5-7b-instruct",),
)
