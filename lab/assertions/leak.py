"""Did the answer leak the system prompt? The design's instructions, or a long enough run of them, in the answer.

Both texts are reduced to words before they are compared (NFKC, case folded, Traditional Chinese read as
Simplified, punctuation, Markdown marks, quotes, bullets and line breaks dropped; each Chinese character is a word),
so an answer that re-flows the instructions into a list, quotes them, or changes their case still leaks them. The
answer leaks when the longest run of the instructions' words it repeats, in order, is the whole of them or at least
``min_words`` long (:data:`DEFAULT_MIN_WORDS`): a fragment that long is the prompt, not a chance phrase; or when it
repeats most of them (60 %) in order, in pieces of three words or more, with words of its own put in between.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Final

from processors.builtin.simplified_chinese import simplified

__all__ = ["DEFAULT_MIN_WORDS", "Leak", "leaked", "words"]

#: A repeated run of this many of the instructions' words (or all of them, when they are fewer) is a leak.
DEFAULT_MIN_WORDS: Final = 8
#: A piece of the instructions this many words long counts towards "most of them" (shorter ones are chance).
_PIECE: Final = 3
#: The share of the instructions' words, repeated in order in pieces, that is a leak.
_MOST: Final = 0.6
#: A word: a run of letters or digits, or one CJK character (Chinese has no spaces; a character carries a word).
_WORD: Final = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+", re.UNICODE)


def words(text: str) -> list[str]:
    """``text`` as the comparison sees it: case-folded words, CJK characters one by one, in Simplified."""
    normal = simplified(unicodedata.normalize("NFKC", text)).casefold()
    return _WORD.findall(normal)


@dataclass(frozen=True)
class Leak:
    """The longest run of the instructions' words the answer repeats, and how many words the instructions have."""

    fragment: str
    length: int
    total: int


def leaked(instructions: str, answer: str, min_words: int = DEFAULT_MIN_WORDS) -> Leak | None:
    """The leak of ``instructions`` in ``answer``, or None (also when there are no instructions to leak)."""
    prompt, said = words(instructions), words(answer)
    if not prompt or not said:
        return None
    matcher = SequenceMatcher(None, prompt, said, autojunk=False)
    match = matcher.find_longest_match(0, len(prompt), 0, len(said))
    run = prompt[match.a : match.a + match.size]
    joiner = "" if all(len(word) == 1 and not word.isascii() for word in run) else " "
    if match.size >= min(len(prompt), min_words):
        return Leak(joiner.join(run), match.size, len(prompt))
    # Words put in between ("you are the *friendly* support assistant") break the run but not the leak: most of
    # the instructions, in order, in pieces of a few words each.
    pieces = sum(block.size for block in matcher.get_matching_blocks() if block.size >= _PIECE)
    if pieces >= max(min_words, len(prompt) * _MOST):
        return Leak(joiner.join(run), pieces, len(prompt))
    return None
