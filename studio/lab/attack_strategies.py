"""The model strategies of ``processor-studio lab attack``: their options, the estimate, the consent, the source.

    processor-studio lab attack DESIGN --strategies paraphrase,translate:zu+gd,pair,crescendo
        --attacker-model ID [--attacker-api-base URL] [--judge-model ID] [--judge-api-base URL]
        [--max-iterations N] [--yes]
    processor-studio lab attack --list-strategies

Strategies are off until ``--strategies`` names them (:mod:`lab.strategies`). Before anything is called the
command prints the estimate — calls, tokens and price per model, "unknown" where litellm's cost map does not know
it — and asks to go on; ``--yes`` goes on without asking, and without a terminal to ask on (CI) the command refuses
to start unless ``--yes`` is given (exit 2). PAIR and crescendo try their attempts on the design in ``model`` mode
(its own model answers), whatever ``--mode`` the variants then run in. A variant a model failed to write is not run:
it is listed on stderr and in the JSON report (``strategy_errors``). With ``--results FILE`` the variants written are
kept in ``FILE.strategies.jsonl``: a resumed run reads them back (the estimate counts only what is left to write).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import AsyncGenerator, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from lab.texts import text
from studio.lab.cli import EXIT_OK, BadInput, _recipe

if TYPE_CHECKING:  # the runtime is imported when a run needs it, not when the command starts
    from lab.converters import Variant
    from lab.corpus import Case
    from lab.strategies import StrategyPlan, StrategyVariant


def add_strategy_options(parser: argparse.ArgumentParser) -> None:
    """``lab attack``'s strategy options (module docstring)."""
    parser.add_argument(
        "--strategies",
        metavar="SPECS",
        help="model strategies separated by commas, each name[:argument] (paraphrase,translate:zu+gd,tone,tense,"
        "pair,crescendo); off unless named; see --list-strategies",
    )
    parser.add_argument("--list-strategies", action="store_true", help="print every strategy and its description")
    parser.add_argument("--attacker-model", metavar="ID", help="the model that writes attacks (a litellm model id)")
    parser.add_argument("--attacker-api-base", metavar="URL", help="the attacker's local OpenAI-compatible server")
    parser.add_argument("--judge-model", metavar="ID", help="the model that scores the design's replies (PAIR)")
    parser.add_argument("--judge-api-base", metavar="URL", help="the judge's local OpenAI-compatible server")
    parser.add_argument(
        "--max-iterations", type=int, default=5, metavar="N", help="PAIR's rounds and crescendo's turns (default 5)"
    )
    parser.add_argument("--yes", action="store_true", help="start the strategies without asking after the estimate")


def list_strategies(out: TextIO = sys.stdout) -> int:
    from lab.strategies import load_strategies

    registry = load_strategies()
    width = max((len(name) for name in registry), default=0)
    for name, strategy in registry.items():
        print(f"{name.ljust(width)}  {strategy.description}", file=out)
    for error in registry.errors:
        print(f"skipped {error.entry_point} ({error.source}): {error.message}", file=sys.stderr)
    return EXIT_OK


