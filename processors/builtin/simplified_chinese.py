"""Traditional Chinese read as Simplified (OpenCC's ``t2s``), so that a matcher keeps one spelling of each word.

The injection detector's Chinese signals were written twice, 忽视|忽視, 数据库|資料庫, and 29 words had been kept in
one script only (數據庫, 服務器, 密鑰, 調用 …): an attack converted to the other script lost its detections. Now the
text is converted to Simplified before it is matched and each word is written once, in Simplified. OpenCC converts
by phrases as well as characters (``回覆`` → ``回复``, while ``覆`` alone stays), works offline from the dictionaries
in its wheel, and leaves everything but Chinese characters as it is.
"""

from __future__ import annotations

import functools
import logging
import re
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import opencc

logger = logging.getLogger(__name__)
#: Any CJK ideograph (the unified blocks, extension A and the compatibility block): text without one is not converted.
_HAN: Final = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
#: A lone surrogate (text decoded with ``surrogateescape``, a JSON ``"\\ud800"``): OpenCC takes UTF-8 only.
_SURROGATE: Final = re.compile("([\ud800-\udfff])")


@functools.cache
def _t2s() -> opencc.OpenCC | None:
    # Imported on first Chinese text: the modules that convert are imported by every command (`lab --help` too).
    import opencc

    try:
        return opencc.OpenCC("t2s")
    except Exception:  # its dictionaries missing from a bundle: match the text as written rather than fail
        logger.warning(
            "OpenCC's t2s conversion could not be loaded; Traditional Chinese is matched as written", exc_info=True
        )
        return None


def simplified(text: str) -> str:
    """``text`` with its Traditional Chinese written in Simplified characters (OpenCC ``t2s``); other text as is."""
    if text.isascii() or not _HAN.search(text):
        return text
    try:
        return _convert(text)
    except UnicodeEncodeError:  # lone surrogates: convert the text between them
        return "".join(piece if _SURROGATE.fullmatch(piece) else _convert(piece) for piece in _SURROGATE.split(text))


def _convert(text: str) -> str:
    converter = _t2s()
    if converter is None:
        return text
    converted: str = converter.convert(text)
    return converted


__all__ = ["simplified"]
