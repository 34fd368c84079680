"""A processor type's texts in the studio's language, looked up by the stable keys its class declares.

``processors/`` carries English only (it imports no Qt). A processor class is all a guard needs for its texts to be
translated: its ``name``, ``description``, the ``title`` and ``description`` of each ``Options`` field and the
sentences of its ``texts`` (tripwire reasons, its own checks of its options) are each looked up under the context
``processor:<TypeName>`` with the English as the source text and a key as the disambiguation:

====================================  ==========================================
``<TypeName>.name``                   the palette's name
``<TypeName>.description``            the palette's and the form's description
``<TypeName>.options.<field>``        an option's label
``<TypeName>.options.<field>.help``   an option's help
``<TypeName>.<key>``                  ``texts[key]``; also the tripwire's code
====================================  ==========================================

A model provider's ``label`` (``processors.models.providers``) is looked up the same way, under the context
``provider:<name>`` with the key ``<name>.label`` (:func:`provider_label`): a provider plug-in ships it in its own
``.qm`` beside its catalogue's.

The checks an ``Options`` model makes of itself are its own ``texts``, under ``processor:<OptionsClass>`` with the
key ``<OptionsClass>.<key>`` (the code ``InvalidOptionsError.codes`` carries), so a shared options part (the
judges' ``JudgeOptions``) is translated once.

``scripts/translations update`` extracts them with :func:`class_texts` for every built-in; a plug-in ships its own
``.qm`` with the same contexts and keys (the recipe in ``docs/ARCHITECTURE.md``), or shows its English.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from studio.texts.translator import translate

__all__ = [
    "class_texts",
    "context_of",
    "description_of",
    "name_of",
    "option_help",
    "option_label",
    "owner_name",
    "processor_text",
    "provider_label",
    "provider_texts",
    "text_of",
]


def owner_name(cls: Any) -> str:
    """The name a class's keys start with: its ``type_name`` (a built-in's), else its class name."""
    return getattr(cls, "type_name", "") or getattr(cls, "__name__", "") or ""


def context_of(owner: str) -> str:
    """The translation context of one processor class's texts."""
    return f"processor:{owner}"


def processor_text(owner: str, key: str, english: str) -> str:
    """``english`` (the text of ``<owner>.<key>``) in the studio's language; unchanged when not translated."""
    if not english:
        return english
    return translate(context_of(owner), english, f"{owner}.{key}")


def _record_owner(record: Any) -> str:
    cls = getattr(record, "cls", None)
    return owner_name(cls) if cls is not None else str(getattr(record, "type_name", "") or "")


def name_of(record: Any) -> str:
    """A catalogue record's name as the palette shows it."""
    english = str(getattr(record, "name", None) or getattr(record, "type_name", "") or "")
    return processor_text(_record_owner(record), "name", english)


def description_of(record: Any) -> str:
    """A catalogue record's description as the palette and the options form show it."""
    return processor_text(_record_owner(record), "description", getattr(record, "description", "") or "")


def option_label(record: Any, field: str, english: str) -> str:
    """The label of option ``field`` of a catalogue record."""
    return processor_text(_record_owner(record), f"options.{field}", english)


def option_help(record: Any, field: str, english: str) -> str:
    """The help of option ``field`` of a catalogue record."""
    return processor_text(_record_owner(record), f"options.{field}.help", english)


def provider_label(provider: Any) -> str:
    """A provider's label (``"OpenAI"``, a plug-in's ``"Toy"``) in the studio's language; as registered when no
    catalogue translates it."""
    name = str(getattr(provider, "name", "") or "")
    label = str(getattr(provider, "label", "") or name)
    return translate(f"provider:{name}", label, f"{name}.label") if label else label


def provider_texts(provider: Any) -> Iterator[tuple[str, str, str]]:
    """``(context, English, key)`` of a provider's texts (its label): what ``scripts/translations`` extracts."""
    name = str(getattr(provider, "name", "") or "")
    yield f"provider:{name}", str(getattr(provider, "label", "") or name), f"{name}.label"


def text_of(cls: Any, key: str) -> str | None:
    """Sentence ``key`` of a class's ``texts`` in the studio's language (None when the class has no such key)."""
    english = (getattr(cls, "texts", None) or {}).get(key)
    return processor_text(owner_name(cls), key, english) if isinstance(english, str) else None


def class_texts(
    cls: Any, name: str, description: str, fields: Iterable[tuple[str, str, str]]
) -> Iterator[tuple[str, str, str]]:
    """``(context, English, key)`` of every text of a processor class — its name, description, each option's
    ``(field, label, help)`` as the form shows them, its ``texts`` — : what ``scripts/translations`` extracts."""
    owner = owner_name(cls)
    context = context_of(owner)
    yield context, name, f"{owner}.name"
    yield context, description, f"{owner}.description"
    for field, label, help_text in fields:
        yield context, label, f"{owner}.options.{field}"
        yield context, help_text, f"{owner}.options.{field}.help"
    for key, english in (getattr(cls, "texts", None) or {}).items():
        yield context, english, f"{owner}.{key}"
    for part in getattr(getattr(cls, "Options", None), "__mro__", ()):  # its options' own checks, by their class
        for key, english in (vars(part).get("texts") or {}).items():
            yield context_of(part.__name__), english, f"{part.__name__}.{key}"
