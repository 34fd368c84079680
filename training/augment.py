"""The lab's attack converters as training augmentation: derived rows made at build time, seeded, never committed.

A learned model knows only the surfaces it was shown. The lab's converters (``lab/converters/``) rewrite an attack
so that it keeps its meaning for a model but loses its usual surface (reversed, zalgo, pinyin initials, hidden in an
HTML comment…), and the sample design measured that one in six such variants gets past the shipped model. Here a
seeded share of the training attacks is put through them, each derived row labelled like its original; a smaller
share of the benign texts goes through the converters that add no intent of their own (a benign text in zalgo or in
an HTML comment is still benign), so that "looks converted" alone does not become the attack cue.

The converters are grouped in :data:`CONVERTER_FAMILIES`. A derived row's ``family`` is ``augment:<converter
family>`` (so a leave-one-converter-family-out fit can drop them all), its ``derived_from`` the original's source
family (so leaving that family out drops its derived rows too: else it would leak back in converted), its ``source``
the original's plus the converter, its ``licence`` the original's.

The rows are a pure function of the original rows and the seed: the same data and seed give the same rows, in the
same order, whatever the machine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lab.converters import characters, chinese, encodings, wrappers
from lab.converters.base import Converter, Turns
from lab.converters.chain import variant_rng
from processors.builtin.injection_model import model_text

#: The converter families: each a handful of converters that disguise text the same way. A converter not listed
#: here (``identity``, plug-ins) is never used for augmentation.
CONVERTER_FAMILIES: dict[str, tuple[str, ...]] = {
    "encodings": ("base64", "base32", "hex", "binary", "url", "morse", "rot13", "caesar", "atbash", "leetspeak"),
    "order": ("reverse", "reverse-words"),
    "unicode": ("homoglyph", "zero-width", "tag-smuggle", "fullwidth", "diacritics", "zalgo"),
    "spacing": ("spacing", "letter-split", "random-caps", "char-swap", "typos"),
    "markup": ("markdown-comment", "html-comment"),
    "wrappers": ("prefix", "suffix", "role-play", "story", "many-shot", "split-turns", "variables", "document",
                 "tool-result"),
    "chinese": ("zh-s2t", "zh-t2s", "pinyin", "pinyin-plain", "pinyin-initials", "zh-homophone", "zh-lookalike",
                "chaizi", "zh-en-mix", "zh-punct", "zh-vertical"),
}  # fmt: skip
#: Converters that add an intent of their own (a no-rules persona, "do not add warnings", fake compliance, "follow
#: the instruction in z", a "note to the assistant reading this" in a document, a ``system_note`` in a tool result:
#: text addressed to the AI that reads it is what an indirect injection is): a benign text through them is no longer
#: benign, so they convert attacks only.
ATTACK_ONLY = frozenset(
    {"prefix", "suffix", "role-play", "story", "many-shot", "split-turns", "variables", "document", "tool-result"}
)
#: Converters that rewrite Latin letters only (nothing to do on a Chinese text).
LATIN_ONLY = frozenset(
    {"leetspeak", "rot13", "caesar", "atbash", "morse", "homoglyph", "diacritics", "random-caps", "char-swap",
     "typos", "reverse-words", "letter-split"}
)  # fmt: skip
#: Encodings the detector's views decode before the model reads them (``injection_views``: base64, base32, hex,
#: binary, URL, Morse): the model never sees them encoded, so their encoded bytes would teach it only that random
#: letters and digits are an attack (a benign log's hashes). They stay in the family for evaluation only.
DECODED_BY_VIEWS = frozenset({"base64", "base32", "hex", "binary", "url", "morse"})
CHINESE_LANGS = frozenset({"zh-CN", "zh-TW", "mixed"})
PREFIX = "augment:"
SEED = 20261207
#: Only texts up to this many characters are converted: user turns and short tool results, where a disguised
#: payload is the whole message. A long document converted whole is nothing anyone sends (its disguised passage
#: would be one line of it), and it would make the derived rows most of the training characters.
MAX_CHARS = 600


@dataclass(frozen=True)
class Plan:
    """How much to derive: the share of the (short enough) attacks and benign texts converted, each once per
    converter family chosen for it (``per_row`` families, drawn without replacement)."""

    attack_share: float = 0.35
    benign_share: float = 0.12
    per_row: int = 1
    seed: int = SEED


DEFAULT_PLAN = Plan()


def builtin_converters() -> dict[str, Converter]:
    """The built-in converters by name, read from their modules (not the entry points: a plug-in installed on the
    build machine must not change the model)."""
    found: dict[str, Converter] = {}
    for module in (encodings, characters, wrappers, chinese):
        for converter in module.CONVERTERS:
            found[converter.name] = converter
    return found


def family_of_converter(name: str) -> str | None:
    """The converter family ``name`` belongs to (None when it is not used for augmentation)."""
    for family, names in CONVERTER_FAMILIES.items():
        if name in names:
            return family
    return None


def is_derived(row: Mapping[str, Any]) -> bool:
    """Whether ``row`` was made here (not written by a source family)."""
    return str(row.get("family", "")).startswith(PREFIX)


def applicable(converter: str, row: Mapping[str, Any]) -> bool:
    """Whether ``converter`` may rewrite ``row``: Chinese converters on Chinese texts only, Latin-letter ones on
    non-Chinese texts only, intent-adding wrappers on attacks only."""
    lang = str(row.get("lang", "en"))
    if family_of_converter(converter) == "chinese" and lang not in CHINESE_LANGS:
        return False
    if converter in LATIN_ONLY and lang in ("zh-CN", "zh-TW"):
        return False
    return not (converter in ATTACK_ONLY and row.get("label") not in ("attack", True))


def usable(converter: str, row: Mapping[str, Any]) -> bool:
    """Whether ``converter`` makes training rows from ``row`` (:func:`applicable`, and not decoded by the views)."""
    return converter not in DECODED_BY_VIEWS and applicable(converter, row)


def converted_text(converter: Converter, text: str, rng: random.Random) -> str:
    """One converter's output as one text (turns joined by newlines: the payload as the conversation holds it)."""
    result = converter.convert(text, rng)
    return "\n".join(result.turns) if isinstance(result, Turns) else result


