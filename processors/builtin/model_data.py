"""Offline model data for the built-ins: litellm's bundled price map and tokenizers, read without importing litellm.

Only ``processors/models/litellm.py`` may import litellm (importing it is slow and has side effects), but two
built-ins need data litellm ships: ``CostGuard`` prices usage with ``model_prices_and_context_window_backup.json``
and ``TokenLimiter`` counts tokens with the tokenizers bundled in ``litellm_core_utils/tokenizers`` (tiktoken
encodings for OpenAI models, DeepSeek's Hugging Face ``tokenizer.json`` read with ``tokenizers``).
:func:`litellm_dir` finds the installed package with ``importlib.util.find_spec``, which locates a package
without executing it, and the files are read from there::

    price = model_price("openai/gpt-4o-mini")      # ModelPrice(input=1.5e-07, output=6e-07, cached_input=7.5e-08)
    cost_of(Usage(input_tokens=1000, output_tokens=200), price)
    count_tokens("Hello world", "gpt-4o")          # 2: tiktoken's o200k_base
    count_tokens("你好，世界", "deepseek/deepseek-chat")  # DeepSeek's own tokenizer
    count_tokens("Hello world", "llama3")          # an estimate (no tokenizer known offline)

Nothing here touches the network: tiktoken is only asked for an encoding whose file is already on disk.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import logging
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from processors.usage import Usage

logger = logging.getLogger(__name__)

PRICE_FILE = "model_prices_and_context_window_backup.json"
TOKENIZER_DIR = "litellm_core_utils/tokenizers"
#: The models litellm's ``token_counter`` counts with its bundled ``deepseek_tokenizer.json`` (the same rule as
#: ``litellm.utils._DEEPSEEK_TOKENIZER_MODEL``), and that file.
_DEEPSEEK_MODEL = re.compile(
    r"deepseek[-_.](?:chat[-_.])?v[34]|(?:^|/)deepseek-(?:chat|reasoner|flash)(?::free)?$", re.IGNORECASE
)
DEEPSEEK_TOKENIZER = "deepseek_tokenizer.json"
#: tiktoken encodings and the URL tiktoken caches each one under (its cache file name is the URL's SHA-1).
_ENCODING_URLS = {
    name: f"https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
    for name in ("o200k_base", "cl100k_base", "p50k_base", "r50k_base")
}


@functools.cache
def litellm_dir() -> Path | None:
    """The installed litellm package directory, found without importing litellm; None if not installed."""
    try:
        spec = importlib.util.find_spec("litellm")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


# --------------------------------------------------------------------------------------------- prices
@dataclass(frozen=True, slots=True)
class ModelPrice:
    """USD per token. ``cached_input`` is the price of a cache-read input token (defaults to ``input``)."""

    input: float
    output: float
    cached_input: float | None = None
    reasoning: float | None = None


@functools.cache
def price_map() -> dict[str, Any]:
    """litellm's bundled price map (model name → prices and limits); empty when litellm is not installed."""
    folder = litellm_dir()
    if folder is None or not (folder / PRICE_FILE).is_file():
        logger.warning("litellm's price map was not found; costs are 0 unless prices are given explicitly")
        return {}
    with (folder / PRICE_FILE).open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    data.pop("sample_spec", None)
    return data


def _lookup(model_id: str) -> dict[str, Any] | None:
    """The price-map entry: the exact id, else the name after the last ``/`` (``openrouter/openai/gpt-4o``)."""
    prices = price_map()
    entry = prices.get(model_id)
    if entry is None and "/" in model_id:
        entry = prices.get(model_id.split("/", 1)[1]) or prices.get(model_id.rsplit("/", 1)[1])
    return entry if isinstance(entry, dict) else None


