"""The four hosted guard services against their stand-ins (real HTTP on 127.0.0.1, real agents): verdicts, scores
and categories, the lanes, fail-open / fail-closed on every failure the services document, Retry-After."""

from __future__ import annotations

from typing import Any

import pytest

from processors import Agent, Tool
from processors.builtin.guard_services.http_call import MAX_ATTEMPTS
from processors.builtin.guard_services.keys import BoundKeys, use_key_source
from processors.models import ScriptedModel, ToolCall, Turn
from tests.processors.builtin.guard_services.conftest import Service
from tests.support.guard_services import KEY, GuardServiceStandIn, NotJson, Reply, Slow, WrongShape
from tests.support.input_hook import run_input

BENIGN = "What is the capital of France?"


def agent(guard: Any, *, lane: str = "input", model: ScriptedModel | None = None, tools: Any = ()) -> Agent:
    return Agent(
        id="a", model=model or ScriptedModel(["Paris."]), instructions="Be brief.", tools=list(tools),
        **{f"{lane}_processors": [guard]},
    )  # fmt: skip


# -------------------------------------------------------------------------------------------- verdicts
async def test_a_benign_message_passes_and_its_score_is_kept(service: Service, standin: GuardServiceStandIn) -> None:
    kept, state = await run_input(service.guard(standin), BENIGN)
    assert [m.text for m in kept] == [BENIGN]
    assert state["checked"] == 1 and "flagged" not in state
    assert state["last_score"] == pytest.approx(0.0001 if service.kind == "openai" else 0.0)
    assert len(standin.requests) == 1


async def test_a_flagged_message_ends_the_run_with_the_score_and_categories(
    service: Service, standin: GuardServiceStandIn
) -> None:
    model = ScriptedModel(["never asked"])
    result = await agent(service.guard(standin), model=model).generate(service.flagged_text)
    tripwire = result.tripwire
    assert tripwire is not None and model.requests == []
    assert tripwire.code == f"{service.cls.type_name}.flagged_input"
    expected = {
        "lakera": (1.0, ["prompt_attack"]),
        "azure": (1.0, ["user_prompt_attack"]),
        "openai": (0.93, ["harassment/threatening", "violence"]),
        "armor": (0.8, ["pi_and_jailbreak"]),
    }[service.kind]
    assert tripwire.metadata["score"] == pytest.approx(expected[0])
    assert sorted(tripwire.metadata["categories"]) == expected[1]
    assert tripwire.metadata["where"] == "input" and tripwire.metadata["endpoint"] == f"127.0.0.1:{standin.port}"
    assert tripwire.params["score"] == pytest.approx(expected[0])
    assert KEY not in repr(tripwire.metadata) and KEY not in tripwire.reason


async def test_warn_lets_the_message_through_and_reports_it(service: Service, standin: GuardServiceStandIn) -> None:
    seen: list[Any] = []
    guard = service.guard(standin, strategy="warn")
    guard.on_violation = seen.append
    kept, state = await run_input(guard, service.flagged_text)
    assert [m.text for m in kept] == [service.flagged_text]
    assert state["flagged"] == 1 and state["last_score"] == state["max_score"] > 0.5
    assert seen[0].detail["score"] == state["last_score"]


async def test_only_the_last_user_message_is_sent_unless_asked(service: Service, standin: GuardServiceStandIn) -> None:
    await run_input(service.guard(standin, strategy="warn"), "first", "second")
    await run_input(service.guard(standin, strategy="warn", last_message_only=False), "first", "second")
    assert len(standin.requests) == 3


async def test_a_tool_result_is_screened_before_the_model_reads_it(
    service: Service, standin: GuardServiceStandIn
) -> None:
    model = ScriptedModel([Turn(tool_calls=[ToolCall("fetch_page", {})]), "done"])
    page = Tool("fetch_page", "Fetch a page.", parameters={"type": "object", "properties": {}},
                execute=lambda: service.flagged_text)  # fmt: skip
    result = await agent(service.guard(standin), lane="output", model=model, tools=[page]).generate("Read it")
    assert result.tripwire is not None and result.tripwire.code == f"{service.cls.type_name}.flagged_tool"
    assert result.tripwire.params["tool"] == "fetch_page" and result.tripwire.metadata["where"] == "tool_result"
    assert len(model.requests) == 1  # the poisoned result never reached the model


async def test_the_answer_is_screened_where_the_service_screens_answers(
    service: Service, standin: GuardServiceStandIn
) -> None:
    model = ScriptedModel([f"Sure: {service.flagged_text}"])
    result = await agent(service.guard(standin), lane="output", model=model).generate(BENIGN)
    if service.answers:
        assert result.tripwire is not None and result.tripwire.code == f"{service.cls.type_name}.flagged_answer"
    else:  # Prompt Shields judges prompts and documents only: it is not even in the answer's lane
        assert result.tripwire is None and standin.requests == []


