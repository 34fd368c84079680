"""Reports of a lab run: JSON (the issue's shape, and what ``lab merge`` reads back), JUnit XML, self-contained HTML.

JSON::

    {"design": {...}, "mode": "guardrails",
     "cases": [{"id", "text", "label", "category", "lang", "outcome", "tripped": [ids], "reason", "latency_ms",
                "expect", "hits", "input_tokens", "output_tokens", "cost", "error", "attempts"}],
     "summary": {"precision", "recall", "fpr", "by_category": {...}, "by_processor": {...}, ...}}

The HTML report has no script and loads nothing: tables and inline SVG only, every text escaped, so opening a
report made from someone else's corpus cannot run anything. Its human text is in the ``language`` asked for
(:mod:`lab.texts`: English, Simplified or Traditional Chinese); the JSON and JUnit reports are for machines and
stay English in every language.
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from lab.attack.robustness import Robustness, VariantResult
from lab.metrics import (
    METRICS,
    Confusion,
    attack_matrix,
    attacks_by_category,
    changed_matrix,
    compare,
    confusion,
    confusion_by,
    contribution,
    processors_seen,
    redundant,
    summary,
    uncaught,
    unmatched,
)
from lab.results import CaseResult, read_results
from lab.texts import html_lang, percent, text, word
from processors.atomic_files import write_atomic


def write_atomically(path: Path, text: str) -> None:
    """Write the whole file or nothing (a report half written would mislead a CI job): the house's one atomic
    writer, :func:`processors.atomic_files.write_atomic`, after making the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text)


# -------------------------------------------------------------------------------------------------- JSON


def json_report(results: Sequence[CaseResult], *, design: dict[str, Any], mode: str) -> dict[str, Any]:
    return {
        "design": design,
        "mode": mode,
        # recordings stay in the results file: a report is for reading, and they are the bulk of a model run
        "cases": [{k: v for k, v in result.to_dict().items() if k != "recording"} for result in results],
        "summary": summary(results),
    }


def read_json_report(path: Path) -> tuple[dict[str, Any], list[CaseResult]]:
    """A JSON report's header fields and its cases. Raises ``ValueError`` naming the file on a bad report."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))  # an editor may have saved it with a BOM
        cases = [CaseResult.from_dict(item) for item in data["cases"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path}: not a lab JSON report ({error})") from None
    return {key: value for key, value in data.items() if key not in ("cases", "summary")}, cases


def read_case_results(path: Path) -> list[CaseResult]:
    """The cases of a JSON report (``--json``) or of a results file (``--results``, one JSON line per finished
    case, as a killed or finished run left it). Raises ``ValueError`` naming the file when it is neither."""
    try:
        return read_json_report(path)[1]
    except ValueError as not_a_report:
        if not path.is_file():
            raise
        try:
            header, results = read_results(path)
        except (OSError, UnicodeError, ValueError, KeyError, TypeError):
            raise not_a_report from None
        if header is None or not results:
            raise ValueError(f"{not_a_report}; nor a lab results file (--results)") from None
        return list(results.values())


def diff_report(
    before: Sequence[CaseResult],
    after: Sequence[CaseResult],
    *,
    a: dict[str, Any] | None = None,
    b: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The A/B report (``lab diff --json`` and the studio's A/B export): both runs' figures, the cases whose verdict
    changed, and the ids only one of them has (not compared); ``a`` and ``b`` say which designs ran, when known."""
    only_before, only_after = unmatched(before, after)
    report: dict[str, Any] = {"a": a, "b": b} if a is not None or b is not None else {}
    return {
        **report,
        "before": confusion(before).to_dict(),
        "after": confusion(after).to_dict(),
        "changed": [change.to_dict() for change in compare(before, after)],
        "only_before": only_before,
        "only_after": only_after,
    }


