"""Find OpenAI-compatible model servers running on this machine: Ollama, LM Studio, llama.cpp server, vLLM.

People who run a model locally should not have to remember which port their server listens on or type model
names by hand. :func:`find_local_servers` asks each known port at once (short time limits, so a port nobody
listens on costs nothing) and returns what answered: the kind of server, the base URL to give litellm
(``http://127.0.0.1:11434/v1``) and the models it serves. A server that is not running is one short line in
:attr:`LocalServerScan.absent`, never an exception.

The models are read from ``/v1/models`` (the OpenAI listing every one of them serves); Ollama's own
``/api/tags`` is asked first on its port, because it also lists models that ``/v1/models`` leaves out in older
releases. Every model is called through litellm's ``openai/`` provider against the server's ``/v1`` base.

Pure: no Qt. The ports are a parameter, so tests point the probe at servers they start on free ports.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported on the first probe: httpx loads click, rich and pygments with it (~0.3 s at start-up)
    import httpx

from processors.problems import Problem

__all__ = [
    "KNOWN_SERVERS",
    "LocalServer",
    "LocalServerScan",
    "ServerKind",
    "find_local_servers",
    "probe_server",
]


@dataclass(frozen=True)
class ServerKind:
    """A kind of local server and the port it listens on by default."""

    kind: str
    label: str
    port: int


#: What :func:`find_local_servers` looks for by default, in the order it reports them.
KNOWN_SERVERS: tuple[ServerKind, ...] = (
    ServerKind("ollama", "Ollama", 11434),
    ServerKind("lmstudio", "LM Studio", 1234),
    ServerKind("llamacpp", "llama.cpp server", 8080),
    ServerKind("vllm", "vLLM", 8000),
)


@dataclass(frozen=True)
class LocalServer:
    """A server that answered, with the models it serves (possibly none: a server with no model loaded)."""

    kind: str
    label: str
    base_url: str
    models: tuple[str, ...]

    def model_id(self, model: str) -> str:
        """The litellm id for one of this server's models: its OpenAI-compatible API, at :attr:`base_url`."""
        return f"openai/{model}"


@dataclass(frozen=True)
class LocalServerScan:
    """What a scan found: the servers that answered, and one short line for each that did not."""

    found: tuple[LocalServer, ...] = ()
    absent: tuple[str, ...] = field(default_factory=tuple)


class _NotAServer(Exception):
    """The port answered, but not like a model server (the message says how)."""


async def find_local_servers(
    servers: Iterable[ServerKind] = KNOWN_SERVERS, *, host: str = "127.0.0.1", seconds: float = 1.5
) -> LocalServerScan:
    """Probe every server in ``servers`` concurrently; each probe gives up after ``seconds``."""
    import httpx

    kinds = list(servers)
    async with httpx.AsyncClient(timeout=httpx.Timeout(seconds), trust_env=False) as client:
        # trust_env=False: a proxy from the environment must not see (or swallow) requests meant for localhost
        outcomes = await asyncio.gather(*(probe_server(client, kind, host=host) for kind in kinds))
    found = tuple(outcome for outcome in outcomes if isinstance(outcome, LocalServer))
    absent = tuple(outcome for outcome in outcomes if isinstance(outcome, str))
    return LocalServerScan(found, absent)


async def probe_server(client: httpx.AsyncClient, kind: ServerKind, *, host: str = "127.0.0.1") -> LocalServer | str:
    """One server: a :class:`LocalServer` if it answered with a model listing, else why not, in one line."""
    import httpx

    origin = f"http://{host}:{kind.port}"
    where = f"{kind.label} (port {kind.port})"
    try:
        models: list[str] | None = None
        if kind.kind == "ollama":
            models = await _ollama_tags(client, origin)
        if models is None:
            models = await _openai_models(client, origin)
    except httpx.ConnectError:
        return Problem(
            "local_server:not_running", "{server} (port {port}): not running", server=kind.label, port=kind.port
        )
    except httpx.TimeoutException:
        return Problem(
            "local_server:no_answer",
            "{server} (port {port}): no answer within {time}",
            server=kind.label,
            port=kind.port,
            time=_seconds(client),
        )
    except httpx.HTTPError as error:
        return f"{where}: {type(error).__name__}"
    except _NotAServer as error:
        return f"{where}: {error}"
    return LocalServer(kind.kind, kind.label, f"{origin}/v1", tuple(models))


async def _ollama_tags(client: httpx.AsyncClient, origin: str) -> list[str] | None:
    """Ollama's own listing, or ``None`` when the port answers but not like Ollama (then ``/v1/models`` decides)."""
    response = await client.get(f"{origin}/api/tags")
    if response.status_code != 200:
        return None
    payload = _json(response)
    entries = payload.get("models") if isinstance(payload, dict) else None
    if not isinstance(entries, list):
        return None
    return _names(entries, ("name", "model"))


async def _openai_models(client: httpx.AsyncClient, origin: str) -> list[str]:
    response = await client.get(f"{origin}/v1/models")
    if response.status_code != 200:
        raise _NotAServer(f"answered HTTP {response.status_code} to /v1/models")
    payload = _json(response)
    entries = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(entries, list):
        raise _NotAServer("answered /v1/models without a model list")
    return _names(entries, ("id",))


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        raise _NotAServer(f"answered {response.url.path} with something that is not JSON") from None


def _names(entries: list[Any], keys: tuple[str, ...]) -> list[str]:
    names: list[str] = []
    for entry in entries:
        if isinstance(entry, dict):
            name = next((entry[key] for key in keys if isinstance(entry.get(key), str) and entry[key]), None)
            if name is not None and name not in names:
                names.append(name)
    return names


def _seconds(client: httpx.AsyncClient) -> str:
    limit = client.timeout.connect or client.timeout.read
    return f"{limit:g} s" if limit is not None else "the time limit"
