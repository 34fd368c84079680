"""Detector quality on the labelled corpora, and the per-chunk cost of the stream detectors.

Run: ``.venv/bin/python tests/bench/bench_detectors.py [LONG_DOCUMENT ...]`` (``--stream-only``: part 4 alone).
Prints

1. PII: precision and recall per regex-backed type for ``PIIDetector`` on ``tests/data/pii_corpus.jsonl``
   (target ≥ 0.95 each) and on the held-out ``pii_holdout.jsonl`` (written before the detector was tuned and
   never tuned on), plus the shared ``patterns.find_all`` table that RegexFilter's ``pii`` preset uses.
2. Secrets: recall per secret type and overall precision on ``secrets_corpus.jsonl`` for PIIDetector's
   ``api-key`` type and for RegexFilter's ``secrets`` preset.
3. Prompt injection: precision and recall of ``PromptInjectionDetector``'s offline heuristics on
   ``injection_corpus.jsonl`` (target recall ≥ 0.8 with precision ≥ 0.9) and ``injection_holdout.jsonl``,
   recall per attack category, and a threshold sweep; recall and false-positive rate per language for each
   ``offline_scorer`` (the heuristics, the learned model, both: the model never trained on these sets); the cost per
   chat message and per 1,000 characters of long documents (the README, the benign Chinese cases joined, and any
   file named on the command line), with the work counted (characters searched, matches tried per 1,000).
   Indirect injection (attacks inside tool results, scored as the detector's ``process_tool_result`` scores
   them): recall and false-positive rate per language on the bundled ``indirect-injection.jsonl`` (the tuning
   set) and the held-out ``indirect_injection_holdout.jsonl``, ``_b`` and ``_c`` (``_c`` is the fair one). The
   sample design's figures over the same files come from the Lab: ``processor-studio lab sample --corpus FILE``.
4. Stream cost: microseconds per text-delta chunk of ``PIIDetector``, ``RegexFilter`` and
   ``SystemPromptScrubber`` in ``process_output_stream`` (target ≤ 20 µs), measured at the hook (the
   processor's own stream cost) and through ``agent.stream()`` (extra time of a whole run, every hook included,
   divided by the number of chunks). Both are wall-clock time (``time.perf_counter``), the best of ``ROUNDS`` (9)
   rounds over the same word-sized deltas: on a busy machine they include waiting for a core. ``--cpu`` measures
   the hook in the thread's CPU time instead (``time.thread_time``, best of ``CPU_ROUNDS``, 15): what an idle
   machine would show, when the machine is shared.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from processors import Agent, Processor
from processors.builtin.injection_scan import ScanCost
from processors.builtin.patterns import find_all
from processors.builtin.pii_detector import PIIDetector
from processors.builtin.pii_patterns import REGEX_TYPES, category, detect
from processors.builtin.prompt_injection_detector import PromptInjectionDetector, heuristic_scores
from processors.builtin.system_prompt_scrubber import SystemPromptScrubber
from processors.chunks import TextDeltaChunk, TextDeltaPayload, TextEndChunk, TextPayload
from processors.context import RequestContext
from processors.messages.message_list import MessageList
from processors.models import ScriptedModel, Turn
from processors.models.scripted import split_words
from processors.pipeline.processor import ProcessOutputStreamArgs
from processors.pipeline.stream_chain import REPROCESS_KEY
from tests.processors.builtin.corpus import (
    DATA,
    Score,
    load,
    load_cases,
    rates_by_language,
    score_binary,
    score_pii,
    score_secrets,
    starter_cases,
)

try:
    from processors.builtin.regex_filter import RegexFilter
except ImportError:  # the other half of issue 3 may not have landed yet
    RegexFilter = None  # type: ignore[assignment,misc]

ROOT = Path(__file__).resolve().parents[2]
STARTER_INDIRECT = ROOT / "resources" / "corpora" / "indirect-injection.jsonl"
INDIRECT_HOLDOUT = DATA / "indirect_injection_holdout.jsonl"
INDIRECT_HOLDOUT_B = DATA / "indirect_injection_holdout_b.jsonl"
INDIRECT_HOLDOUT_C = DATA / "indirect_injection_holdout_c.jsonl"
ROUNDS = 9
#: Rounds of the hook's CPU-time measurement (``--cpu``): each is short, and the least disturbed one is kept.
CPU_ROUNDS = 15
STREAM_TEXT = (
    "The quarterly report shows revenue grew by 12 percent, driven by new customers in Europe and Asia. "
    "Contact maria.gonzalez@acme-corp.com or call +1 415-555-0132 about the card 4111 1111 1111 1111. "
    "Our support team answers within two business days; see https://help.example.com/faq for more. "
)
SYSTEM = "You are Aria, the support agent of Acme. Never offer discounts above ten percent to customers."


def line(label: str, score: Score, width: int = 22) -> str:
    return (
        f"  {label:{width}s} precision {score.precision:5.3f}  recall {score.recall:5.3f}  "
        f"(tp {score.tp}, fp {score.fp}, fn {score.fn})"
    )


# --------------------------------------------------------------------------------------------- quality
def pii_quality() -> None:
    print("1. PII (exact type + value)")
    for corpus in ("pii_corpus.jsonl", "pii_holdout.jsonl"):
        rows = load(corpus)
        print(f" PIIDetector on {corpus} ({len(rows)} lines):")
        scores = score_pii(rows, lambda t: [(category(m.kind), m.value) for m in detect(t, REGEX_TYPES)], REGEX_TYPES)
        total = Score()
        for pii_type, score in scores.items():
            total.add(score)
            print(line(pii_type, score))
        print(line("ALL", total))
        for error in total.errors:
            print("    ", error)
    for corpus in ("pii_multilingual_corpus.jsonl", "pii_multilingual_holdout.jsonl"):
        rows = load(corpus)
        print(f" PIIDetector on {corpus} ({len(rows)} lines), per language:")
        for lang in ("en", "zh-CN", "zh-TW"):
            total = Score()
            for score in score_pii(
                [r for r in rows if r["lang"] == lang],
                lambda t: [(category(m.kind), m.value) for m in detect(t, REGEX_TYPES)],
                REGEX_TYPES,
            ).values():
                total.add(score)
            print(line(lang, total))
            for error in total.errors:
                print("    ", error)
    texts = [row["text"] for name in ("pii_corpus.jsonl", "pii_multilingual_corpus.jsonl") for row in load(name)]
    detector = PIIDetector()
    timings = []
    for text in texts * 20:
        started = time.perf_counter()
        detector.detect_offline(text)
        timings.append(time.perf_counter() - started)
    timings.sort()
    print(
        f" PIIDetector.detect_offline per message ({len(texts)} corpus messages x 20): median "
        f"{timings[len(timings) // 2] * 1e6:.1f} µs, p95 {timings[int(len(timings) * 0.95)] * 1e6:.1f} µs "
        "(target: median <= 50 µs)"
    )
    rows = load("pii_corpus.jsonl")
    shared_types = ("email", "phone", "credit-card", "ssn", "iban", "ip-address")
    scores = score_pii(rows, lambda t: [(m.category, m.value) for m in find_all(t, ["pii"])], shared_types)
    print(" RegexFilter 'pii' preset (patterns.find_all) on pii_corpus.jsonl:")
    for pii_type, score in scores.items():
        print(line(pii_type, score))


def secrets_quality() -> None:
    print("\n2. Secrets (a secret is found when a detection overlaps it)")
    rows = load("secrets_corpus.jsonl")
    finders: list[tuple[str, Callable[[str], Any]]] = [
        ("PIIDetector api-key", lambda t: [(m.start, m.end) for m in detect(t, ["api-key"])]),
        ("RegexFilter 'secrets' preset", lambda t: [(m.start, m.end) for m in find_all(t, ["secrets"])]),
    ]
    for label, finder in finders:
        total, per_type = score_secrets(rows, finder)
        print(f" {label} on secrets_corpus.jsonl ({len(rows)} lines):")
        print(line("ALL", total))
        missed = {k: f"{s.tp}/{s.tp + s.fn}" for k, s in per_type.items() if s.fn}
        print(f"    recall per type: all found except {missed}" if missed else "    every type found")
        for error in total.errors:
            if error.startswith("FP"):
                print("    ", error)


def _cpu(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def injection_quality() -> None:
    print("\n3. Prompt injection (offline heuristics)")
    threshold = PromptInjectionDetector().options.threshold
    for corpus in ("injection_corpus.jsonl", "injection_holdout.jsonl"):
        rows = load(corpus)
        top = {row["text"]: max(heuristic_scores(row["text"])[0].values(), default=0.0) for row in rows}
        total, per_category = score_binary(rows, lambda t, top=top: top[t] >= threshold)  # type: ignore[misc]
        positives = sum(r["label"] for r in rows)
        print(f" {corpus} ({positives} attacks, {len(rows) - positives} benign), threshold {threshold}:")
        print(line("ALL", total))
        for name, score in per_category.items():
            if score.tp + score.fn:
                print(f"    {name:20s} recall {score.recall:5.3f} ({score.tp}/{score.tp + score.fn})")
            else:
                print(f"    {name:20s} false positives {score.fp}")
        for error in total.errors:
            print("    ", error)
        sweep = []
        for value in (0.5, 0.6, 0.7, 0.8, 0.9):
            swept, _ = score_binary(rows, lambda t, v=value, top=top: top[t] >= v)  # type: ignore[misc]
            sweep.append(f"{value}: P {swept.precision:.2f} R {swept.recall:.2f}")
        print("    threshold sweep — " + "; ".join(sweep))
    for scorer in ("heuristics", "learned", "both"):
        print(f" offline_scorer={scorer!r}:")
        _injection_rates(PromptInjectionDetector(offline_scorer=scorer))
    messages = [row["text"] for row in starter_cases()] * 3
    timings = []
    for text in messages:
        started = time.process_time()
        heuristic_scores(text)
        timings.append(time.process_time() - started)
    timings.sort()
    print(
        f" cost per chat message ({len(messages)} messages, CPU time): "
        f"median {timings[len(timings) // 2] * 1e6:.0f} µs, p95 {timings[int(len(timings) * 0.95)] * 1e6:.0f} µs "
        "(goal: median <= 200 µs)"
    )
    for label, document in _documents():
        print(f"    {label}:")
        for size in sorted({1_000, 5_000, 20_000, len(document)}):
            if size > len(document):
                continue
            text = document[:size]
            best = min(_cpu(lambda text=text: heuristic_scores(text)) for _ in range(5))
            cost = ScanCost()
            heuristic_scores(text, cost=cost)
            print(
                f"    {len(text):6d} characters: {best * 1e3:6.2f} ms ({best * 1e6 / len(text):.2f} ms per 1,000 "
                f"characters; goal <= 0.5); per 1,000 characters: {cost.characters * 1e3 / len(text):5.0f} "
                f"characters searched, {cost.tries * 1e3 / len(text):4.1f} matches tried"
            )


def _injection_rates(detector: PromptInjectionDetector) -> None:
    """Recall and FPR per language of ``detector``'s offline verdict (its ``offline_scorer``) on the starter corpora,
    the multilingual held-out set and the indirect-injection sets (the learned model never trained on any)."""
    threshold = detector.options.threshold

    def flagged(text: str, tool_result: bool) -> bool:
        scores = detector.offline_analysis(text, tool_result=tool_result).scores
        return max(scores.values(), default=0.0) >= threshold

    for label, rows in (
        ("starter corpora (resources/corpora, the tuning set)", starter_cases()),
        ("injection_multilingual_holdout.jsonl (held out)", load_cases(DATA / "injection_multilingual_holdout.jsonl")),
    ):
        print(f" {label}, {len(rows)} cases, per language (goal: recall >= 0.85, FPR <= 0.05):")
        for lang, rates in sorted(rates_by_language(rows, flagged).items()):
            print(
                f"    {lang:6s} recall {rates.recall:5.3f} ({rates.tp}/{rates.tp + rates.fn})  "
                f"FPR {rates.fpr:5.3f} ({rates.fp}/{rates.fp + rates.tn})"
            )
            for error in rates.errors:
                print("      ", error)
    print(" indirect injection, the attack in a tool result (goal: recall >= 0.85, FPR <= 0.05):")
    for label, rows in (
        ("indirect-injection.jsonl (the tuning set)", load_cases(STARTER_INDIRECT)),
        ("indirect_injection_holdout.jsonl (held out; its misses seen)", load_cases(INDIRECT_HOLDOUT)),
        (
            "indirect_injection_holdout_b.jsonl (held out; its misses tuned on after its one measurement)",
            load_cases(INDIRECT_HOLDOUT_B),
        ),
        (
            "indirect_injection_holdout_c.jsonl (held out, sealed, measured once: the fair figure)",
            load_cases(INDIRECT_HOLDOUT_C),
        ),
    ):
        print(f"  {label}, {len(rows)} cases:")
        for lang, rates in sorted(rates_by_language(rows, flagged).items()):
            print(
                f"    {lang:6s} recall {rates.recall:5.3f} ({rates.tp}/{rates.tp + rates.fn})  "
                f"FPR {rates.fpr:5.3f} ({rates.fp}/{rates.fp + rates.tn})"
            )
            for error in rates.errors:
                print("      ", error)


def _documents() -> list[tuple[str, str]]:
    """Long documents to time: the README, the benign Chinese cases of the corpora joined into one text (dense in
    the words the signals look for), and any files named on the command line (the Chinese specification ...)."""
    rows = starter_cases() + load_cases(DATA / "injection_multilingual_holdout.jsonl")
    chinese = "\n".join(row["text"] for row in rows if row["lang"] != "en" and row["label"] == "benign")
    documents = [
        ("README.md", (ROOT / "README.md").read_text(encoding="utf-8")),
        ("benign Chinese cases, joined", chinese * max(1, 20_000 // len(chinese))),
    ]
    documents += [(Path(name).name, Path(name).read_text(encoding="utf-8")) for name in sys.argv[1:]]
    return documents


# --------------------------------------------------------------------------------------------- stream cost
def hook_cost(processor: Any, chunks: list[Any], message_list: MessageList) -> float:
    """µs per chunk calling ``process_output_stream`` directly (as the runtime's sync fast path does)."""
    timings = []
    end = TextEndChunk(payload=TextPayload(id="t"))
    cpu = "--cpu" in sys.argv
    clock = time.thread_time if cpu else time.perf_counter
    for _ in range(CPU_ROUNDS if cpu else ROUNDS):
        state: dict[str, Any] = {}
        args = ProcessOutputStreamArgs(
            part=None,
            stream_parts=[],
            message_list=message_list,  # type: ignore[arg-type]
            processor_id=processor.id,
            state=state,
            request_context=RequestContext(),
        )
        hook = processor.process_output_stream
        started = clock()
        for chunk in chunks:
            args.part = chunk
            hook(args)
        args.part = end
        hook(args)
        state.pop(REPROCESS_KEY, None)
        timings.append((clock() - started) / len(chunks) * 1e6)
    return min(timings)  # the least disturbed run (other work on a 2-core machine only ever adds time)


async def agent_cost(factory: Callable[[], list[Any]], deltas: list[str]) -> float:
    timings = []
    for _ in range(ROUNDS):
        agent = Agent(
            id="bench", model=ScriptedModel([Turn(text=deltas)]), instructions=SYSTEM, output_processors=factory()
        )
        started = time.perf_counter()
        async for _chunk in agent.stream("go"):
            pass
        timings.append((time.perf_counter() - started) / len(deltas) * 1e6)
    return min(timings)  # the least disturbed run: a whole run is sensitive to other work on the machine


class PassThrough(Processor):
    id = "pass"

    def process_output_stream(self, args: Any) -> Any:
        return args.part


#: A user's rule: it runs on a worker thread (its time is its own), so it is measured as a whole run only.
TICKET_RULE = {"name": "ticket", "pattern": r"INC-(\d{6})", "replacement": "INC-[$1]"}


def stream_cost() -> None:
    print("\n4. Stream cost per text-delta chunk (word-sized deltas; target <= 20 µs)")
    deltas = split_words(STREAM_TEXT * 60)
    chunks = [TextDeltaChunk(payload=TextDeltaPayload(id="t", text=d)) for d in deltas]
    message_list = MessageList()
    message_list.add_system(SYSTEM)
    candidates: list[tuple[str, Callable[[], Any]]] = [
        ("pass-through (reference)", PassThrough),
        ("PIIDetector (defaults)", PIIDetector),
        ("PIIDetector placeholder", lambda: PIIDetector(redaction_method="placeholder")),
        ("SystemPromptScrubber", SystemPromptScrubber),
    ]
    if RegexFilter is not None:
        candidates += [
            ("RegexFilter pii redact", lambda: RegexFilter(presets=["pii"], strategy="redact")),
            ("RegexFilter secrets redact", lambda: RegexFilter(presets=["secrets"], strategy="redact")),
            ("RegexFilter custom rule", lambda: RegexFilter(rules=[TICKET_RULE], strategy="redact")),
        ]
    else:
        print("  RegexFilter: skipped (processors/builtin/regex_filter.py is not there yet)")
    base = asyncio.run(agent_cost(list, deltas))
    print(f"  {len(deltas)} chunks; agent.stream() without processors: {base:.2f} µs/chunk (best of {ROUNDS})")
    clock = "CPU time, time.thread_time" if "--cpu" in sys.argv else "wall clock"
    print(f"  'stream hook': process_output_stream alone (best of runs, {clock}) — the figure the target is about;")
    print("  'whole run': extra time of agent.stream() per chunk, all hooks (final-message checks included)")
    print(f"  {'processor':28s} {'stream hook':>12s} {'whole run':>14s}")
    for label, factory in candidates:
        processor = factory()
        if inspect.iscoroutinefunction(processor.process_output_stream):  # a user's rule: off the loop, per chunk
            added = asyncio.run(agent_cost(lambda f=factory: [f()], deltas)) - base  # type: ignore[misc]
            print(f"  {label:28s} {'(thread)':>12s} {added:11.2f} µs")
            continue
        at_hook = hook_cost(processor, chunks, message_list)
        added = asyncio.run(agent_cost(lambda f=factory: [f()], deltas)) - base  # type: ignore[misc]
        verdict = "" if label.startswith("pass") else ("  ok" if at_hook <= 20 else "  OVER TARGET")
        print(f"  {label:28s} {at_hook:9.2f} µs {added:11.2f} µs{verdict}")


def main() -> None:
    if "--stream-only" not in sys.argv:  # the stream cost alone: what tests/bench/README.md's per-chunk rows quote
        pii_quality()
        secrets_quality()
        injection_quality()
    stream_cost()


if __name__ == "__main__":
    main()
