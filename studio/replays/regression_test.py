"""From a finding to a regression test: a recorded run exported as a self-contained pytest file.

The file is the design's exported script (:func:`studio.design.export.design_to_python`: ``build_agent()`` with
``processors`` only, never ``studio``) followed by one test. The test swaps the agent's model for a
:class:`~processors.models.recording.ReplayModel` of the run's recording (embedded as base64: compressed JSON, never a
key) and its tools for the recorded results, puts the thread as it was before the run in an in-memory memory, sends
the run's message again and asserts the outcome the chain gives now: this tripwire from this processor, or this
final text. It runs offline with only ``processors`` (and pytest) installed, and fails when a later change to the
chain stops catching the attack — or starts blocking a benign run.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from studio.design.agent_design import AgentDesign, DesignError
from studio.design.export import design_to_python
from studio.replays.chain_replay import ReplayOutcome, ReplaySource
from studio.texts.translator import QT_TRANSLATE_NOOP

_TEST = '''

# ------------------------------------------------------------------------------------ the regression test
#: The run's recording: what the model streamed and the tools returned (``Recording.to_bytes()``, base64), before
#: any guardrail: it holds, unmasked, whatever the guardrails masked in the chat. It never holds an API key.
RECORDING = (
{recording}
)
#: The thread before the run (Mastra's message JSON), the run's message, and the outcome to keep.
HISTORY: list[dict[str, Any]] = json.loads({history})
MESSAGE = {message}
EXPECTED_TRIPWIRE: tuple[str, str] | None = {tripwire}
EXPECTED_TEXT = {text}


def replayed_agent() -> Agent:
    """``build_agent()`` answering from the recording: no model call, no network, the recorded tool results."""
    from processors.memory.base import InMemoryMemory
    from processors.messages import Message
    from processors.testing import Recording, ReplayModel, replay_tools

    recording = Recording.from_bytes(base64.b64decode("".join(RECORDING)))
    agent = build_agent()
    agent.model = ReplayModel(recording, on_divergence="raise")
    agent.tools = replay_tools(agent.tools, recording)
    memory = InMemoryMemory()
    memory.threads["replay"] = [Message.model_validate(item) for item in HISTORY]
    agent.memory = memory
    return agent


def test_the_recorded_run_keeps_its_outcome() -> None:
    result = asyncio.run(replayed_agent().generate(MESSAGE, thread_id="replay"))
    if EXPECTED_TRIPWIRE is not None:
        assert result.tripwire is not None, f"the chain no longer stops this run; it answered: {{result.text!r}}"
        assert (result.tripwire.processor_id, result.tripwire.reason) == EXPECTED_TRIPWIRE
    else:
        assert result.tripwire is None, f"the chain now stops this run: {{result.tripwire.reason!r}}"
        assert result.error is None, result.error
        assert result.text == EXPECTED_TEXT
'''

#: Characters of base64 per line of the embedded recording.
LINE = 100


def regression_test(
    design: AgentDesign, source: ReplaySource, expected: ReplayOutcome, *, catalogue: Any = None
) -> str:
    """The pytest file for ``source`` replayed through ``design``, asserting ``expected`` (that replay's outcome).

    Raises :class:`DesignError` when the design cannot be exported, or when the replay diverged (its outcome would
    not be the model's)."""
    if expected.divergences:
        raise DesignError.of(
            QT_TRANSLATE_NOOP(
                "DesignError",
                "The replay diverged at step {step}: its outcome is not what the model said, so it cannot be a "
                "regression test. Export a replay that did not diverge.",
            ),
            path="",
            step=expected.diverged_at,
        )
    script = design_to_python(design, catalogue=catalogue)
    encoded = base64.b64encode(source.recording).decode("ascii")
    lines = "\n".join(f"    {json.dumps(encoded[i : i + LINE])}" for i in range(0, len(encoded), LINE)) or '    ""'
    history = json.dumps([message.to_json() for message in source.history], ensure_ascii=True)
    test = _TEST.format(
        recording=lines,
        history=repr(history),
        message=repr(source.input_text),
        tripwire=repr(expected.tripwire),
        text=repr(expected.text),
    )
    frozen = (
        ": an agent exported from Processor Studio.\n\n"
        "A REGRESSION TEST with a frozen copy of the design as it was when exported: build_agent() below is that\n"
        "copy, so changes made to the design in the studio since do not reach this file. To test the design as it\n"
        "is now, replay the run in the studio and export it again (Export as regression test…), over this file.\n\n"
    )
    script = script.replace(": an agent exported from Processor Studio.\n\n", frozen, 1)
    header = "import base64\nimport json\n"
    text = script.replace(
        "from __future__ import annotations\n\n", "from __future__ import annotations\n\n" + header, 1
    )
    if "from typing import Any" not in text:
        text = text.replace(header, header + "from typing import Any\n", 1)
    result = text.rstrip("\n") + "\n" + test
    compile(result, "exported regression test", "exec", dont_inherit=True)
    return result


__all__ = ["regression_test"]