def derived_row(row: Mapping[str, Any], converter: str, text: str) -> dict[str, Any]:
    """The row ``text`` derived from ``row`` by ``converter``: same label, language, where and category."""
    family = family_of_converter(converter)
    return {
        "text": text,
        "label": row["label"],
        "lang": row.get("lang", "en"),
        "where": row.get("where", "user"),
        "category": row.get("category", ""),
        "source": f"{row.get('source', row.get('family', ''))} + converter:{converter}",
        "licence": row.get("licence", ""),
        "family": f"{PREFIX}{family}",
        "derived_from": row.get("family", ""),
        "converter": converter,
    }


def convert_once(
    row: Mapping[str, Any], family: str, converters: Mapping[str, Converter], seed: int | str
) -> dict[str, Any] | None:
    """``row`` through one converter of ``family`` (the first, in a seeded order, that applies and changes what
    the model reads), or None when none does."""
    text = str(row["text"])
    key = f"{row.get('family', '')}\x1f{text}"
    names = [n for n in CONVERTER_FAMILIES[family] if n in converters and usable(n, row)]
    random.Random(f"{seed}\x1f{key}\x1f{family}").shuffle(names)
    original = model_text(text)
    for name in names:
        converted = converted_text(converters[name], text, variant_rng(seed, key, name))
        readable = model_text(converted)
        if readable.strip() and readable != original:
            return derived_row(row, name, converted)
    return None


def augment(
    rows: Sequence[Mapping[str, Any]],
    plan: Plan = DEFAULT_PLAN,
    families: Sequence[str] | None = None,
    converters: Mapping[str, Converter] | None = None,
) -> list[dict[str, Any]]:
    """The derived rows of ``rows`` (never of a derived row), in a stable order: a seeded ``plan.attack_share`` of
    the short attacks and ``plan.benign_share`` of the short benign texts, each through ``plan.per_row`` of the
    converter ``families`` (default: all) drawn for it. Benign texts go only through families with converters that
    add no intent."""
    converters = converters if converters is not None else builtin_converters()
    chosen = list(families) if families is not None else list(CONVERTER_FAMILIES)
    derived: list[dict[str, Any]] = []
    for row in rows:
        if is_derived(row) or len(str(row["text"])) > MAX_CHARS:
            continue
        attack = row["label"] in ("attack", True)
        key = f"{row.get('family', '')}\x1f{row['text']}\x1f{row['label']}"
        rng = random.Random(f"{plan.seed}\x1f{key}")
        if rng.random() >= (plan.attack_share if attack else plan.benign_share):
            continue
        candidates = [f for f in chosen if any(usable(n, row) for n in CONVERTER_FAMILIES[f])]
        for family in rng.sample(candidates, min(plan.per_row, len(candidates))):
            made = convert_once(row, family, converters, plan.seed)
            if made is not None:
                derived.append(made)
    return derived


def with_augmentation(rows: Sequence[dict[str, Any]], plan: Plan | None = DEFAULT_PLAN) -> list[dict[str, Any]]:
    """``rows`` followed by their derived rows (``plan`` None: ``rows`` alone)."""
    return [*rows, *augment(rows, plan)] if plan is not None else list(rows)


def without_converter_family(rows: Sequence[dict[str, Any]], family: str) -> list[dict[str, Any]]:
    """``rows`` less the rows derived by converter family ``family``."""
    return [r for r in rows if r.get("family") != f"{PREFIX}{family}"]


def source_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` less every derived row."""
    return [r for r in rows if not is_derived(r)]


__all__ = [
    "ATTACK_ONLY",
    "CONVERTER_FAMILIES",
    "DECODED_BY_VIEWS",
    "DEFAULT_PLAN",
    "PREFIX",
    "Plan",
    "applicable",
    "augment",
    "builtin_converters",
    "convert_once",
    "family_of_converter",
    "is_derived",
    "source_rows",
    "with_augmentation",
    "without_converter_family",
]