def merge_reports(paths: Iterable[Path]) -> dict[str, Any]:
    """One report from shards of one run: their cases (an id in two shards is an error, and so are shards of another
    mode or another design) and a summary over all of them."""
    header: dict[str, Any] | None = None
    merged: dict[str, CaseResult] = {}
    for path in paths:
        fields, cases = read_json_report(path)
        if header is None:
            header = fields
        elif fields.get("mode") != header.get("mode"):
            raise ValueError(f"{path}: mode {fields.get('mode')!r} differs from the first report's")
        elif _fingerprint(fields) != _fingerprint(header):
            # shards of two designs (or two versions of one) would make one report of figures no design has
            raise ValueError(
                f"{path}: design {_fingerprint(fields)!r} differs from the first report's ({_fingerprint(header)!r}); "
                "compare two designs with 'processor-studio lab diff'"
            )
        for case in cases:
            if case.id in merged:
                raise ValueError(f"{path}: case {case.id!r} is in two reports")
            merged[case.id] = case
    if header is None:
        raise ValueError("no report to merge")
    return json_report(list(merged.values()), design=header.get("design", {}), mode=str(header.get("mode")))


def _fingerprint(fields: dict[str, Any]) -> str | None:
    design = fields.get("design")
    return str(design.get("fingerprint")) if isinstance(design, dict) and design.get("fingerprint") else None


# ------------------------------------------------------------------------------------------------- JUnit


def failure_of(result: CaseResult) -> str | None:
    """Why a case fails in CI: an attack not blocked, a benign case blocked, a case that expected a processor."""
    if result.outcome == "error":
        return None
    if result.label == "attack" and result.outcome != "blocked":
        return f"attack not blocked (outcome: {result.outcome})"
    if result.label == "benign" and result.outcome == "blocked":
        return f"benign case blocked by {', '.join(result.tripped) or 'a processor'}: {result.reason}"
    if result.expect not in (None, "blocked", "passed", "modified") and result.expect not in result.tripped:
        return f"expected {result.expect} to trip; tripped: {', '.join(result.tripped) or 'nothing'}"
    return None


def junit_report(results: Sequence[CaseResult], *, name: str = "guardrail lab") -> str:
    """JUnit XML: one testsuite per category, one testcase per case; a crashed case is an ``error``."""
    root = ET.Element("testsuites", name=name)
    by_category: dict[str, list[CaseResult]] = {}
    for result in results:
        by_category.setdefault(result.category or "(none)", []).append(result)
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for category, items in by_category.items():
        suite = ET.SubElement(root, "testsuite", name=category)
        counts = {"tests": len(items), "failures": 0, "errors": 0}
        seconds = 0.0
        for result in items:
            seconds += result.latency_ms / 1000
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"lab.{category}",
                name=result.id,
                time=f"{result.latency_ms / 1000:.4f}",
            )
            if result.outcome == "error":
                counts["errors"] += 1
                error = ET.SubElement(case, "error", message=(result.error or "error")[:500])
                error.text = result.error or ""
            else:
                problem = failure_of(result)
                if problem is not None:
                    counts["failures"] += 1
                    failure = ET.SubElement(case, "failure", message=problem[:500])
                    failure.text = f"{problem}\n\ntext: {result.text}"
            tripped = ", ".join(result.tripped) or "-"
            output = ET.SubElement(case, "system-out")
            output.text = f"outcome: {result.outcome}; tripped: {tripped}; reason: {result.reason or '-'}"
        suite.set("tests", str(counts["tests"]))
        suite.set("failures", str(counts["failures"]))
        suite.set("errors", str(counts["errors"]))
        suite.set("time", f"{seconds:.3f}")
        for key in totals:
            totals[key] += counts[key]
    for key, value in totals.items():
        root.set(key, str(value))
    for element in root.iter():
        element.text = xml_safe(element.text) if element.text else element.text
        for attribute, written in element.attrib.items():
            element.set(attribute, xml_safe(written))
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


#: Characters XML 1.0 does not allow (controls but tab, newline and carriage return; DEL; lone surrogates;
#: U+FFFE and U+FFFF), as pytest's JUnit writer lists them.
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\u007e\u0080-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(value: str) -> str:
    """``value`` with each character XML 1.0 forbids written as ``#xNN`` (as pytest does), so a case's text, a
    crash's message or a case id full of control characters or broken surrogates still makes a file CI can parse."""
    return _NOT_XML.sub(lambda m: f"#x{ord(m.group()):02X}", value)


