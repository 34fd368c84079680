"""Ready-made judges on local model servers: where the servers listen, and the guard models people run there.

A preset fills a judge-backed processor's ``model``, ``api_base`` and (for the prompt-injection detector)
``judge_format``::

    PromptInjectionDetector(judge_preset="qwen3guard-vllm", judge_mode="hybrid")
    ModerationProcessor(judge_preset="general-ollama")    # any judge-backed built-in: model and api_base

Every server speaks the OpenAI chat API at the address below (Ollama since 0.1.24 at ``/v1``), so each model goes
through litellm's ``openai/`` provider with that ``api_base``. The model names are each project's published
ones; a server that calls the model something else only needs ``model`` changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

#: How a judge answers: ``json`` (any chat model, asked for a JSON verdict) or a guard model's own format
#: (read by :mod:`processors.builtin.guard_models`). Defined here, the module with no dependencies, so the judge
#: options, the presets and the guard readers share it without an import cycle.
GuardFormat = Literal["json", "llama-guard", "prompt-guard", "shieldgemma", "qwen3guard"]

#: The default address of each local OpenAI-compatible server.
LOCAL_SERVERS: Final[dict[str, str]] = {
    "ollama": "http://localhost:11434/v1",
    "lm-studio": "http://localhost:1234/v1",
    "llama.cpp": "http://localhost:8080/v1",
    "vllm": "http://localhost:8000/v1",
}


@dataclass(frozen=True, slots=True)
class JudgePreset:
    """A judge on a local server: the model id (litellm ``openai/`` provider), the server and the answer format."""

    title: str
    model: str
    server: str
    judge_format: GuardFormat

    @property
    def api_base(self) -> str:
        return LOCAL_SERVERS[self.server]

    def options(self) -> dict[str, Any]:
        """The judge options this preset sets (``judge_format`` only for the prompt-injection detector)."""
        return {"model": self.model, "api_base": self.api_base}


#: The presets' names (a Literal, so option forms offer them in a list).
JudgePresetName = Literal[
    "llama-guard-ollama", "shieldgemma-ollama", "qwen3guard-ollama", "qwen3guard-vllm", "llama-guard-vllm",
    "prompt-guard-vllm", "llama-guard-llama-cpp", "general-lm-studio", "general-ollama",
]  # fmt: skip

JUDGE_PRESETS: Final[dict[str, JudgePreset]] = {
    "llama-guard-ollama": JudgePreset("Llama Guard 3 on Ollama", "openai/llama-guard3", "ollama", "llama-guard"),
    "shieldgemma-ollama": JudgePreset("ShieldGemma on Ollama", "openai/shieldgemma", "ollama", "shieldgemma"),
    "qwen3guard-ollama": JudgePreset(
        "Qwen3Guard on Ollama (Chinese and English)", "openai/qwen3guard", "ollama", "qwen3guard"
    ),
    "qwen3guard-vllm": JudgePreset(
        "Qwen3Guard-Gen-8B on vLLM (Chinese and English)", "openai/Qwen/Qwen3Guard-Gen-8B", "vllm", "qwen3guard"
    ),
    "llama-guard-vllm": JudgePreset(
        "Llama Guard 3 8B on vLLM", "openai/meta-llama/Llama-Guard-3-8B", "vllm", "llama-guard"
    ),
    "prompt-guard-vllm": JudgePreset(
        "Prompt Guard 2 86M on vLLM", "openai/meta-llama/Llama-Prompt-Guard-2-86M", "vllm", "prompt-guard"
    ),
    "llama-guard-llama-cpp": JudgePreset(
        "Llama Guard 3 on llama.cpp", "openai/llama-guard-3", "llama.cpp", "llama-guard"
    ),
    "general-lm-studio": JudgePreset(
        "Any chat model on LM Studio (JSON verdicts)", "openai/local-model", "lm-studio", "json"
    ),
    "general-ollama": JudgePreset("Any chat model on Ollama (JSON verdicts)", "openai/qwen2.5", "ollama", "json"),
}

assert set(JUDGE_PRESETS) == set(get_args(JudgePresetName))

__all__ = ["JUDGE_PRESETS", "LOCAL_SERVERS", "GuardFormat", "JudgePreset", "JudgePresetName"]
