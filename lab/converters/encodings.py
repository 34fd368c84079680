"""Encodings: the payload written in a code a model can read back (base64, hex, ROT13, Morse …).

Every one is deterministic and reversible; UTF-8 is the byte encoding wherever bytes are involved, so Chinese
payloads survive the round trip. Morse has no code for most characters: those pass through unchanged (between
``/`` word separators), which keeps it reversible for the text it can encode.
"""

from __future__ import annotations

import base64 as _base64
import codecs
import string
import urllib.parse

from lab.converters.base import FunctionConverter, fixed


def _b64(text: str) -> str:
    return _base64.b64encode(text.encode("utf-8")).decode("ascii")


def _unb64(text: str) -> str:
    return _base64.b64decode(text.encode("ascii"), validate=True).decode("utf-8")


def _b32(text: str) -> str:
    return _base64.b32encode(text.encode("utf-8")).decode("ascii")


def _unb32(text: str) -> str:
    return _base64.b32decode(text.encode("ascii")).decode("utf-8")


def _hex(text: str) -> str:
    return text.encode("utf-8").hex()


def _unhex(text: str) -> str:
    return bytes.fromhex(text).decode("utf-8")


def _rot13(text: str) -> str:
    return codecs.encode(text, "rot13")


def _shift(text: str, by: int) -> str:
    lower, upper = string.ascii_lowercase, string.ascii_uppercase
    table = str.maketrans(lower + upper, lower[by:] + lower[:by] + upper[by:] + upper[:by])
    return text.translate(table)


#: The classic Caesar shift (a → d).
CAESAR_SHIFT = 3

_ATBASH = str.maketrans(
    string.ascii_lowercase + string.ascii_uppercase,
    string.ascii_lowercase[::-1] + string.ascii_uppercase[::-1],
)

_MORSE = {
    "a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.", "h": "....", "i": "..",
    "j": ".---", "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.", "q": "--.-", "r": ".-.",
    "s": "...", "t": "-", "u": "..-", "v": "...-", "w": ".--", "x": "-..-", "y": "-.--", "z": "--..",
    "0": "-----", "1": ".----", "2": "..---", "3": "...--", "4": "....-", "5": ".....", "6": "-....",
    "7": "--...", "8": "---..", "9": "----.", ".": ".-.-.-", ",": "--..--", "?": "..--..", "'": ".----.",
    "!": "-.-.--", "/": "-..-.", "(": "-.--.", ")": "-.--.-", "&": ".-...", ":": "---...", ";": "-.-.-.",
    "=": "-...-", "+": ".-.-.", "-": "-....-", "_": "..--.-", '"': ".-..-.", "$": "...-..-", "@": ".--.-.",
}  # fmt: skip
_UNMORSE = {code: char for char, code in _MORSE.items()}


def _morse(text: str) -> str:
    """Letters as Morse codes separated by spaces, words by `` / ``; other characters as themselves."""
    words = text.lower().split(" ")
    return " / ".join(" ".join(_MORSE.get(char, char) for char in word) for word in words)


def _unmorse(text: str) -> str:
    return " ".join("".join(_UNMORSE.get(code, code) for code in word.split(" ") if code) for word in text.split(" / "))


def _binary(text: str) -> str:
    return " ".join(f"{byte:08b}" for byte in text.encode("utf-8"))


def _unbinary(text: str) -> str:
    return bytes(int(group, 2) for group in text.split()).decode("utf-8")


def _url(text: str) -> str:
    """Every character percent-encoded (not only the unsafe ones), so the words themselves disappear."""
    return "".join(f"%{byte:02X}" for byte in text.encode("utf-8"))


CONVERTERS = (
    FunctionConverter("base64", "The text as Base64 (UTF-8 bytes).", fixed(_b64), _unb64),
    FunctionConverter("base32", "The text as Base32 (UTF-8 bytes).", fixed(_b32), _unb32),
    FunctionConverter("hex", "The text's UTF-8 bytes as lower-case hexadecimal.", fixed(_hex), _unhex),
    FunctionConverter("rot13", "Latin letters rotated by 13 (ROT13; applying it twice gives the text back).",
                      fixed(_rot13), _rot13),
    FunctionConverter("caesar", f"Latin letters shifted by {CAESAR_SHIFT} (Caesar cipher: a becomes d).",
                      fixed(lambda text: _shift(text, CAESAR_SHIFT)), lambda text: _shift(text, -CAESAR_SHIFT)),
    FunctionConverter("atbash", "Latin letters mirrored (Atbash: a becomes z, b becomes y).",
                      fixed(lambda text: text.translate(_ATBASH)), lambda text: text.translate(_ATBASH)),
    FunctionConverter("morse", "Letters and digits in Morse code, words separated by '/' (reads back in lower case).",
                      fixed(_morse), _unmorse),
    FunctionConverter("binary", "The text's UTF-8 bytes as 8-digit binary numbers.", fixed(_binary), _unbinary),
    FunctionConverter("url", "Every byte percent-encoded (%49%67…), as in a URL.", fixed(_url), urllib.parse.unquote),
)  # fmt: skip
