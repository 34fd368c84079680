"""RegexFilter's matching: custom rules and preset kinds found in a text, overlaps merged, matches replaced.

::

    from processors.builtin.regex_rules import RegexMatcher, RegexRule

    rule = RegexRule(name="ticket", pattern=r"INC-(\\d{6})", replacement="INC-[$1]")
    matcher = RegexMatcher(kinds=("email",), rules=[(rule.name, rule.compile(), rule.replacement)])
    matcher.redact_text("INC-123456 from ann@example.com")   # "INC-[123456] from [EMAIL]"

Overlapping matches are merged into one region, replaced by the longest match's replacement, so no tail of a longer
secret survives; a rule's replacement may use JavaScript's references (``$1``, ``$<name>``, ``$&``, ``$$``), as
Mastra's users write them. A preset phone number written without its ``+`` country code right after a reference
word (``order no. 020 7946 0018``) is no match, as PIIDetector reads it (``pattern_validators.phone_in_context``).
This module works on one text: what to do with a message, a stream or a match (block,
redact, warn) is :class:`~processors.builtin.regex_filter.RegexFilter`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator

from processors.builtin.adjoining import replace_spans_mapped, with_adjoining
from processors.builtin.pattern_validators import phone_in_context
from processors.builtin.patterns import Match, find_all
from processors.builtin.sliding_scan import SlidingScan
from processors.problems import Problem, ProblemError, regex_problem
from processors.user_patterns import UserPattern, answer_within, check_user_pattern

DEFAULT_REPLACEMENT = "[REDACTED]"
#: JavaScript replacement references Mastra users write: ``$$``, ``$&``, ``$1``…``$99``, ``$<name>``.
_JS_REFERENCE = re.compile(r"\$(\$|&|\d{1,2}|<([^>]*)>)")
_FLAG_BITS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}


def preset_replacement(kind: str) -> str:
    """``"credit-card"`` → ``"[CREDIT_CARD]"``: what a preset match is replaced by."""
    return "[" + kind.upper().replace("-", "_") + "]"


class RegexRule(BaseModel):
    """One custom rule. ``pattern`` is a Python regular expression; it must compile, and a shape known to backtrack
    catastrophically is refused (:mod:`processors.user_patterns`)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100, description="Shown in tripwires, warnings and reports.")
    pattern: str = Field(min_length=1, max_length=10_000, description="A Python regular expression.")
    replacement: str = Field(
        default=DEFAULT_REPLACEMENT,
        max_length=1_000,
        description="What a match becomes when redacting; $1, $<name> and $& insert groups of the match.",
    )
    flags: str = Field(
        default="",
        max_length=7,
        pattern=r"^[gimsuxy]*$",
        description="Regex flags as letters: i (ignore case), m (multi-line), s (dot matches newline), x "
        "(verbose). JavaScript's g, u and y are accepted and ignored.",
    )

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as error:
            raise ProblemError(
                Problem(
                    "pattern:invalid",
                    "invalid regular expression {pattern!r}: {error}",
                    pattern=value,
                    error=regex_problem(error),
                )
            ) from None
        check_user_pattern(value)
        return value

    def compile(self) -> UserPattern:
        """The rule's pattern with its flags, searched under the user-pattern time limit."""
        bits = 0
        for letter in self.flags:
            bits |= _FLAG_BITS.get(letter, 0)
        try:
            re.compile(self.pattern, bits)
        except re.error as error:  # only reachable through the verbose flag changing how the pattern parses
            raise ProblemError(
                Problem(
                    "pattern:invalid_with_flags",
                    "invalid regular expression {pattern!r} with flags {flags!r}: {error}",
                    pattern=self.pattern,
                    flags=self.flags,
                    error=regex_problem(error),
                )
            ) from None
        if bits & re.VERBOSE:  # parsed differently: checked again as it will run
            check_user_pattern(self.pattern, bits)
        return UserPattern(self.name, self.pattern, bits)


class Hit(NamedTuple):
    """One match of a preset kind or a rule: where, whose, and what it becomes (``found``: a rule's match, whose
    groups its replacement's ``$1``, ``$<name>`` and ``$&`` insert)."""

    start: int
    end: int
    rule: str
    replacement: str
    found: Any


