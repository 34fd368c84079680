"""Regular expressions a user wrote (RegexFilter rules, SystemPromptScrubber's custom patterns, StreamErrorRetry's
matchers), run so that a hostile or unlucky one cannot hang a run or the window.

::

    from processors.user_patterns import UserPattern, check_user_pattern

    check_user_pattern(r"(\\w+\\s?)+$")        # ValueError: ... can backtrack catastrophically ...
    ticket = UserPattern("ticket", r"INC-(\\d{6})")
    [m.group(1) for m in ticket.finditer("INC-123456")]   # ["123456"]

A design, a corpus or a shared chain is data from someone else, and one pattern such as ``(\\w+\\s?)+$`` made a
27-character message take 9 s in :mod:`re` (each extra character doubling it). So user patterns are compiled with
the ``regex`` module (the same syntax, ``V0``), which bounds each search with ``timeout=`` (CPU seconds) and releases
the GIL while it matches (``concurrent=True``), so a guard that runs its patterns on a worker thread leaves the
studio's loop free; a search that answers within :data:`INLINE_BUDGET` (nearly all of them, on a stream's
window) stays on the loop, so the thread hop is paid only by slow ones. A search past
:data:`USER_PATTERN_TIMEOUT` raises :class:`~processors.errors.PatternTimeoutError` naming the rule, which ends
the run: a guard that could not finish its check must not let the text through unchecked. Patterns whose shape is
known to backtrack catastrophically are refused when the options are validated, that is when a design is opened
(:mod:`processors.pattern_risk`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any, Final

import regex

from processors.errors import PatternTimeoutError
from processors.pattern_risk import backtracking_risk
from processors.problems import Problem, ProblemError, regex_problem

#: CPU seconds one search of one user pattern over one text may take.
USER_PATTERN_TIMEOUT: Final = 1.0
#: CPU seconds users' patterns may search on the loop's thread (about a frame) before the search moves to a worker.
INLINE_BUDGET: Final = 0.005

#: :mod:`re` flag bits → the ``regex`` module's (the letters a RegexFilter rule takes).
_FLAGS: Final = {
    re.IGNORECASE: regex.IGNORECASE,
    re.MULTILINE: regex.MULTILINE,
    re.DOTALL: regex.DOTALL,
    re.VERBOSE: regex.VERBOSE,
}


def _regex_flags(flags: int) -> int:
    bits = int(regex.V0)
    for re_bit, regex_bit in _FLAGS.items():
        if flags & re_bit:
            bits |= int(regex_bit)
    return bits


def check_user_pattern(source: str, flags: int = 0) -> None:
    """Raise ValueError when ``source`` does not compile (``invalid regular expression '…': …``) or has a shape
    known to backtrack catastrophically (``the regular expression '…' can backtrack catastrophically: …``);
    ``flags`` are :mod:`re` flag bits."""
    try:
        regex.compile(source, _regex_flags(flags))
    except (regex.error, OverflowError, RecursionError) as error:
        raise ProblemError(
            Problem(
                "pattern:invalid",
                "invalid regular expression {pattern!r}: {error}",
                pattern=source,
                error=regex_problem(error),
            )
        ) from None
    risk = backtracking_risk(source, flags)
    if risk is not None:
        raise ProblemError(
            Problem(
                "pattern:backtracks",
                "the regular expression {pattern!r} can backtrack catastrophically: {risk}",
                pattern=source,
                risk=risk,
            )
        )


class UserPattern:
    """A user's pattern, compiled with ``regex``; every search is bounded by ``timeout`` CPU seconds."""

    __slots__ = ("_compiled", "_last", "name", "source", "timeout")

    def __init__(self, name: str, source: str, flags: int = 0, *, timeout: float = USER_PATTERN_TIMEOUT) -> None:
        self.name = name
        self.source = source
        self.timeout = timeout
        self._compiled: Any = regex.compile(source, _regex_flags(flags))
        #: The last text searched and its matches: a probe (:meth:`answers_within`) and the search after it share it.
        self._last: tuple[str, list[Any]] | None = None

    @property
    def groups(self) -> int:
        return int(self._compiled.groups)

    def finditer(self, text: str) -> Iterator[Any]:
        """Every match in ``text`` (``regex`` match objects: ``span()``, ``group()``, ``re.groups``).

        Raises :class:`PatternTimeoutError` when the search runs past the limit; the matches are all found first,
        so a caller never acts on part of them.
        """
        last = self._last
        if last is not None and last[0] == text:
            return iter(last[1])
        try:
            found = list(self._compiled.finditer(text, timeout=self.timeout, concurrent=True))
        except TimeoutError:
            raise PatternTimeoutError(self.name, self.timeout, len(text)) from None
        self._last = (text, found)
        return iter(found)

    def answers_within(self, text: str, seconds: float) -> bool:
        """Whether every match in ``text`` is found within ``seconds`` (then kept for the :meth:`finditer` that
        follows on the same text): a caller on the loop searches there when it is quick, else on a worker thread."""
        last = self._last
        if last is not None and last[0] == text:
            return True
        try:
            found = list(self._compiled.finditer(text, timeout=max(seconds, 1e-4), concurrent=True))
        except TimeoutError:
            return False
        self._last = (text, found)
        return True

    def search(self, text: str) -> Any:
        """The first match in ``text`` or None; raises :class:`PatternTimeoutError` past the limit."""
        try:
            return self._compiled.search(text, timeout=self.timeout, concurrent=True)
        except TimeoutError:
            raise PatternTimeoutError(self.name, self.timeout, len(text)) from None


def answer_within(patterns: list[UserPattern], text: str, seconds: float) -> bool:
    """Whether all ``patterns`` search ``text`` within ``seconds`` of this thread's CPU time together."""
    deadline = time.thread_time() + seconds
    return all(pattern.answers_within(text, deadline - time.thread_time()) for pattern in patterns)


__all__ = ["INLINE_BUDGET", "USER_PATTERN_TIMEOUT", "UserPattern", "answer_within", "check_user_pattern"]
