"""The processors' option values as a reader sees them: translated labels over wire values that never change.

A combo box or check box shows :func:`value_label` of a value; the design keeps the wire value (``"block"``), so a
design saved in a Chinese studio opens unchanged in an English one. The values are the choices a processor's
``Options`` schema offers (a ``Literal``): ``scripts/translations`` extracts every built-in's into the context
``OptionValue``, so a new guard's values need no list here; a value no catalogue translates is shown as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from studio.i18n import translate
from studio.views.option_specs import field_specs

__all__ = ["offered_values", "value_label"]


def offered_values(kinds: Iterable[Any]) -> set[str]:
    """Every text value the options of ``kinds`` (catalogue records) offer as a choice: what is shown translated."""
    return {
        choice
        for kind in kinds
        for spec in field_specs(getattr(kind, "options_schema", {}) or {})
        for choice in spec.choices
        if isinstance(choice, str)
    }


def value_label(value: Any) -> str:
    """An option value as the form shows it: translated when a catalogue has it, else as it is."""
    return translate("OptionValue", value) if isinstance(value, str) else str(value)