class Region:
    """Overlapping hits merged: the span they cover, the longest hit (``owner``), every rule in it when more
    than one hit was merged."""

    __slots__ = ("end", "owner", "rules", "start")

    def __init__(self, hit: Hit) -> None:
        self.start = hit.start
        self.end = hit.end
        self.owner = hit
        self.rules: list[str] | None = None

    def shifted(self, shift: int) -> Region:
        """This region ``shift`` characters further on (found in a replaced text, placed in the original)."""
        moved = Region(self.owner)
        moved.start, moved.end, moved.rules = self.start + shift, self.end + shift, self.rules
        return moved


class RegexMatcher:
    """Preset kinds and compiled rules, matched together in one text (see the module docstring)."""

    __slots__ = ("_include_values", "_kinds", "_preset_names", "_rules")

    def __init__(
        self,
        kinds: Sequence[str] = (),
        rules: Sequence[tuple[str, UserPattern, str]] = (),
        *,
        include_values: bool = False,
    ) -> None:
        self._kinds = tuple(kinds)
        self._preset_names = {kind: preset_replacement(kind) for kind in self._kinds}
        self._rules = list(rules)
        #: Whether each redaction record carries the text it replaced (``"value"``).
        self._include_values = include_values

    def rules_answer_within(self, text: str, seconds: float) -> bool:
        """Whether the custom rules search ``text`` within ``seconds`` of CPU time (the matches are kept for the
        :meth:`hits` that follows on the same text); True without rules."""
        return not self._rules or answer_within([pattern for _name, pattern, _r in self._rules], text, seconds)

    def sliding_scan(self) -> SlidingScan | None:
        """What a stream keeps between calls of :meth:`hits` over its moving window, so that each call scans only the
        text that can still change (None without presets: custom rules are searched whole)."""
        return SlidingScan(self._kinds) if self._kinds else None

    def hits(self, text: str, *, after: int = 0, scan: SlidingScan | None = None, start: int = 0) -> list[Hit]:
        """Every match of every preset kind and rule in ``text`` (overlapping ones too), empty matches left out.

        ``after``: only the matches starting there or later, their positions counted from there (the text before is
        left context a look-behind sees: the stream's already emitted text). ``scan``: the stream's
        :meth:`sliding_scan`, ``text`` being its text from ``start`` on (the same hits, less scanning)."""
        hits: list[Hit] = []
        if self._kinds:
            names = self._preset_names
            if scan is not None:
                first = start + after
                for found in scan.find(text, start, after):
                    if not _reference(found, text, found.start - start):
                        hits.append(Hit(found.start - first, found.end - first, found.kind, names[found.kind], None))
            else:
                for match in find_all(text, self._kinds, overlapping=True):
                    begin = match.start
                    if begin >= after and not _reference(match, text, begin):
                        hits.append(Hit(begin - after, match.end - after, match.kind, names[match.kind], None))
        for name, pattern, replacement in self._rules:
            for found in pattern.finditer(text):
                start, end = found.span()
                if end > start and start >= after:
                    hits.append(Hit(start - after, end - after, name, replacement, found))
        return hits

    @staticmethod
    def regions(hits: list[Hit]) -> list[Region]:
        """Overlapping hits merged into disjoint regions in text order; the longest hit owns a region."""
        if len(hits) < 2:  # the stream asks after every chunk, and a window mostly holds no match or one
            return [Region(hit) for hit in hits]
        regions: list[Region] = []
        for hit in sorted(hits, key=lambda h: (h.start, h.start - h.end)):
            current = regions[-1] if regions else None
            if current is not None and hit.start < current.end:
                current.end = max(current.end, hit.end)
                if current.rules is None:
                    current.rules = [current.owner.rule]
                current.rules.append(hit.rule)
                if hit.end - hit.start > current.owner.end - current.owner.start:
                    current.owner = hit
            else:
                regions.append(Region(hit))
        return regions

    def settled_regions(self, text: str) -> list[Region]:
        """The regions of ``text``'s hits and those their replacement uncovers: what the presets find in the text
        between the replacements, until nothing new shows (:mod:`~processors.builtin.adjoining`), so that
        redacting the redaction changes nothing. ``(02)2720-1234(02)2720-1234`` holds two phone numbers, but the
        second one's pattern sees the first one's last digit; once that is ``[PHONE]``, the second shows."""
        return self.adjoining(text, self.regions(self.hits(text)))

    def adjoining(self, text: str, regions: list[Region]) -> list[Region]:
        """``regions`` (of ``text``, disjoint, in text order) and the preset matches their replacement uncovers.
        Custom rules are not searched again: their patterns may read any distance around a match, so what their
        replacement uncovers cannot be told from the two characters around it."""
        if not regions or not self._kinds:
            return regions
        return with_adjoining(text, regions, self._preset_regions, self.replacement, moved=Region.shifted)

    def _preset_regions(self, text: str) -> list[Region]:
        """The presets' hits in ``text``, overlaps merged (what a second redaction of a redacted text replaces)."""
        names = self._preset_names
        hits = [
            Hit(match.start, match.end, match.kind, names[match.kind], None)
            for match in find_all(text, self._kinds, overlapping=True)
            if not _reference(match, text, match.start)
        ]
        return self.regions(hits)

    @staticmethod
    def replacement(region: Region) -> str:
        """What ``region`` becomes: its owner's replacement, with ``$1``-style references expanded from the owner's
        own match (also when shorter matches of other rules were merged into its region)."""
        owner = region.owner
        if owner.found is None or "$" not in owner.replacement:
            return owner.replacement
        return expand_js(owner.replacement, owner.found)

    def redact(self, text: str, regions: list[Region]) -> tuple[str, list[dict[str, Any]]]:
        """``text`` with each of ``regions`` replaced, and one report record per region."""
        if not regions:
            return text, []
        spans: list[tuple[int, int, str]] = []
        redactions: list[dict[str, Any]] = []
        for region in regions:
            replacement = self.replacement(region)
            spans.append((region.start, region.end, replacement))
            record: dict[str, Any] = {
                "rule": region.owner.rule,
                "index": region.start,
                "length": region.end - region.start,
                "replacement": replacement,
            }
            if region.rules is not None and len(set(region.rules)) > 1:
                record["overlappingRules"] = list(dict.fromkeys(region.rules))
            if self._include_values:
                record["value"] = text[region.start : region.end]
            redactions.append(record)
        return replace_spans_mapped(text, spans)[0], redactions

    def redact_text(self, text: str) -> str:
        """``text`` with every match replaced (what the redact strategy does to one text)."""
        return self.redact(text, self.settled_regions(text))[0]

    def find_matches(self, text: str) -> list[dict[str, Any]]:
        """Every match in ``text`` as ``{"rule", "match", "index"}``, in text order (overlaps included)."""
        return [
            {"rule": hit.rule, "match": text[hit.start : hit.end], "index": hit.start}
            for hit in sorted(self.hits(text), key=lambda h: (h.start, h.end))
        ]