@functools.lru_cache(maxsize=512)
def model_price(model_id: str) -> ModelPrice | None:
    """Per-token prices of ``model_id`` (``"gpt-4o-mini"`` or litellm's ``"provider/model"``), None if unknown."""
    entry = _lookup(model_id)
    if entry is None:
        return None
    input_cost = entry.get("input_cost_per_token")
    output_cost = entry.get("output_cost_per_token")
    if not isinstance(input_cost, int | float) or not isinstance(output_cost, int | float):
        return None
    cached = entry.get("cache_read_input_token_cost")
    reasoning = entry.get("output_cost_per_reasoning_token")
    return ModelPrice(
        input=float(input_cost),
        output=float(output_cost),
        cached_input=float(cached) if isinstance(cached, int | float) else None,
        reasoning=float(reasoning) if isinstance(reasoning, int | float) else None,
    )


def cost_of(usage: Usage, price: ModelPrice) -> float:
    """USD for one call's usage: cached input tokens at the cache price, the rest at the input/output prices."""
    cached = usage.cached_input_tokens or 0
    fresh = max(usage.input_tokens - cached, 0)
    cached_price = price.cached_input if price.cached_input is not None else price.input
    return fresh * price.input + cached * cached_price + usage.output_tokens * price.output


# --------------------------------------------------------------------------------------------- tokens
class Encoding(Protocol):
    def encode(self, text: str, *, disallowed_special: Any = ...) -> list[int]: ...

    def decode_bytes(self, tokens: list[int]) -> bytes: ...


def _bare_model(model_id: str) -> str:
    return model_id.rsplit("/", 1)[-1]


@functools.lru_cache(maxsize=128)
def encoding_for(model_id: str | None) -> Encoding | None:
    """The tiktoken encoding of an OpenAI model, if tiktoken is installed and the encoding is on disk."""
    if not model_id:
        return None
    try:
        import tiktoken
        import tiktoken.model
    except ImportError:
        return None
    try:
        name = tiktoken.model.encoding_name_for_model(_bare_model(model_id))
    except KeyError:
        return None
    url = _ENCODING_URLS.get(name)
    if url is None:
        return None
    if "TIKTOKEN_CACHE_DIR" not in os.environ:
        folder = litellm_dir()
        if folder is None:
            return None
        # What litellm itself does on import: point tiktoken at the encodings litellm ships.
        os.environ["TIKTOKEN_CACHE_DIR"] = str(folder / TOKENIZER_DIR)
    cache_file = Path(os.environ["TIKTOKEN_CACHE_DIR"]) / hashlib.sha1(url.encode()).hexdigest()
    if not cache_file.is_file():
        return None  # tiktoken would download it: estimate instead
    try:
        encoding: Encoding = tiktoken.get_encoding(name)
    except Exception:  # a corrupt cache file, a tiktoken change: estimating is the safe fallback
        logger.warning("tiktoken could not load %s; token counts are estimated", name, exc_info=True)
        return None
    return encoding


