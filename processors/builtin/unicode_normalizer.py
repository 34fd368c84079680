"""``UnicodeNormalizer``: NFKC-normalise user input, optionally strip invisible control characters, tidy whitespace.

Homoglyph and "fancy text" tricks (full-width letters, ligatures, mathematical alphanumerics) become plain
characters before any other guardrail looks at the text, so a ``RegexFilter`` or a detector sees what a human
reads::

    from processors import Agent
    from processors.builtin.unicode_normalizer import UnicodeNormalizer

    agent = Agent(id="a", model="openai/gpt-4o-mini",
                  input_processors=[UnicodeNormalizer(strip_control_chars=True)])
    # full-width "\\uff29\\uff47\\uff4e\\uff4f\\uff52\\uff45" + a zero-width space + "  previous   instructions"
    # reaches the model as "Ignore previous instructions"

Mastra's ``UnicodeNormalizer`` (id ``unicode-normalizer``): NFKC; with ``strip_control_chars`` the control and
invisible format characters go (tab, line feed and carriage return stay; with ``preserve_emojis`` the zero-width
joiner, variation selectors and tag characters that emoji sequences are built from stay too); CRLF/CR become
LF, runs of line feeds collapse to one and runs of spaces/tabs to one space; the text is trimmed. Each text part
and the message's legacy ``content`` string are normalised on their own, as Mastra does (the string is not
rebuilt from the parts, so a string that differs from its parts keeps its own wording). It never fails a run: if
normalising a message raises, the message goes on unchanged.

``preserve_cjk_punctuation`` (ours, off by default as in Mastra) keeps the full-width punctuation Chinese and
Japanese are written with (``，：；！？（）``, ``……``): NFKC turns it into ASCII, so every Chinese sentence a user
sends would reach the model rewritten and show as "modified" in the inspector and the Lab. Full-width *letters and
digits* (the homoglyph trick of the example above) are still folded.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from typing import Any, ClassVar

from pydantic import Field

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.messages import Message, TextPart
from processors.pipeline.processor import ProcessInputArgs

logger = logging.getLogger(__name__)

#: C0/C1 controls except tab, line feed and carriage return.
_CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
#: Invisible format characters used to hide or reorder text: zero-width space/non-joiner, word joiner, bidi
#: embeddings, overrides and isolates, the BOM, invisible math operators, interlinear annotation marks.
_FORMAT = r"\u00ad\u061c\u180e\u200b\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
#: What emoji sequences are made of: zero-width joiner, variation selectors, tag characters.
_EMOJI_GLUE = r"\u200d\ufe00-\ufe0f\U000e0020-\U000e007f"

_STRIP_KEEP_EMOJI = re.compile(f"[{_CONTROL}{_FORMAT}]")
_STRIP_ALL = re.compile(f"[{_CONTROL}{_FORMAT}{_EMOJI_GLUE}]")
_NEWLINES = re.compile(r"\r\n?")
_LINE_RUNS = re.compile(r"\n+")
_SPACE_RUNS = re.compile(r"[ \t]+")
#: Full-width punctuation and symbols (the FF00 block's non-alphanumerics) and the ellipses CJK text uses.
_CJK_PUNCTUATION = re.compile(r"([\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60\u2025\u2026]+)")


class UnicodeNormalizerOptions(ProcessorOptions):
    strip_control_chars: bool = Field(
        default=False,
        description="Remove control and invisible format characters (tab, line feed and carriage return stay).",
    )
    preserve_emojis: bool = Field(
        default=True,
        description="When stripping, keep the zero-width joiners and variation selectors emoji sequences need.",
    )
    collapse_whitespace: bool = Field(
        default=True,
        description="Turn CRLF/CR into LF, collapse runs of line feeds to one and runs of spaces/tabs to one space.",
    )
    trim: bool = Field(default=True, description="Remove leading and trailing whitespace.")
    preserve_cjk_punctuation: bool = Field(
        default=False,
        title="Preserve CJK Punctuation",
        description="Keep full-width punctuation (，：！？（）……) as written; full-width letters and digits are still "
        "folded.",
    )


class UnicodeNormalizer(BuiltinProcessor):
    """Normalise the text of every input message (NFKC, controls, whitespace). Never fails the run."""

    Options: ClassVar[type[ProcessorOptions]] = UnicodeNormalizerOptions
    type_name: ClassVar[str] = "UnicodeNormalizer"
    id = "unicode-normalizer"
    name = "Unicode Normalizer"
    description = "NFKC-normalises input text, optionally strips invisible control characters, tidies whitespace."

    options: UnicodeNormalizerOptions

    def normalize(self, text: str) -> str:
        """The normalised form of one text (what ``process_input`` applies to every text part)."""
        options = self.options
        if options.preserve_cjk_punctuation:
            pieces = _CJK_PUNCTUATION.split(text)  # odd indexes: the punctuation runs, kept
            text = "".join(
                piece if index % 2 else unicodedata.normalize("NFKC", piece) for index, piece in enumerate(pieces)
            )
        else:
            text = unicodedata.normalize("NFKC", text)
        if options.strip_control_chars:
            text = (_STRIP_KEEP_EMOJI if options.preserve_emojis else _STRIP_ALL).sub("", text)
        if options.collapse_whitespace:
            text = _NEWLINES.sub("\n", text)
            text = _LINE_RUNS.sub("\n", text)
            text = _SPACE_RUNS.sub(" ", text)
        if options.trim:
            text = text.strip()
        return text

    def normalize_message(self, message: Message) -> Message:
        """``message`` with each text part and its ``content`` string normalised apart.

        Returns the same object when nothing changed, else a copy (the original is left as it was).
        """
        changed = False
        parts: list[Any] = []
        for part in message.content.parts:
            if isinstance(part, TextPart):
                text = self.normalize(part.text)
                if text != part.text:
                    part = part.model_copy(update={"text": text})
                    changed = True
            parts.append(part)
        flattened = message.content.content
        if isinstance(flattened, str):
            flattened = self.normalize(flattened)
            changed = changed or flattened != message.content.content
        if not changed:
            return message
        content = message.content.model_copy(update={"parts": parts, "content": flattened})
        return message.model_copy(update={"content": content})

    def process_input(self, args: ProcessInputArgs) -> list[Message]:
        result: list[Message] = []
        for message in args.messages:
            try:
                result.append(self.normalize_message(message))
            except Exception:  # Mastra's rule: a normaliser must never break the run
                logger.warning(
                    "UnicodeNormalizer could not normalise message %s; kept as is", message.id, exc_info=True
                )
                result.append(message)
        return result