def _reference(match: Match, text: str, at: int) -> bool:
    """Whether ``match``, at ``text[at]``, is a phone number's shape that is no phone number where it stands: after a
    reference word (``order no. 020 7946 0018``), or twelve digits continuing a run of groups, as PIIDetector reads it
    (:func:`~processors.builtin.pattern_validators.phone_in_context`)."""
    return match.kind == "phone" and not phone_in_context(text, at, match.value)


def expand_js(replacement: str, found: Any) -> str:
    """A JavaScript ``String.replace`` replacement string, expanded for one match (of ``re`` or ``regex``)."""

    def one(reference: re.Match[str]) -> str:
        token = reference.group(1)
        if token == "$":
            return "$"
        if token == "&":
            return str(found.group(0))
        if token.startswith("<"):
            name = reference.group(2)
            try:
                return found.group(name) or ""
            except IndexError:
                return reference.group(0)
        number = int(token)
        if 1 <= number <= (found.re.groups or 0):
            return found.group(number) or ""
        if len(token) == 2 and 1 <= int(token[0]) <= (found.re.groups or 0):  # "$12" with one group: "$1" + "2"
            return (found.group(int(token[0])) or "") + token[1]
        return reference.group(0)

    return _JS_REFERENCE.sub(one, replacement)


__all__ = ["DEFAULT_REPLACEMENT", "Hit", "RegexMatcher", "RegexRule", "Region", "expand_js", "preset_replacement"]
