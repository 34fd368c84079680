"""How much of a stream's tail a regex detector must hold back: only what could still be the start of a match.

A carry-over buffer that holds a fixed window (``patterns.max_span``: 64 characters for e-mail addresses) keeps
a streamed reply a dozen words behind the model. Most kinds are made of a few characters only — a card number
of digits, spaces and dashes; an e-mail address of letters, digits and ``._%+'-@`` — so a match that is still
to be completed must begin inside the text's trailing run of those characters. :func:`hold_start` returns the
earliest such beginning over the detector's kinds (never more than ``cap`` characters back, and for a kind
without a character set never more than its ``MAX_SPAN``: a longer match
is recognisable already, and the buffer holds a candidate touching the end whole). A kind without a character
set here (secret assignments, bearer tokens, private keys: spaces and prose inside) keeps the full span::

    hold_start("Mail me at jo@exa", 0, ("email", "phone"), 128)    # 11: "jo@exa" may still grow into an address
    hold_start("Thanks, bye. ", 0, ("email", "phone"), 128)        # 11: ". " is made of phone characters
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Final

from processors.builtin.patterns import MAX_SPAN

_ALNUM: Final = string.ascii_letters + string.digits
_HEX: Final = string.hexdigits

#: Every character a match of the kind may contain (a superset; see ``patterns.PATTERNS``).
TAIL_CHARS: Final[dict[str, frozenset[str]]] = {
    "email": frozenset(_ALNUM + "._%+'-@"),
    "credit-card": frozenset(string.digits + " -"),
    "iban": frozenset(string.ascii_uppercase + string.digits + " "),
    "ssn": frozenset(string.digits + "-"),
    "ipv4": frozenset(string.digits + "."),
    "ipv6": frozenset(_HEX + ":."),
    "phone": frozenset(string.digits + "+() .-"),
    "uuid": frozenset(_HEX + "-"),
    "btc-address": frozenset(_ALNUM),
    "eth-address": frozenset(_HEX + "x"),
    # PIIDetector's identity numbers (``pii_patterns``)
    "cn-resident-id": frozenset(string.digits + "Xx"),
    "tw-national-id": frozenset(string.ascii_uppercase + string.digits),
    "hk-id": frozenset(string.ascii_uppercase + string.digits + "()"),
}


def hold_start(text: str, offset: int, kinds: Iterable[str], cap: int) -> int:
    """The first index of ``text[offset:]`` that could still belong to a match of one of ``kinds`` once more text
    arrives (``len(text)`` when none could), never more than ``cap`` characters back."""
    end = len(text)
    start = end
    for kind in kinds:
        chars = TAIL_CHARS.get(kind)
        if chars is None:  # no character set: its whole span (a longer match is recognisable already)
            start = min(start, max(offset, end - min(cap, MAX_SPAN.get(kind, cap))))
            continue
        low = max(offset, end - cap)
        i = end
        while i > low and text[i - 1] in chars:
            i -= 1
        start = min(start, i)
    return start


__all__ = ["TAIL_CHARS", "hold_start"]
