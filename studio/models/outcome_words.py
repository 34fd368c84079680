"""The words of the inspector's badges: a processor call's outcome and how a run ended, in the studio's language.

The trace keeps the English words (``passed``, ``aborted``, ``tripwire`` …: stored, exported and compared as
data); only what a badge, a column or a details page shows is translated.
"""

from __future__ import annotations

from studio.texts.translator import QT_TRANSLATE_NOOP, translate

__all__ = ["OUTCOME_WORDS", "outcome_label"]

#: Every outcome and run status a badge shows, as written in the trace.
OUTCOME_WORDS: dict[str, str] = {
    "passed": QT_TRANSLATE_NOOP("Outcome", "passed"),
    "changed": QT_TRANSLATE_NOOP("Outcome", "changed"),
    "held": QT_TRANSLATE_NOOP("Outcome", "held"),
    "dropped": QT_TRANSLATE_NOOP("Outcome", "dropped"),
    "aborted": QT_TRANSLATE_NOOP("Outcome", "aborted"),
    "raised": QT_TRANSLATE_NOOP("Outcome", "raised"),
    "running": QT_TRANSLATE_NOOP("Outcome", "running"),
    "finished": QT_TRANSLATE_NOOP("Outcome", "finished"),
    "tripwire": QT_TRANSLATE_NOOP("Outcome", "tripwire"),
    "error": QT_TRANSLATE_NOOP("Outcome", "error"),
    "stopped": QT_TRANSLATE_NOOP("Outcome", "stopped"),
    "failed": QT_TRANSLATE_NOOP("Outcome", "failed"),
}


def outcome_label(outcome: str | None) -> str:
    """The badge text of ``outcome`` (an unknown word is shown as it is)."""
    if not outcome:
        return ""
    word = OUTCOME_WORDS.get(outcome)
    return translate("Outcome", word) if word else outcome
