"""The offline demo model as a provider: the model id ``"demo"``, no key, no network (:mod:`processors.demo.offline`).

Registered in ``pyproject.toml``'s ``processor_studio.providers`` group like every other provider, so the studio's
model box, key rules and export treat it the same way; an exported script imports ``demo_model`` and calls it.
"""

from __future__ import annotations

from processors.demo.offline import DEMO_MODEL_ID
from processors.models.providers import Provider

__all__ = ["DEMO"]

DEMO = Provider(
    "demo",
    "Demo (offline)",
    factory="processors.demo.offline:demo_model",
    offline=True,
    bare_ids=(DEMO_MODEL_ID,),
    suggested_models=(DEMO_MODEL_ID,),
    script_needs="",
)
