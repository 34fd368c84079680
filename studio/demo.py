"""The offline demo model and tools, under the name the studio has always used.

They live in :mod:`processors.demo.offline` so that a script exported from a demo design needs only the
``processors`` package; this module re-exports them for the studio (the sample agent, building, the tests).
"""

from __future__ import annotations

from processors.demo.offline import (
    DEMO_MODEL_ID,
    DEMO_TOOLS,
    FEEDBACK_PREFIX,
    WORD_DELAY,
    calculator,
    current_time,
    demo_model,
    demo_reply,
    get_weather,
    lookup_customer,
)

__all__ = [
    "DEMO_MODEL_ID",
    "DEMO_TOOLS",
    "FEEDBACK_PREFIX",
    "WORD_DELAY",
    "calculator",
    "current_time",
    "demo_model",
    "demo_reply",
    "get_weather",
    "lookup_customer",
]
