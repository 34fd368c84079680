"""Names and metadata every packaging script shares, read from ``pyproject.toml`` (one source of truth)."""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
APP_ID = "processor-studio"  # package, executable, desktop entry and icon name
APP_NAME = "Processor Studio"
BUNDLE_ID = "org.processorstudio.ProcessorStudio"  # macOS bundle identifier
SUMMARY = "design LLM agents and test their guardrails by hand"
DESCRIPTION = """
A desktop app to design LLM agents and test their guardrails: put input, output and error processors
in a chain, chat with the agent, and watch what each processor passed, changed, dropped or aborted.
Works offline with a built-in demo model; talks to OpenAI, Anthropic, Gemini, Ollama and any other
provider litellm supports.
"""


@functools.cache
def project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        data: dict[str, Any] = tomllib.load(handle)["project"]
    return data


def version() -> str:
    return str(project()["version"])


def windows_version() -> str:
    """``major.minor.patch.0`` for the Windows file version resource (numbers only)."""
    numbers = [int(part) for part in re.findall(r"\d+", version())[:3]]
    return ".".join(str(n) for n in [*numbers, 0, 0, 0][:4])


def _people(key: str) -> list[dict[str, str]]:
    return [person for person in project().get(key, []) if isinstance(person, dict)]


def maintainer() -> str:
    """``Name <email>`` from pyproject's maintainers or authors (a .deb must name one)."""
    for person in _people("maintainers") + _people("authors"):
        if person.get("email"):
            return f"{person.get('name', APP_NAME + ' maintainers')} <{person['email']}>"
    return f"{APP_NAME} maintainers <maintainers@processor-studio.invalid>"


def homepage() -> str | None:
    urls: dict[str, str] = project().get("urls", {})
    for key in ("Homepage", "homepage", "Source", "Repository"):
        if key in urls:
            return urls[key]
    return None


MAINTAINER = maintainer()
HOMEPAGE = homepage()