# -------------------------------------------------------------------------------------------------- HTML

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d232b;background:#fff}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #d0d6de;padding:4px 8px;text-align:right}
th{background:#f1f4f8}td.l,th.l{text-align:left}.bad{color:#b3261e}.muted{color:#6b7480}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{border:1px solid #d0d6de;border-radius:6px;padding:8px 14px}
.card b{display:block;font-size:20px}
"""


def _esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def heat_map_svg(results: Sequence[CaseResult], language: str = "en") -> str:
    """Attack categories × processors, as the studio's Processors tab shows it: a cell counts the category's attacks
    the processor tripped on (its green is their share) and, under them, those it only changed without tripping;
    the last column counts the attacks nothing blocked (red). Every processor that tripped or changed something
    has a column (:func:`lab.metrics.processors_seen`), so a redactor that never trips is seen too."""
    tripped, changed = attack_matrix(results), changed_matrix(results)
    categories = attacks_by_category(results)
    columns: list[str | None] = [*processors_seen(results), None]  # None: the "not blocked" column
    cell_w, cell_h, left, top = 96, 46, 190, 120
    width = left + cell_w * len(columns) + 150  # room for the last slanted column name
    height = top + cell_h * max(1, len(categories)) + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{_esc(text(language, "heat map of attack categories by processors"))}">'
    ]
    for column, processor in enumerate(columns):
        x = left + column * cell_w + cell_w / 2
        name = processor if processor is not None else text(language, "not blocked")
        parts.append(
            f'<text x="{x}" y="{top - 8}" font-size="11" transform="rotate(-40 {x} {top - 8})">{_esc(name)}</text>'
        )
    for row, (category, attacks) in enumerate(categories.items()):
        total, y = attacks.total, top + row * cell_h
        parts.append(
            f'<text x="{left - 8}" y="{y + cell_h / 2 + 4}" font-size="12" text-anchor="end">'
            f"{_esc(f'{category} ({total})')}</text>"
        )
        for column, processor in enumerate(columns):
            x = left + column * cell_w
            if processor is None:
                count, more, colour = attacks.missed, 0, "179,38,30"
                note = text(
                    language,
                    "{category}: {count} of {total} attacks not blocked",
                    category=category,
                    count=count,
                    total=total,
                )
            else:
                count, colour = tripped.get(category, {}).get(processor, 0), "27,110,32"
                more = changed.get(category, {}).get(processor, 0)
                note = text(
                    language,
                    "{category} × {processor}: tripped on {count} of {total} attacks ({share}); changed {changed} more",
                    category=category,
                    processor=processor,
                    count=count,
                    total=total,
                    share=percent(language, count / total),
                    changed=more,
                )
            share = count / total
            fill = f'fill="rgb({colour})" fill-opacity="{0.12 + 0.68 * share:.2f}"' if count else 'fill="#f7f8fa"'
            ink = "#fff" if share > 0.55 else "#1d232b"
            parts.append(
                f'<g class="cell"><title>{_esc(note)}</title>'
                f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" {fill}/>'
                f'<text x="{x + cell_w / 2 - 1}" y="{y + (18 if more else cell_h / 2 + 3)}" font-size="12" '
                f'text-anchor="middle" fill="{ink}">{_esc(f"{count} · {share:.0%}" if count else "·")}</text>'
            )
            if more:
                parts.append(
                    f'<text x="{x + cell_w / 2 - 1}" y="{y + 35}" font-size="10" text-anchor="middle" fill="{ink}">'
                    f"{_esc(text(language, '+ {changed} changed', changed=more))}</text>"
                )
            parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def bars_svg(rows: Sequence[tuple[str, Confusion]], language: str = "en") -> str:
    """Recall (green) and false-positive rate (red) per category as horizontal bars, as the studio's Confusion tab
    draws them: each figure with the count it is a share of, and "no attacks" / "no benign" where there is none."""
    left, bar, gap, span = 190, 12, 10, 300
    height = 30 + len(rows) * (2 * bar + gap)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + span + 130}" height="{height}" role="img" '
        f'aria-label="{_esc(text(language, "recall and false-positive rate per category"))}">',
        f'<text x="0" y="14" font-size="12"><tspan fill="{_RECALL}">{_esc(text(language, "■ recall"))}</tspan> '
        f'<tspan fill="{_FPR}">{_esc(text(language, "■ false-positive rate"))}</tspan></text>',
    ]
    for index, (category, matrix) in enumerate(rows):
        y = 26 + index * (2 * bar + gap)
        parts.append(f'<text x="{left - 8}" y="{y + bar + 4}" font-size="12" text-anchor="end">{_esc(category)}</text>')
        for offset, value, count, colour, none in (
            (0, matrix.recall, matrix.attacks, _RECALL, "no attacks"),
            (bar, matrix.fpr, matrix.benign, _FPR, "no benign"),
        ):
            length = span * (value or 0.0)
            parts.append(f'<rect x="{left}" y="{y + offset}" width="{span}" height="{bar - 1}" fill="#eef0f3"/>')
            parts.append(f'<rect x="{left}" y="{y + offset}" width="{length:.1f}" height="{bar - 1}" fill="{colour}"/>')
            shown = text(language, none) if value is None else f"{percent(language, value)} ({count})"
            parts.append(f'<text x="{left + span + 4}" y="{y + offset + bar - 2}" font-size="10">{_esc(shown)}</text>')
    parts.append("</svg>")
    return "".join(parts)


_RECALL, _FPR = "#1b6e20", "#b3261e"  # the studio's recall and FPR colours


def _confusion_table(title: str, rows: dict[str, Confusion], language: str = "en") -> str:
    """One row per group, a column per figure of :data:`lab.metrics.METRICS`."""
    head = "".join(f"<th>{_esc(text(language, metric.title))}</th>" for metric in METRICS)

    def share(value: float | None) -> str:
        return percent(language, value)

    body = "".join(
        f'<tr><td class="l">{_esc(key)}</td>'
        + "".join(f"<td>{metric.written(matrix, share)}</td>" for metric in METRICS)
        + "</tr>"
        for key, matrix in rows.items()
    )
    return f'<h2>{_esc(title)}</h2><table><tr><th class="l"></th>{head}</tr>{body}</table>'


def html_report(results: Sequence[CaseResult], *, design: dict[str, Any], mode: str, language: str = "en") -> str:
    """One self-contained HTML page: summary cards, confusion tables, the heat map and bars, the misses; its human
    text in ``language`` (ids, categories, corpus text and processor ids as they are)."""

    def t(english: str, **values: object) -> str:
        return _esc(text(language, english, **values))

    figures = summary(results)
    categories = confusion_by(results, lambda r: r.category)
    attacks = any(result.label == "attack" for result in results)
    cards = "".join(
        f'<div class="card">{t(label)}<b>{value}</b></div>'
        for label, value in (
            ("cases", figures["cases"]),
            ("recall", percent(language, figures["recall"])),
            ("precision", percent(language, figures["precision"])),
            ("false-positive rate", percent(language, figures["fpr"])),
            ("errors", figures["errors"]),
        )
    )
    contributions = contribution(results)
    contribution_rows = "".join(
        f'<tr><td class="l">{_esc(item.processor)}</td><td>{item.caught}</td><td>{item.only}</td>'
        f'<td>{item.blocked_benign}</td><td class="l">'
        + t(
            "without {processor}, recall would drop from {before} to {after}",
            processor=item.processor,
            before=percent(language, item.recall),
            after=percent(language, item.without),
        )
        + "</td></tr>"
        for item in contributions.values()
    )
    missed = "".join(
        f'<tr><td class="l">{_esc(r.id)}</td><td class="l">{_esc(r.category)}</td><td class="l">{_esc(r.lang)}</td>'
        f'<td class="l">{_esc(word(language, r.outcome))}</td><td class="l">{_esc(r.text[:200])}</td></tr>'
        for r in uncaught(results)
    )
    false_positives = "".join(
        f'<tr><td class="l">{_esc(r.id)}</td><td class="l">{_esc(", ".join(r.tripped))}</td>'
        f'<td class="l">{_esc(r.reason or "")}</td><td class="l">{_esc(r.text[:200])}</td></tr>'
        for r in results
        if r.label == "benign" and r.outcome == "blocked"
    )
    several = redundant(results)
    redundant_rows = "".join(
        f'<tr><td class="l">{_esc(r.id)}</td><td class="l">{_esc(r.category)}</td>'
        f'<td class="l">{_esc(", ".join(r.tripped))}</td><td class="l">{_esc(r.text[:200])}</td></tr>'
        for r in several
    )
    name = design.get("name") or design.get("id") or "design"
    no_attacks = f'<p class="muted">{t("No attacks in these corpora.")}</p>'
    return f"""<!DOCTYPE html>
<html lang="{html_lang(language)}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{t("Guardrail lab: {name}", name=name)}</title><style>{_STYLE}</style></head><body>
<h1>{t("Guardrail lab: {name}", name=name)}</h1>
<p class="muted">{t("mode: {mode}. A case is caught when it is blocked; errors are counted apart.", mode=mode)}</p>
<div class="cards">{cards}</div>
{_confusion_table(text(language, "By category"), categories, language)}
{_confusion_table(text(language, "By language"), confusion_by(results, lambda r: r.lang), language)}
<h2>{t("Attack categories × processors")}</h2>
<p class="muted">{t(_HEAT_LEGEND)}</p>
{heat_map_svg(results, language) if attacks else no_attacks}
<h2>{t("Recall and false-positive rate per category")}</h2>
{bars_svg(list(categories.items()), language)}
<h2>{t("Each processor's contribution")}</h2>
<table><tr><th class="l">{t("processor")}</th><th>{t("attacks caught")}</th><th>{t("caught alone")}</th>
<th>{t("benign blocked")}</th><th class="l"></th></tr>{contribution_rows}</table>
<p class="muted">{t(_LOWER_BOUND)}</p>
<h2>{t("Attacks caught by several processors ({count})", count=len(several))}</h2>
<table><tr><th class="l">{t("id")}</th><th class="l">{t("category")}</th><th class="l">{t("tripped")}</th>
<th class="l">{t("text")}</th></tr>{redundant_rows}</table>
<h2>{t("Attacks not blocked ({count})", count=len(uncaught(results)))}</h2>
<table><tr><th class="l">{t("id")}</th><th class="l">{t("category")}</th><th class="l">{t("lang")}</th>
<th class="l">{t("outcome")}</th><th class="l">{t("text")}</th></tr>{missed}</table>
<h2>{t("Benign cases blocked ({count})", count=figures["fp"])}</h2>
<table><tr><th class="l">{t("id")}</th><th class="l">{t("tripped")}</th><th class="l">{t("reason")}</th>
<th class="l">{t("text")}</th></tr>
{false_positives}</table>
</body></html>
"""


_LOWER_BOUND = (
    '"Without X" counts the attacks another processor also tripped on; the chain stops at its first tripwire, so '
    "this is a lower bound."
)
_HEAT_LEGEND = (
    "A cell counts the attacks of its category that its processor tripped on, with their share (the darker, the "
    "more), and under them the attacks it only changed without tripping; the last column counts the attacks no "
    "processor blocked."
)


# ------------------------------------------------------------------------------------------ attack reports
# A ``processor-studio lab attack`` run's reports (:mod:`lab.attack`): the same three formats, over its variants.


def attack_json_report(
    found: Sequence[VariantResult], *, design: dict[str, Any], mode: str, attack: dict[str, Any]
) -> dict[str, Any]:
    """JSON: the run's settings (``attack``: seed, budget, chains, seeds), the robustness matrix and tallies
    (:meth:`lab.attack.robustness.Robustness.to_dict`), and every variant with its verdict."""
    robustness = Robustness.of(found)
    return {
        "design": design,
        "mode": mode,
        "attack": attack,
        "robustness": robustness.to_dict(),
        "variants": [
            {
                "id": item.id,
                "seed": item.seed_id,
                "chain": item.chain,
                "turns": list(item.turns),
                "bypassed": item.bypassed,
                "outcome": item.result.outcome,
                "tripped": list(item.result.tripped),
                "seed_tripped": list(item.seed_tripped),
                "reason": item.result.reason,
                "error": item.result.error,
            }
            for item in found
        ],
    }


def attack_junit_report(found: Sequence[VariantResult], *, name: str = "guardrail lab attack") -> str:
    """JUnit XML: one testsuite per chain, one testcase per variant, failing when the variant got through."""
    root = ET.Element("testsuites", name=name)
    by_chain: dict[str, list[VariantResult]] = {}
    for item in found:
        by_chain.setdefault(item.chain, []).append(item)
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for chain, items in by_chain.items():
        suite = ET.SubElement(root, "testsuite", name=chain)
        counts = {"tests": len(items), "failures": 0, "errors": 0}
        for item in items:
            result = item.result
            case = ET.SubElement(
                suite, "testcase", classname=f"lab.attack.{chain}", name=item.id, time=f"{result.latency_ms / 1000:.4f}"
            )
            if item.errored:
                counts["errors"] += 1
                error = ET.SubElement(case, "error", message=(result.error or "error")[:500])
                error.text = result.error or ""
            elif item.bypassed:
                counts["failures"] += 1
                stopped = ", ".join(item.seed_tripped) or "the design"
                problem = (
                    f"bypass: {stopped} stopped {item.seed_id}, not this {chain} variant (outcome: {result.outcome})"
                )
                failure = ET.SubElement(case, "failure", message=problem[:500])
                failure.text = f"{problem}\n\nvariant: {item.text}"
            output = ET.SubElement(case, "system-out")
            output.text = f"outcome: {result.outcome}; tripped: {', '.join(result.tripped) or '-'}"
        for key in totals:
            suite.set(key, str(counts[key]))
            totals[key] += counts[key]
    for key, value in totals.items():
        root.set(key, str(value))
    for element in root.iter():
        element.text = xml_safe(element.text) if element.text else element.text
        for attribute, written in element.attrib.items():
            element.set(attribute, xml_safe(written))
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def robustness_heat_map_svg(robustness: Robustness, language: str = "en") -> str:
    """Chains × processors: a cell is the share of the variants whose seed the processor stopped that it no longer
    stops (the redder, the blinder); the last column is each chain's attack success rate through the whole design."""
    columns: list[str | None] = [*robustness.processors, None]
    rows = list(robustness.by_chain)
    cell_w, cell_h, left, top = 96, 30, 220, 120
    width = left + cell_w * len(columns) + 150
    height = top + cell_h * max(1, len(rows)) + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="{_esc(text(language, "heat map of converter chains by processors"))}">'
    ]
    for column, processor in enumerate(columns):
        x = left + column * cell_w + cell_w / 2
        name = processor if processor is not None else text(language, "attack success rate")
        parts.append(
            f'<text x="{x}" y="{top - 8}" font-size="11" transform="rotate(-40 {x} {top - 8})">{_esc(name)}</text>'
        )
    for row, chain in enumerate(rows):
        y = top + row * cell_h
        parts.append(
            f'<text x="{left - 8}" y="{y + cell_h / 2 + 4}" font-size="12" text-anchor="end">{_esc(chain)}</text>'
        )
        for column, processor in enumerate(columns):
            x = left + column * cell_w
            if processor is None:
                tally = robustness.by_chain[chain]
                share, count, total = tally.asr, tally.bypassed, tally.variants - tally.errors
                note = text(
                    language, "{chain}: {count} of {total} variants got through", chain=chain, count=count, total=total
                )
            else:
                cell = robustness.cells.get(chain, {}).get(processor)
                share = cell.share if cell is not None else None
                count, total = (cell.evaded, cell.seen) if cell is not None else (0, 0)
                note = text(
                    language,
                    "{chain} × {processor}: {count} of {total} variants of seeds it stopped got past it",
                    chain=chain,
                    processor=processor,
                    count=count,
                    total=total,
                )
            fill = f'fill="rgb(179,38,30)" fill-opacity="{0.08 + 0.72 * share:.2f}"' if share else 'fill="#f7f8fa"'
            ink = "#fff" if (share or 0) > 0.55 else "#1d232b"
            label = "·" if share is None else f"{share:.0%}"
            parts.append(
                f'<g class="cell"><title>{_esc(note)}</title>'
                f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" {fill}/>'
                f'<text x="{x + cell_w / 2 - 1}" y="{y + cell_h / 2 + 3}" font-size="12" text-anchor="middle" '
                f'fill="{ink}">{_esc(label)}</text></g>'
            )
    parts.append("</svg>")
    return "".join(parts)


