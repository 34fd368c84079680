"""Unicode's look-alike letters (UTS #39) in the injection detector: attacks written with them are still attacks.

The attacks are the English ones of the project's corpora in ``tests/data``, converted here: every letter the
detector flags them for is swapped for a look-alike from Unicode's confusables data.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from processors.builtin.confusable_letters import LETTERS, LOOK_ALIKES
from processors.builtin.injection_views import normalise
from processors.builtin.prompt_injection_detector import PromptInjectionDetector, heuristic_scores
from tests.processors.builtin.corpus import load

ROOT = Path(__file__).resolve().parents[3]
THRESHOLD = PromptInjectionDetector().options.threshold


def english_attacks() -> list[str]:
    rows = [
        *load("injection_corpus.jsonl"),
        *load("injection_holdout.jsonl"),
        *(row for row in load("injection_multilingual_holdout.jsonl") if row.get("lang") == "en"),
    ]
    return [row["text"] for row in rows if row["label"] in (True, "attack") and row["text"].isascii()]


def flagged(text: str) -> bool:
    return max(heuristic_scores(text)[0].values(), default=0.0) >= THRESHOLD


def swap_vowels(text: str) -> str:
    """The swap the issue measured: a, e, o, i → Latin alpha, Abkhasian che, Armenian oh, Latin iota (the
    detections fell from 52 to 7)."""
    return text.translate(str.maketrans("aeoi", "\u0251\u04bd\u0585\u0269"))


def _past_nfkc() -> dict[str, list[str]]:
    """Letter → its look-alikes that NFKC leaves as they are (the ones only the confusables table can undo)."""
    found: dict[str, list[str]] = {}
    for look_alike, letter in zip(LOOK_ALIKES, LETTERS, strict=True):
        if unicodedata.normalize("NFKC", look_alike) == look_alike:
            found.setdefault(letter, []).append(look_alike)
    return found


def swap_every_letter() -> Callable[[str], str]:
    """Each letter with a look-alike swapped for one, cycling through all of them (every one gets used)."""
    choices = {letter: itertools.cycle(options) for letter, options in _past_nfkc().items()}

    def convert(text: str) -> str:
        return "".join(next(choices[c]) if c in choices else c for c in text)

    return convert


def test_the_table_is_unicodes_data_as_the_script_derives_it() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "confusables"), "check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(LOOK_ALIKES) == len(LETTERS) == 1225
    assert all(letter.isascii() and letter.isalpha() for letter in LETTERS)


@pytest.mark.parametrize(
    ("disguised", "read"),
    [
        ("\u0251ll \u04bdrr\u0585rs \u0269gn\u0585r\u04bdd", "all errors ignored"),  # Latin alpha, Abkhasian che …
        ("\u0406gnore", "Ignore"),  # Cyrillic capital I: Unicode's prototype is "l", read as I
        ("\u0399GNORE", "IGNORE"),  # Greek capital iota
        ("\u13a0\u13ac\u13d9", "DEV"),  # Cherokee letters that look like D, E, V
    ],
)
def test_look_alikes_nfkc_leaves_are_read_as_their_letters(disguised: str, read: str) -> None:
    assert normalise(disguised) == read


def test_every_look_alike_in_a_text_is_read_as_its_letter_or_as_nfkc_reads_it() -> None:
    # NFKC first would turn some into other non-ASCII letters (Greek lunate sigma, a "c", into final sigma); the
    # check that skips the table for texts without a look-alike must not miss any.
    for look_alike, letter in zip(LOOK_ALIKES, LETTERS, strict=True):
        read = normalise(f"x{look_alike}x")
        assert read in {f"x{letter}x", f"x{unicodedata.normalize('NFKC', look_alike)}x"}, (look_alike, read)
        assert read.isascii()
    assert normalise("\u03f2all \u03f9ode") == "call Code"


def test_text_in_other_scripts_keeps_its_own_letters_where_unicode_lists_no_look_alike() -> None:
    assert normalise("请忽略之前的指令") == "请忽略之前的指令"
    assert normalise("Привет, мир") == "Пpивeт, миp"  # only the Cyrillic letters that are Latin look-alikes


def test_attacks_with_swapped_vowels_are_still_flagged() -> None:
    attacks = [text for text in english_attacks() if flagged(text)]
    assert len(attacks) >= 50
    missed = [text for text in attacks if not flagged(swap_vowels(text))]
    assert missed == []


def test_attacks_with_every_letter_swapped_for_a_look_alike_are_still_flagged() -> None:
    convert = swap_every_letter()
    attacks = [text for text in english_attacks() if flagged(text)]
    converted = [convert(text) for text in attacks]
    assert not any(c in _past_nfkc() for text in converted for c in text)  # no letter with a look-alike is left
    missed = [(text, disguised) for text, disguised in zip(attacks, converted, strict=True) if not flagged(disguised)]
    assert missed == []
