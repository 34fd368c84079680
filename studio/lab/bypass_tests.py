"""Found bypasses as a regression test: a pytest file that fails until the design stops every one of them.

Like a run's regression test (:mod:`studio.replays.regression_test`), the file is the design's exported script
(:func:`studio.design.export.design_to_python`: ``build_agent()``, ``processors`` only) with a frozen copy of the
design, followed by a test — here one test per bypass (``pytest.mark.parametrize``), each sending the variant as the
lab's ``guardrails`` mode did: the design's model replaced by the lab's fixed reply, a planted tool result returned
by the lab's tool. Each asserts that a processor stops the variant, so the file fails while the design lets any of
them through and passes once the design is fixed (re-export it after changing the design: the copy is frozen).
It runs offline with only ``processors`` and pytest installed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from lab.case_run import DEFAULT_REPLY, LAB_TOOL
from lab.corpus import Case
from studio.design.agent_design import AgentDesign
from studio.design.export import design_to_python

_TEST = '''

# ------------------------------------------------------------------------------------ the found bypasses
#: Variants a lab attack found getting through this design (``processor-studio lab attack --regression-test``):
#: each names the attack it varies (``attack_seed``) and the converters that made it (``attack_chain``).
BYPASSES: list[dict[str, Any]] = json.loads({cases})
#: The lab's fixed reply, and its tool returning a case's planted tool result (its ``guardrails`` mode).
REPLY = {reply}
LAB_TOOL = {tool}


def guarded_agent(case: dict[str, Any]) -> Agent:
    """``build_agent()`` answering with the lab's fixed reply (no model call), after fetching the case's tool result."""
    from processors import Tool
    from processors.testing import ScriptedModel, ToolCall, Turn

    agent = build_agent()
    reply = case.get("reply") or REPLY
    planted = case.get("tool_result")
    if planted is None:
        agent.model = ScriptedModel([reply], model_id="lab-fixed-reply", repeat=True)
        return agent
    agent.tools = {{
        **agent.tools,
        LAB_TOOL: Tool(
            LAB_TOOL,
            "Fetch the content the user refers to.",
            parameters={{"type": "object", "properties": {{}}}},
            execute=lambda: planted,
        ),
    }}
    agent.model = ScriptedModel([Turn(tool_calls=[ToolCall(LAB_TOOL, {{}})]), reply], model_id="lab-fixed-reply")
    return agent


@pytest.mark.parametrize("case", BYPASSES, ids=[case["id"] for case in BYPASSES])
def test_the_design_stops_the_found_bypass(case: dict[str, Any]) -> None:
    messages = [*case.get("turns", []), {{"role": "user", "content": case["text"]}}]
    result = asyncio.run(guarded_agent(case).generate(messages))
    assert result.tripwire is not None, (
        f"the design still lets this variant of {{case.get('attack_seed')}} ({{case.get('attack_chain')}}) "
        f"through; it answered: {{result.text!r}}"
    )
'''


def bypass_regression_test(design: AgentDesign, cases: Iterable[Case], *, catalogue: Any = None) -> str:
    """The pytest file asserting that ``design`` stops every case of ``cases`` (found bypasses: module docstring).

    Raises :class:`studio.design.agent_design.DesignError` when the design cannot be exported."""
    records = [case.to_dict() for case in cases]
    script = design_to_python(design, catalogue=catalogue)
    frozen = (
        ": an agent exported from Processor Studio.\n\n"
        "A REGRESSION TEST of found bypasses, with a frozen copy of the design as it was when exported: build_agent()\n"
        "below is that copy, so changes made to the design since do not reach this file. Run `pytest` on it after\n"
        "exporting the changed design again (processor-studio lab attack ... --regression-test), over this file.\n\n"
    )
    script = script.replace(": an agent exported from Processor Studio.\n\n", frozen, 1)
    header = "import json\nfrom typing import Any\n\nimport pytest\n"
    future = "from __future__ import annotations\n\n"
    text = script.replace(future, future + header, 1)
    test = _TEST.format(
        cases=repr(json.dumps(records, ensure_ascii=True)), reply=repr(DEFAULT_REPLY), tool=repr(LAB_TOOL)
    )
    result = text.rstrip("\n") + "\n" + test
    compile(result, "exported bypass regression test", "exec", dont_inherit=True)
    return result


__all__ = ["bypass_regression_test"]