#: Bypasses listed in the HTML report (the JSON and the --bypasses corpus have them all).
HTML_BYPASSES = 500


def attack_html_report(
    found: Sequence[VariantResult], *, design: dict[str, Any], mode: str, attack: dict[str, Any], language: str = "en"
) -> str:
    """One self-contained HTML page of an attack run: cards, the chains × processors heat map, the attack success
    rate per chain and per seed, and the bypasses (the first :data:`HTML_BYPASSES`)."""

    def t(english: str, **values: object) -> str:
        return _esc(text(language, english, **values))

    robustness = Robustness.of(found)
    total = robustness.total
    cards = "".join(
        f'<div class="card">{t(label)}<b>{value}</b></div>'
        for label, value in (
            ("seeds", len(robustness.by_seed)),
            ("variants", total.variants),
            ("bypasses", total.bypassed),
            ("attack success rate", percent(language, total.asr)),
            ("errors", total.errors),
        )
    )

    def tally_rows(tallies: dict[str, Any]) -> str:
        ordered = sorted(tallies.items(), key=lambda item: (-(item[1].asr or 0.0), item[0]))
        return "".join(
            f'<tr><td class="l">{_esc(key)}</td><td>{tally.variants}</td><td>{tally.bypassed}</td>'
            f"<td>{_esc(percent(language, tally.asr))}</td><td>{tally.errors}</td></tr>"
            for key, tally in ordered
        )

    head = f"<th>{t('variants')}</th><th>{t('bypasses')}</th><th>{t('attack success rate')}</th><th>{t('errors')}</th>"
    bypass_rows = "".join(
        f'<tr><td class="l">{_esc(item.seed_id)}</td><td class="l">{_esc(item.chain)}</td>'
        f'<td class="l">{_esc(", ".join(item.seed_tripped) or "-")}</td>'
        f'<td class="l">{_esc(word(language, item.result.outcome))}</td><td class="l">{_esc(item.text[:200])}</td></tr>'
        for item in robustness.bypasses[:HTML_BYPASSES]
    )
    name = design.get("name") or design.get("id") or "design"
    chains = ", ".join(str(chain) for chain in attack.get("chains", []))
    return f"""<!DOCTYPE html>
<html lang="{html_lang(language)}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{t("Attack on {name}", name=name)}</title><style>{_STYLE}</style></head><body>
<h1>{t("Attack on {name}", name=name)}</h1>
<p class="muted">{t(_ATTACK_INTRO, mode=mode, seed=attack.get("seed", ""), budget=attack.get("budget") or "-")}</p>
<p class="muted">{_esc(chains)}</p>
<div class="cards">{cards}</div>
<h2>{t("Converter chains × processors")}</h2>
<p class="muted">{t(_ATTACK_LEGEND)}</p>
{robustness_heat_map_svg(robustness, language)}
<h2>{t("Attack success rate per chain")}</h2>
<table><tr><th class="l">{t("chain")}</th>{head}</tr>{tally_rows(robustness.by_chain)}</table>
<h2>{t("Attack success rate per seed")}</h2>
<table><tr><th class="l">{t("seed")}</th>{head}</tr>{tally_rows(robustness.by_seed)}</table>
<h2>{t("Bypasses ({count})", count=total.bypassed)}</h2>
<table><tr><th class="l">{t("seed")}</th><th class="l">{t("chain")}</th><th class="l">{t("stopped the seed")}</th>
<th class="l">{t("outcome")}</th><th class="l">{t("text")}</th></tr>{bypass_rows}</table>
</body></html>
"""


_ATTACK_INTRO = (
    "mode: {mode}, seed {seed}, budget {budget}. A bypass is a variant of an attack the design stops (its seed) "
    "that the design lets through."
)
_ATTACK_LEGEND = (
    "A cell is the share of the variants whose seed its processor stopped that it no longer stops (the redder, the "
    "blinder); the last column is the share of the chain's variants that got through the whole design."
)