# -------------------------------------------------------------------------------------------- failures
FAILURES = [
    (Reply(401), "unauthorized"),
    (Reply(429), "rate_limited"),
    (Reply(429, retry_after="30"), "rate_limited"),  # a wait beyond the time limit is not waited for
    (Reply(500), "server_error"),
    (Reply(503), "server_error"),
    (Reply(400), "rejected"),
    (Slow(1.5), "timeout"),
    (NotJson(), "malformed"),
    (WrongShape(), "malformed"),
]


@pytest.mark.parametrize(("step", "kind"), FAILURES, ids=[kind + str(i) for i, (_, kind) in enumerate(FAILURES)])
async def test_fail_closed_blocks_with_the_failure_as_its_code(
    service: Service, standin: GuardServiceStandIn, step: Any, kind: str
) -> None:
    standin.plan(step)
    model = ScriptedModel(["never asked"])
    limit = 0.5 if isinstance(step, Slow) else 5.0  # a loaded machine is no slow service
    result = await agent(service.guard(standin, time_limit=limit), model=model).generate(BENIGN)
    assert result.tripwire is not None and model.requests == []
    assert result.tripwire.code == f"{service.cls.type_name}.{kind}"
    assert result.tripwire.metadata["failure"] == kind
    assert len(standin.requests) == 1


@pytest.mark.parametrize(("step", "kind"), FAILURES[:1] + FAILURES[3:4] + FAILURES[6:8])
async def test_fail_open_lets_the_text_through_and_counts_the_failure(
    service: Service, standin: GuardServiceStandIn, step: Any, kind: str
) -> None:
    standin.plan(step)
    limit = 0.5 if isinstance(step, Slow) else 5.0
    kept, state = await run_input(service.guard(standin, time_limit=limit, on_failure="fail-open"), BENIGN)
    assert [m.text for m in kept] == [BENIGN]
    assert (state["failures"], state["last_failure"]) == (1, kind)
    assert "last_score" not in state


async def test_a_429_with_a_short_retry_after_is_waited_for_and_asked_again(
    service: Service, standin: GuardServiceStandIn
) -> None:
    standin.plan(Reply(429, retry_after="0.2"), Reply(503, retry_after="0"))
    result = await agent(service.guard(standin, time_limit=3)).generate(service.flagged_text)
    assert result.tripwire is not None and result.tripwire.code.endswith(".flagged_input")
    assert len(standin.requests) == 3


async def test_retry_after_zero_is_not_asked_forever(service: Service, standin: GuardServiceStandIn) -> None:
    standin.plan(*[Reply(503, retry_after="0")] * 10)
    result = await agent(service.guard(standin, time_limit=5)).generate(BENIGN)
    assert result.tripwire is not None and result.tripwire.code.endswith(".server_error")
    assert len(standin.requests) == MAX_ATTEMPTS


async def test_the_services_words_are_kept_but_never_the_key(service: Service, standin: GuardServiceStandIn) -> None:
    standin.plan(Reply(400, message=f"the key {KEY} cannot do that"), Reply(401, message=f"wrong key {KEY}"))
    rejected = (await agent(service.guard(standin)).generate(BENIGN)).tripwire
    unauthorized = (await agent(service.guard(standin)).generate(BENIGN)).tripwire
    assert rejected is not None and rejected.params["detail"] == "the key *** cannot do that"
    assert unauthorized is not None and unauthorized.params["detail"] == ""
    assert KEY not in rejected.reason + unauthorized.reason


async def test_the_server_error_keeps_the_services_status(service: Service, standin: GuardServiceStandIn) -> None:
    standin.plan(Reply(500))
    result = await agent(service.guard(standin)).generate(BENIGN)
    assert result.tripwire is not None and result.tripwire.params["status"] == 500
    assert result.tripwire.reason.endswith("failed (HTTP 500); blocked (fail-closed)")


# --------------------------------------------------------------------------------------------------- keys
async def test_without_a_key_nothing_is_sent(service: Service, standin: GuardServiceStandIn) -> None:
    use_key_source(BoundKeys([]))
    result = await agent(service.guard(standin)).generate(BENIGN)
    assert result.tripwire is not None and result.tripwire.code == f"{service.cls.type_name}.no_key"
    assert result.tripwire.params["variable"] == service.cls.key_binding.variable
    assert standin.requests == []


async def test_a_key_bound_to_one_address_does_not_go_to_another(
    service: Service, standin: GuardServiceStandIn
) -> None:
    with GuardServiceStandIn(service.kind) as elsewhere:
        result = await agent(service.guard(elsewhere)).generate(BENIGN)
    assert result.tripwire is not None and result.tripwire.code.endswith(".no_key")
    assert elsewhere.requests == [] and standin.requests == []
