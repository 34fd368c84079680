"""``AgentDesign``: what the editor edits — model, instructions, tools, three processor chains, retries.

A design is a pydantic model saved as versioned JSON (``to_json``/``from_json``); ``build_agent`` turns it
into a runtime :class:`processors.Agent`, and ``to_python_script`` exports a runnable script that builds the
same agent with ``processors``. The editor never mutates a design in place outside its undo commands.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

DESIGN_VERSION = 1

Lane = Literal["input", "output", "error"]
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


class ModelConfig(BaseModel):
    """Which model the agent talks to, and how."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(default=DEMO_MODEL, description="litellm model id ('provider/model') or 'demo'")
    api_base: str | None = Field(default=None, description="Base URL for local servers (Ollama, LM Studio)")
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_tokens: int | None = Field(default=None, ge=1)
    top_p: float | None = Field(default=None, ge=0, le=1)
    extra: dict[str, Any] = Field(default_factory=dict, description="Other call settings passed to the model")


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
