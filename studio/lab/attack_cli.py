"""``processor-studio lab attack``: look for the variants of stopped attacks that get through a design, for CI.

    processor-studio lab attack DESIGN [--corpus FILE ...] [--converters CHAINS ...] [--budget N] [--seed S]
        [--seeds stopped|attacks] [--mode guardrails|model] [--concurrency N] [--processes P] [--results FILE]
        [--json OUT] [--junit OUT] [--html OUT] [--bypasses OUT.jsonl] [--regression-test OUT.py]
        [--fail-over-asr X] [--report-lang en|zh_CN|zh_TW] [--allow-mcp NAME ...] [--skip-bad-lines]
    processor-studio lab attack --list-converters

The engine is :mod:`lab.attack`: the corpora's attacks run first (the baseline); those the design blocks are the
seeds; each seed goes through each converter chain (``--converters base64,leetspeak|rot13``: chains separated by
commas, a chain's steps by ``|``; by default every converter alone), the budget's worth of variants drawn with the
seed when there are more; a variant that is not blocked is a bypass. Reports as ``processor-studio lab``'s: JSON
with the robustness matrix, JUnit with one failing test per bypass, HTML with the heat map; ``--bypasses`` writes
the bypasses as a corpus, ``--regression-test`` as a pytest file that fails until the design stops them
(:mod:`studio.lab.bypass_tests`). Exit codes as ``lab``'s: 0, 1 when the attack success rate is over
``--fail-over-asr``, 2 on bad input, 130 when interrupted (``--results`` keeps what finished; run again to resume).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lab.process_run import CASES_PER_PROCESS
from lab.texts import percent, text
from studio.lab.attack_strategies import (
    add_strategy_options,
    list_strategies,
    plan_strategies,
    strategy_errors,
    strategy_report,
    strategy_source,
)
from studio.lab.cli import (
    EXIT_CANCELLED,
    EXIT_OK,
    EXIT_THRESHOLD,
    BadInput,
    Progress,
    _design,
    _fraction,
    _language,
    _mcp_credentials,
    _recipe,
    drive_to_end,
)

USAGE = "processor-studio lab attack DESIGN [--corpus FILE ...] [--converters CHAINS ...] [--budget N] [--seed S] ..."


def attack_parser() -> argparse.ArgumentParser:
    """The options of ``lab attack`` (a model strategy's options are added here too)."""
    parser = argparse.ArgumentParser(
        prog="processor-studio lab attack",
        description="Look for variants of the attacks a design stops that get through it (converters, budget, seed).",
    )
    parser.add_argument("design", nargs="?", help="a design JSON file, or 'sample' for the built-in sample agent")
    parser.add_argument(
        "--corpus",
        action="append",
        type=Path,
        metavar="FILE",
        help="a corpus whose attacks seed the variants; repeat for several (default: the bundled corpora)",
    )
    parser.add_argument(
        "--converters",
        action="append",
        metavar="CHAINS",
        help="converter chains separated by commas, a chain's steps by '|' (base64,leetspeak|rot13); repeat for "
        "more (default: every converter alone; see --list-converters)",
    )
    parser.add_argument("--list-converters", action="store_true", help="print every converter's name and description")
    parser.add_argument("--budget", type=int, metavar="N", help="at most N variants (default: seeds x chains)")
    parser.add_argument("--seed", default="0", metavar="S", help="the seed of the variants: same seed, same variants")
    parser.add_argument(
        "--seeds",
        choices=("stopped", "attacks"),
        default="stopped",
        help="stopped: vary the attacks the design blocks (default); attacks: every attack of the corpora",
    )
    parser.add_argument(
        "--mode",
        choices=("guardrails", "model"),
        default="guardrails",
        help="guardrails: the lanes around a fixed reply, no model call (default); model: the design's model",
    )
    parser.add_argument("--concurrency", type=int, default=4, metavar="N", help="cases at once (default 4)")
    parser.add_argument(
        "--processes",
        type=int,
        metavar="P",
        help=f"worker processes (default: 1 under {CASES_PER_PROCESS} cases, else up to one per CPU)",
    )
    parser.add_argument("--results", type=Path, metavar="FILE", help="append each result here; run again to resume")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the JSON report (matrix, tallies, variants)")
    parser.add_argument("--junit", type=Path, metavar="OUT", help="write JUnit XML: one failing test per bypass")
    parser.add_argument("--html", type=Path, metavar="OUT", help="write a self-contained HTML report (heat map)")
    parser.add_argument("--bypasses", type=Path, metavar="OUT", help="write the bypasses as a JSONL corpus")
    parser.add_argument(
        "--regression-test",
        type=Path,
        metavar="OUT",
        help="write the bypasses as a pytest file that fails until the design stops them",
    )
    parser.add_argument(
        "--fail-over-asr",
        type=_fraction,
        metavar="X",
        help="exit 1 when the share of variants that get through is over X (0 to 1)",
    )
    parser.add_argument("--skip-bad-lines", action="store_true", help="skip malformed corpus lines and list them")
    parser.add_argument("--report-lang", choices=("en", "zh_CN", "zh_TW"), help="language of the lines and HTML")
    parser.add_argument(
        "--allow-mcp", action="append", default=[], metavar="NAME", help="let the design's stdio MCP server NAME run"
    )
    add_strategy_options(parser)
    return parser


def chain_specs(values: Sequence[str] | None, converters: Any) -> list[str]:
    """``--converters`` values → chain strings, each checked against the registry (bad input names the problem)."""
    from lab.converters import ConverterError

    if not values:
        return list(converters)
    specs = [spec.strip() for value in values for spec in value.split(",") if spec.strip()]
    if not specs:
        raise BadInput("--converters names no chain")
    for spec in specs:
        try:
            converters.chain(spec)
        except ConverterError as error:
            raise BadInput(f"--converters {spec}: {error}") from None
    return list(dict.fromkeys(specs))


def plan_sources(args: argparse.Namespace, cases: Sequence[Any]) -> list[Any]:
    """The variant sources the options ask for beside the chains (:attr:`lab.attack.AttackPlan.sources`): none yet;
    a model strategy's options (``--strategies``) add theirs here."""
    return []


def list_converters(converters: Any) -> int:
    width = max((len(name) for name in converters), default=0)
    for name in converters:
        converter = converters[name]
        mark = " (reversible)" if converter.reversible else ""
        print(f"{name.ljust(width)}  {converter.description}{mark}")
    for error in converters.errors:
        print(f"skipped {error.entry_point} ({error.source}): {error.message}", file=sys.stderr)
    return EXIT_OK


def attack(argv: Sequence[str]) -> int:
    """``processor-studio lab attack ...`` (module docstring); returns the exit code."""
    from lab.converters import load_converters

    args = attack_parser().parse_args(list(argv))
    converters = load_converters()
    if args.list_converters:
        return list_converters(converters)
    if args.list_strategies:
        return list_strategies()
    if not args.design:
        raise BadInput(f"a DESIGN is needed; usage: {USAGE}")
    if args.concurrency < 1:
        raise BadInput(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.processes is not None and args.processes < 1:
        raise BadInput(f"--processes must be at least 1, got {args.processes}")
    if args.budget is not None and args.budget < 0:
        raise BadInput(f"--budget must be at least 0, got {args.budget}")
    return _attack(args, converters)


def _attack(args: argparse.Namespace, converters: Any) -> int:
    from lab.attack import AttackPlan, AttackRun, Robustness, write_bypasses
    from lab.corpus import CorpusError, bundled_corpora, load_corpora
    from lab.process_run import auto_processes
    from lab.reports import attack_html_report, attack_json_report, attack_junit_report, write_atomically
    from lab.worker_pool import WorkerPool
    from studio.lab.design import design_fingerprint

    language = _language(args.report_lang)
    # --strategies alone runs the strategies only; --converters adds chains (every converter when neither is named)
    specs = [] if args.strategies and not args.converters else chain_specs(args.converters, converters)
    design = _design(args.design)
    mcp_credentials = _mcp_credentials(design, args.mode, args.allow_mcp, language)
    corpora = args.corpus or bundled_corpora()
    try:
        corpus = load_corpora(corpora, skip_bad=args.skip_bad_lines)
    except CorpusError as error:
        raise BadInput(str(error)) from None
    for skipped in corpus.skipped:
        print(text(language, "lab: skipped {line}", line=skipped), file=sys.stderr)
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    plan = AttackPlan(
        corpus.cases,
        chains=specs,
        budget=args.budget,
        seed=seed,
        seeds=args.seeds,
        sources=plan_sources(args, corpus.cases),
        converters=converters,
    )
    strategies = plan_strategies(args, design, plan.attacks, language, seed=seed)  # the estimate, the consent
    expected = len(plan.attacks) + plan.variant_count(len(plan.attacks))
    processes = args.processes or (1 if expected < CASES_PER_PROCESS else auto_processes(expected, args.concurrency))
    pool = WorkerPool(processes, warm=args.mode == "model") if processes > 1 else None
    if pool is not None:
        pool.start()
    found: list[Any] = []
    try:
        recipe = _recipe(design, args.mode, mcp_credentials)
        info = {"id": design.id, "name": design.name, "fingerprint": design_fingerprint(design)}
        run = AttackRun(
            plan,
            recipe,
            processes=processes,
            pool=pool,
            mode=args.mode,
            concurrency=args.concurrency,
            results_path=args.results,
            design=info,
        )
        failed: list[Any] = []  # the strategies' variants no model wrote
        if strategies is not None:
            plan.sources = [*plan.sources, strategy_source(strategies, lambda: run.seeds, failed, language)]
        if not drive_to_end(_drive(run, found, language), language):
            return EXIT_CANCELLED
    finally:
        if pool is not None:
            pool.close()
    settings = {
        "seed": seed,
        "budget": args.budget,
        "seeds": args.seeds,
        "chains": specs,
        "corpora": [str(path) for path in corpora],
        "strategies": args.strategies,
    }
    errors = strategy_errors(failed, language) if strategies is not None else []
    if args.json:
        report = attack_json_report(found, design=info, mode=args.mode, attack=settings)
        report["baseline"] = {"attacks": len(run.baseline), "stopped": [case.id for case in run.seeds]}
        if corpus.skipped:
            report["skipped"] = [str(item) for item in corpus.skipped]
        if strategies is not None:
            report.update(strategy_report(strategies, errors))
        write_atomically(args.json, json.dumps(report, ensure_ascii=False, indent=1))
    if args.junit:
        write_atomically(args.junit, attack_junit_report(found, name=f"guardrail lab attack: {design.name}"))
    if args.html:
        page = attack_html_report(found, design=info, mode=args.mode, attack=settings, language=language)
        write_atomically(args.html, page)
    robustness = Robustness.of(found)
    if args.bypasses:
        count = write_bypasses(args.bypasses, found)
        print(
            text(language, "lab attack: {count} bypasses written to {path}", count=count, path=args.bypasses),
            file=sys.stderr,
        )
    if args.regression_test:
        from lab.attack import bypass_cases
        from studio.lab.bypass_tests import bypass_regression_test

        write_atomically(args.regression_test, bypass_regression_test(design, bypass_cases(found)))
    total = robustness.total
    print(
        text(
            language,
            "lab attack: {seeds} of {attacks} attacks stopped (the seeds); {variants} variants, {bypasses} got "
            "through (attack success rate {asr}), errors {errors}",
            seeds=len(run.seeds),
            attacks=len(run.baseline),
            variants=total.variants,
            bypasses=total.bypassed,
            asr=percent(language, total.asr),
            errors=total.errors,
        ),
        file=sys.stderr,
    )
    if args.fail_over_asr is not None and (total.asr or 0.0) > args.fail_over_asr:
        reason = text(
            language,
            "attack success rate {asr} is over {limit}",
            asr=percent(language, total.asr),
            limit=f"{args.fail_over_asr:.1%}",
        )
        print(text(language, "lab: FAILED: {reason}", reason=reason), file=sys.stderr)
        return EXIT_THRESHOLD
    return EXIT_OK


async def _drive(run: Any, found: list[Any], language: str) -> None:
    progress = Progress(sys.stderr, max(1, run.total), 0, language)
    counts: dict[str, int] = {}
    try:
        async for item in run.results():
            found.append(item)
            key = "bypasses" if item.bypassed else item.result.outcome
            counts[key] = counts.get(key, 0) + 1
            progress.total = run.total
            progress.step = max(1, run.total // 10)
            progress.update(run.done, counts)
    finally:
        progress.close()


__all__ = ["attack", "attack_parser", "chain_specs", "plan_sources"]