_SEGMENTS = re.compile(
    r"\s+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|\d+|[^\W\d_]+|[^\s]",
)


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate in the spirit of ``tokenx``: words of ~6 letters a token, 3 digits a token,
    one token per CJK character and per punctuation mark; whitespace is free."""
    if not text:
        return 0
    total = 0
    for segment in _SEGMENTS.findall(text):
        first = segment[0]
        if first.isspace():
            continue
        if first.isdigit():
            total += math.ceil(len(segment) / 3)
        elif first.isalpha() and len(segment) > 1:
            total += math.ceil(len(segment) / 6)
        else:
            total += 1
    return total


class _HuggingFaceTokenizer(Protocol):
    """What is used of ``tokenizers.Tokenizer``."""

    def encode(self, sequence: str, *, add_special_tokens: bool = ...) -> Any: ...


@functools.lru_cache(maxsize=8)
def _huggingface_tokenizer(path: Path) -> _HuggingFaceTokenizer | None:
    try:
        import tokenizers
    except ImportError:
        return None
    try:
        loaded: _HuggingFaceTokenizer = tokenizers.Tokenizer.from_file(str(path))
    except Exception:  # a corrupt or newer file: estimating is the safe fallback
        logger.warning("could not load the tokenizer %s; token counts are estimated", path, exc_info=True)
        return None
    return loaded


def huggingface_tokenizer_for(model_id: str | None) -> _HuggingFaceTokenizer | None:
    """The Hugging Face tokenizer litellm ships for ``model_id`` (DeepSeek's), if ``tokenizers`` can read it.

    An estimate counts one token per CJK character, where DeepSeek's vocabulary has most common two-character
    words as one token: the estimate was 29 to 47 % high on Chinese text.
    """
    if not model_id or not _DEEPSEEK_MODEL.search(model_id):
        return None
    folder = litellm_dir()
    if folder is None or not (folder / TOKENIZER_DIR / DEEPSEEK_TOKENIZER).is_file():
        return None
    return _huggingface_tokenizer(folder / TOKENIZER_DIR / DEEPSEEK_TOKENIZER)


def count_tokens(text: str, model_id: str | None = None) -> int:
    """Real tokens when the model's tokenizer is there offline (OpenAI models via tiktoken, DeepSeek via
    ``tokenizers``), else an estimate."""
    if not text:
        return 0
    huggingface = huggingface_tokenizer_for(model_id)
    if huggingface is not None:
        return len(huggingface.encode(_without_surrogates(text), add_special_tokens=False).ids)
    encoding = encoding_for(model_id)
    if encoding is None:
        return estimate_tokens(text)
    return len(encoding.encode(text, disallowed_special=()))


def truncate_to_tokens(text: str, limit: int, model_id: str | None = None) -> str:
    """The longest prefix of ``text`` that has at most ``limit`` tokens, cut between two characters.

    A token of a byte-level tokenizer can hold part of a character (an emoji, a CJK character, an accented letter
    are several bytes): decoding the first ``limit`` tokens would end in U+FFFD. The cut goes back to the start
    of the character the last kept token splits, and the prefix is counted again (a prefix can tokenize
    differently from the tokens it was cut from).
    """
    if limit <= 0:
        return ""
    huggingface = huggingface_tokenizer_for(model_id)
    if huggingface is not None:
        offsets = huggingface.encode(_without_surrogates(text), add_special_tokens=False).offsets
        if len(offsets) <= limit:
            return text
        # The first token left out starts where the kept ones end; one sharing a character with the last kept
        # token starts at that character, which goes too.
        return _counted_back(text, offsets[limit][0], limit, model_id)
    encoding = encoding_for(model_id)
    if encoding is not None:
        tokens = encoding.encode(text, disallowed_special=())
        if len(tokens) <= limit:
            return text
        return _counted_back(text, _characters_in(text, len(encoding.decode_bytes(tokens[:limit]))), limit, model_id)
    if estimate_tokens(text) <= limit:
        return text
    low, high = 0, len(text)  # binary search on the estimate: it grows with the prefix length
    while low < high:
        middle = (low + high + 1) // 2
        if estimate_tokens(text[:middle]) <= limit:
            low = middle
        else:
            high = middle - 1
    return text[:low]


_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate as U+FFFD (what tiktoken does; ``tokenizers`` refuses them): one character
    for one, so offsets hold in ``text``."""
    return text if text.isascii() or not _SURROGATE.search(text) else _SURROGATE.sub("\ufffd", text)


def _characters_in(text: str, size: int) -> int:
    """How many whole characters of ``text`` its first ``size`` UTF-8 bytes hold (a lone surrogate counts three
    bytes, as the U+FFFD tiktoken encodes it as)."""
    encoded = text.encode("utf-8", "surrogatepass")[:size]
    while encoded:
        try:
            return len(encoded.decode("utf-8", "surrogatepass"))
        except UnicodeDecodeError:  # the last character is cut: go back to its first byte
            encoded = encoded[:-1]
    return 0


def _counted_back(text: str, end: int, limit: int, model_id: str | None) -> str:
    """``text[:end]``, shortened a character at a time while it counts more than ``limit`` tokens (rare: a
    tokenizer may merge the prefix's last characters differently from how it split the whole text)."""
    while end > 0 and count_tokens(text[:end], model_id) > limit:
        end -= 1
    return text[:end]
