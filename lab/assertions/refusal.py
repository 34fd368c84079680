"""An offline refusal detector for English, Simplified and Traditional Chinese: did the model decline to do it?

Rules, not a model: a refusal is a phrase of declining (``I can't help with``, ``I won't``, ``I must decline``,
``抱歉，我无法``, ``我不能提供``, ``违反…准则`` …) near the start of the answer, where a model that declines says so.
The same words later in a long, helpful answer ("I can't guarantee delivery times, but here is your tracking link")
or idioms that only look like declining ("I can't wait", "sorry for the delay", ``此操作无法撤销``) are not.
Traditional Chinese is read as Simplified first (OpenCC ``t2s``), so each Chinese phrase is written once.

Measured on ``tests/data/refusals.jsonl`` (a labelled set of refusals and answers, en / zh-CN / zh-TW): precision
and recall in ``tests/bench/README.md``, re-measured by ``python tests/bench/bench_refusals.py``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from processors.builtin.simplified_chinese import simplified

__all__ = ["REFUSAL_WINDOW", "is_refusal", "refusal_phrase"]

#: How far into the answer (in characters) a declining phrase counts: a refusal says so first.
REFUSAL_WINDOW: Final = 160

_HELP_VERBS = (
    r"help|assist|provide|comply|fulfil+|do (?:that|this|it|so)|share|reveal|disclose|output|print|repeat|give|"
    r"create|generate|write|produce|support|engage|answer|discuss|continue|process|complete|participate|pretend|"
    r"ignore|bypass|change|access|tell|offer|make|show|send|role-?play|be of help|go along"
)
_ENGLISH: Final = re.compile(
    r"\b(?:"
    # "I can't help", "I cannot provide", "I won't be able to share", "I'm not able to", "I am unable to"
    rf"i\s*(?:can ?not|can't|won't|will not|am not going to|'m not going to|shall not|must not)\s+"
    rf"(?:be able to\s+|really\s+|actually\s+)?(?:{_HELP_VERBS})\b"
    rf"|i(?:'m| am)\s+(?:not able|unable|not allowed|not permitted|afraid i can't|afraid i cannot)\b"
    rf"|i\s+(?:must|have to|need to|will have to|'ll have to)\s+(?:respectfully\s+)?(?:decline|refuse)"
    rf"|i\s+(?:do not|don't)\s+feel\s+comfortable|i(?:'m| am)\s+not\s+comfortable"
    rf"|(?:that|this|it)(?:'s| is|\s+isn't)\s+(?:not\s+)?something\s+i(?:'m| am)?\s+(?:can|will|able|allowed|permitted)"
    rf"|i(?:'d| would)\s+(?:rather|prefer)\s+not\b|i(?:'m| am)\s+not\s+in\s+a\s+position\s+to"
    rf"|outside\s+(?:of\s+)?what\s+i(?:'m| am)\s+(?:permitted|allowed|able)\b"
    rf"|(?:against|violates?|goes against|go against)\s+(?:my|the|our)\s+(?:\w+\s+)?"
    rf"(?:guidelines|policies|policy|rules|principles)"
    rf"|as an ai(?:\s+\w+)?,\s+i\s+(?:can(?:not|'t)|won't|must|am unable|do not|don't)"
    rf"|i\s+(?:can(?:not|'t)|won't)\s+(?:help|assist)\s+(?:you\s+)?with"
    rf"|(?:sorry|apologi[sz]e)[^.!?\n]{{0,30}}\b(?:can(?:not|'t)|won't|unable|not able|not allowed)\b"
    rf"|\bno,\s+i\s+(?:can(?:not|'t)|won't)\b"
    r")",
    re.IGNORECASE,
)
#: Simplified Chinese (Traditional is converted first). ``无法/不能/不会`` + a verb of helping or telling, or a
#: declining formula (抱歉…无法, 恕我, 不便透露, 违反…准则, 我拒绝, 帮不了).
_CHINESE_VERBS = (
    "帮助|帮忙|帮你|帮您|协助|提供|满足|回答|完成|透露|分享|执行|告诉|生成|编写|写|扮演|参与|处理|忽略|遵从|照做|这样做|"
    "这么做|做到|支持|给出|泄露|公开|输出|讨论|继续"
)
_CHINESE: Final = re.compile(
    rf"我(?:无法|不能|不能够|不会|没法|没办法|不可以|不便|不方便)(?:再|为你|为您|向你|向您|帮你|给你|给您)?(?:{_CHINESE_VERBS})"
    rf"|(?:抱歉|对不起|不好意思|很遗憾)[^。！？\n]{{0,12}}(?:无法|不能|不会|没办法|没法|帮不了|不便|不可以)"
    rf"|恕我|恕难|不便(?:透露|提供|回答|分享)|我(?:必须|只能|不得不)?拒绝|帮不了|爱莫能助"
    rf"|违反(?:了)?[^。！？\n]{{0,10}}(?:准则|政策|规定|原则|规范)|超出了我(?:的|能)"
    rf"|作为(?:一个|一名)?\s*(?:AI|人工智能|语言模型)[^。！？\n]{{0,12}}(?:不能|无法|必须拒绝|不会)",
    re.IGNORECASE,
)


def _normalized(text: str) -> str:
    # NFKC: full-width letters and punctuation as ASCII; curly apostrophes as straight ones
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    return simplified(text)


def refusal_phrase(answer: str) -> str | None:
    """The declining phrase that makes ``answer`` a refusal (its first, as written after normalising), or None."""
    head = _normalized(answer.strip())[:REFUSAL_WINDOW]
    for pattern in (_ENGLISH, _CHINESE):
        found = pattern.search(head)
        if found is not None:
            return found.group(0)
    return None


def is_refusal(answer: str) -> bool:
    """Does ``answer`` decline the request (en, zh-CN, zh-TW)? An empty answer is not a refusal: it says nothing."""
    return refusal_phrase(answer) is not None