def plan_strategies(
    args: argparse.Namespace,
    design: Any,
    seeds: Sequence[Case],
    language: str,
    *,
    seed: int | str,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
) -> StrategyPlan | None:
    """The run's strategies (None without ``--strategies``), after the estimate over ``seeds`` and the consent."""
    from lab.strategies import StrategyError, StrategyPlan

    stdin = stdin or sys.stdin
    stderr = stderr or sys.stderr
    if not args.strategies:
        for option in ("attacker_model", "judge_model"):
            if getattr(args, option):
                raise BadInput(f"--{option.replace('_', '-')} is for --strategies, which names none")
        return None
    if not 1 <= args.max_iterations <= 50:
        raise BadInput(f"--max-iterations must be from 1 to 50, got {args.max_iterations}")
    try:
        plan = StrategyPlan.build(
            args.strategies,
            attacker=args.attacker_model,
            judge=args.judge_model,
            attacker_api_base=args.attacker_api_base,
            judge_api_base=args.judge_api_base,
            agent_factory=_design_agents(design),
            design_model=design.model.model,
            design_api_base=design.model.api_base,
            seed=seed,
            max_iterations=args.max_iterations,
        )
    except StrategyError as error:
        raise BadInput(f"--strategies: {error}") from None
    if args.results is not None:  # a resumed run reads the variants back instead of asking the models again
        plan.keep_variants(strategy_cache_path(args.results))
    for line in plan.estimate(seeds).lines(language):
        print(line, file=stderr)
    if args.yes:
        return plan
    if not stdin.isatty():
        raise BadInput(text(language, "the strategies call models (see the estimate): pass --yes to start them"))
    print(text(language, "Start? [y/N] "), end="", file=stderr, flush=True)
    answer = stdin.readline().strip().lower()
    if answer not in ("y", "yes", "是", "好"):
        raise BadInput(text(language, "not started: the estimate was declined"))
    return plan


def _design_agents(design: Any) -> Callable[[], Any]:
    """Fresh agents of the design in this process, its own model answering (PAIR's and crescendo's attempts)."""
    return _recipe(design, "model").factory()  # type: ignore[no-any-return]


async def strategy_source(
    plan: StrategyPlan,
    seeds: Callable[[], Sequence[Case]],
    failed: list[StrategyVariant],
    language: str = "en",
    stderr: TextIO | None = None,
    *,
    progress: bool = True,
) -> AsyncGenerator[Variant, None]:
    """The attack engine's variant source: the strategies' variants of the seeds the baseline stopped (``seeds``
    is read when the engine first asks, after the baseline); a variant a model failed to write goes to ``failed``.

    Model calls are slow and the engine runs a source's variants in batches, so the strategies say how far they are
    on stderr (about every tenth of the way) unless ``progress`` is off (the studio shows its own)."""
    stderr = stderr or sys.stderr
    chosen = seeds()
    total = len(chosen) * sum(strategy.variants_per_seed for strategy in plan.strategies)
    step = max(1, total // 10)
    written = 0
    try:
        async for variant in plan.variants(chosen):
            written += 1
            if progress and (written % step == 0 or written == total):
                line = text(
                    language, "lab attack: strategies: {done}/{total} variants written", done=written, total=total
                )
                print(line, file=stderr, flush=True)
            if variant.failed:
                failed.append(variant)
                continue
            yield variant
    finally:
        plan.close()


def strategy_cache_path(results: Path) -> Path:
    """Where ``--results FILE`` keeps the strategies' variants: ``FILE.strategies.jsonl`` beside it."""
    return results.with_name(results.name + ".strategies.jsonl")


def strategy_report(plan: StrategyPlan, errors: list[dict[str, Any]]) -> dict[str, Any]:
    """What the JSON report says of the strategies: the estimate they started with, the calls they made (tokens as
    the providers counted them), and the variants no model wrote."""
    estimated = plan.last_estimate
    return {
        "strategy_estimate": estimated.to_dict() if estimated is not None else None,
        "strategy_calls": plan.context.spend.to_dict(),
        "strategy_errors": errors,
    }


def strategy_errors(
    failed: Sequence[StrategyVariant], language: str, stderr: TextIO | None = None
) -> list[dict[str, Any]]:
    """Say on stderr which variants no model wrote, and return them for the JSON report."""
    stderr = stderr or sys.stderr
    for variant in failed:
        print(
            text(
                language,
                "lab attack: the strategy {strategy} wrote no variant of {seed}: {error}",
                seed=variant.case_id,
                strategy=variant.chain,
                error=variant.error,
            ),
            file=stderr,
        )
    return [
        {"seed": v.case_id, "strategy": v.chain, "code": v.error_code, "error": v.error, "params": v.error_params}
        for v in failed
    ]


__all__ = [
    "add_strategy_options",
    "list_strategies",
    "plan_strategies",
    "strategy_errors",
    "strategy_report",
    "strategy_source",
]
