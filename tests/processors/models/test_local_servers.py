"""The local model server probe against real HTTP servers on free ports that answer like each kind."""

from __future__ import annotations

from processors.models.local_servers import KNOWN_SERVERS, LocalServer, LocalServerScan, ServerKind, find_local_servers
from tests.support.local_servers import LocalModelServer, free_port, silent_port


async def test_finds_each_kind_with_its_models_and_v1_base() -> None:
    with (
        LocalModelServer("ollama", ["llama3.2:latest", "qwen2.5:7b"]) as ollama,
        LocalModelServer("lmstudio", ["qwen2.5-7b-instruct"]) as lmstudio,
        LocalModelServer("llamacpp", ["model.gguf"]) as llamacpp,
        LocalModelServer("vllm", ["meta-llama/Llama-3.1-8B-Instruct"]) as vllm,
    ):
        kinds = [
            ServerKind(k.kind, k.label, s.port)
            for k, s in zip(KNOWN_SERVERS, (ollama, lmstudio, llamacpp, vllm), strict=True)
        ]
        scan = await find_local_servers(kinds)
    assert scan.absent == ()
    assert scan.found == (
        LocalServer("ollama", "Ollama", f"http://127.0.0.1:{ollama.port}/v1", ("llama3.2:latest", "qwen2.5:7b")),
        LocalServer("lmstudio", "LM Studio", f"http://127.0.0.1:{lmstudio.port}/v1", ("qwen2.5-7b-instruct",)),
        LocalServer("llamacpp", "llama.cpp server", f"http://127.0.0.1:{llamacpp.port}/v1", ("model.gguf",)),
        LocalServer("vllm", "vLLM", f"http://127.0.0.1:{vllm.port}/v1", ("meta-llama/Llama-3.1-8B-Instruct",)),
    )
    assert ollama.paths == ["/api/tags"]  # Ollama's own listing answered: /v1/models was not needed
    assert lmstudio.paths == ["/v1/models"]
    assert scan.found[0].model_id("qwen2.5:7b") == "openai/qwen2.5:7b"


async def test_an_openai_server_on_ollamas_port_is_listed_from_v1_models() -> None:
    with LocalModelServer("vllm", ["served-model"]) as server:
        scan = await find_local_servers([ServerKind("ollama", "Ollama", server.port)])
    assert [s.models for s in scan.found] == [("served-model",)]
    assert server.paths == ["/api/tags", "/v1/models"]


async def test_servers_that_are_not_running_hung_or_something_else_are_one_short_line_each() -> None:
    closed = free_port()
    with silent_port() as hung, LocalModelServer("html", []) as page, LocalModelServer("vllm", ["m"]) as vllm:
        scan = await find_local_servers(
            [
                ServerKind("ollama", "Ollama", closed),
                ServerKind("lmstudio", "LM Studio", hung),
                ServerKind("llamacpp", "llama.cpp server", page.port),
                ServerKind("vllm", "vLLM", vllm.port),
            ],
            seconds=0.3,
        )
    assert [s.kind for s in scan.found] == ["vllm"]
    assert scan.absent == (
        f"Ollama (port {closed}): not running",
        f"LM Studio (port {hung}): no answer within 0.3 s",
        f"llama.cpp server (port {page.port}): answered /v1/models with something that is not JSON",
    )


async def test_a_server_without_a_model_listing_is_reported_with_its_status() -> None:
    with LocalModelServer("web", []) as server:
        scan = await find_local_servers([ServerKind("vllm", "vLLM", server.port)])
    assert scan == LocalServerScan((), (f"vLLM (port {server.port}): answered HTTP 404 to /v1/models",))


async def test_a_server_with_no_model_loaded_is_found_with_an_empty_list() -> None:
    with LocalModelServer("lmstudio", []) as server:
        scan = await find_local_servers([ServerKind("lmstudio", "LM Studio", server.port)])
    assert scan.found == (LocalServer("lmstudio", "LM Studio", f"http://127.0.0.1:{server.port}/v1", ()),)
