"""``CostGuard``: a spending budget per run, thread or user — block (or warn) once it is used up.

::

    from processors.builtin.cost_guard import CostGuard

    Agent(id="a", model="openai/gpt-4o-mini",
          input_processors=[CostGuard(max_cost=0.50, scope="resource", window_hours=24, warn_at_percent=80)])

Mastra's ``TokenCostControl`` / ``CostGuardProcessor`` (``process_input_step``). After every model call
(``process_llm_response``) the call's cost is computed from its token usage and the model's per-token prices
— litellm's offline price map (:mod:`processors.builtin.model_data`), or the ``*_cost_per_million`` options for
models it does not know — and added to a ledger under the scope's key: the run id, the thread id or the
resource (user) id. Before every model call (``process_input_step``) the spend within ``window_hours`` is
compared with ``max_cost``:

* at or over the budget, ``block`` aborts with ``message`` and the metadata ``{"processorId", "usage",
  "maxCost", "cost", "scope", "scopeKey", "threshold": "hard"}`` (``usage`` and a per-model ``breakdown`` when
  ``include_breakdown``); ``warn`` logs, reports to ``on_violation`` once per run, and lets the call through;
* at ``warn_at_percent`` of the budget, a soft warning (``"threshold": "soft"``) is reported once per run.

A run without the scope's id (no thread, no resource) is not limited, as Mastra fails open. A cached answer
(``from_cache``) costs nothing. The ledger is in process by default; pass ``ledger=`` (a :class:`CostLedger`) to
share budgets between processes or keep them across restarts.
"""

from __future__ import annotations

import logging
import math
import time
from collections import defaultdict
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

from pydantic import Field

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.builtin.model_data import ModelPrice, cost_of, model_price
from processors.builtin.violation_reports import report_violation
from processors.pipeline.processor import HookArgs, ProcessInputStepArgs, ProcessLLMResponseArgs
from processors.tripwire import TripWire
from processors.usage import Usage

logger = logging.getLogger(__name__)


def dollars(amount: float) -> str:
    """An amount of US dollars as the guard's sentences write it: four decimals (``0.5000``), more for a smaller
    amount, to its first two significant digits (``0.00002``, ``0.000015``), never in exponent notation."""
    if amount == 0 or not math.isfinite(amount):
        return f"{amount:.4f}"
    decimals = max(4, 1 - math.floor(math.log10(abs(amount))))
    text = f"{amount:.{decimals}f}"
    if decimals > 4:  # 0.000020 → 0.00002 (no zeros past the significant digits, none below four decimals)
        whole, _, fraction = text.partition(".")
        text = f"{whole}.{fraction.rstrip('0').ljust(4, '0')}"
    return text


@runtime_checkable
class CostLedger(Protocol):
    """Where spending is recorded: ``add`` a cost under a key, ``total`` since a time (epoch seconds)."""

    def add(self, key: str, cost: float, usage: Usage, model_id: str, at: float) -> None: ...

    def total(self, key: str, since: float | None = None) -> float: ...

    def breakdown(self, key: str, since: float | None = None) -> dict[str, dict[str, float]]: ...


class MemoryLedger:
    """An in-process ledger: every cost with its time, per key."""

    def __init__(self) -> None:
        self._entries: dict[str, list[tuple[float, float, Usage, str]]] = defaultdict(list)

    def add(self, key: str, cost: float, usage: Usage, model_id: str, at: float) -> None:
        self._entries[key].append((at, cost, usage, model_id))

    def _since(self, key: str, since: float | None) -> list[tuple[float, float, Usage, str]]:
        entries = self._entries.get(key, [])
        return entries if since is None else [entry for entry in entries if entry[0] >= since]

    def total(self, key: str, since: float | None = None) -> float:
        return sum(entry[1] for entry in self._since(key, since))

    def breakdown(self, key: str, since: float | None = None) -> dict[str, dict[str, float]]:
        """Per model: cost, calls, input and output tokens."""
        result: dict[str, dict[str, float]] = {}
        for _at, cost, usage, model_id in self._since(key, since):
            row = result.setdefault(model_id, {"cost": 0.0, "calls": 0, "inputTokens": 0, "outputTokens": 0})
            row["cost"] += cost
            row["calls"] += 1
            row["inputTokens"] += usage.input_tokens
            row["outputTokens"] += usage.output_tokens
        return result

    def usage(self, key: str, since: float | None = None) -> Usage:
        total = Usage()
        for entry in self._since(key, since):
            total = total + entry[2]
        return total


class CostGuardOptions(ProcessorOptions):
    max_cost: float = Field(default=1.0, gt=0, le=1_000_000, description="The budget in US dollars.")
    scope: Literal["run", "thread", "resource"] = Field(
        default="resource", description="What the budget is for: one run, one conversation, or one user."
    )
    window_hours: float | None = Field(
        default=168,
        gt=0,
        le=87_600,
        description="Only spending in this many past hours counts (unset: since the ledger began).",
    )
    strategy: Literal["block", "warn"] = Field(
        default="block", description="Over budget: refuse the model call (block) or only report it (warn)."
    )
    message: str | None = Field(
        default=None, max_length=1_000, description="The tripwire reason when blocking (a default names the budget)."
    )
    warn_at_percent: float | None = Field(
        default=None, gt=0, lt=100, description="Report a soft warning once this share of the budget is spent."
    )
    include_breakdown: bool = Field(default=False, description="Add a per-model cost breakdown to the metadata.")
    price_model: str | None = Field(
        default=None,
        max_length=200,
        description="Price calls as this model (litellm's name, e.g. gpt-4o-mini) instead of the run's model.",
    )
    input_cost_per_million: float | None = Field(
        default=None, ge=0, le=1_000_000, description="USD per million input tokens (overrides the price map)."
    )
    output_cost_per_million: float | None = Field(
        default=None, ge=0, le=1_000_000, description="USD per million output tokens (overrides the price map)."
    )


class CostGuard(BuiltinProcessor):
    """Tracks what model calls cost (litellm's offline prices) and blocks or warns once a budget is spent."""

    Options: ClassVar[type[ProcessorOptions]] = CostGuardOptions
    type_name: ClassVar[str] = "CostGuard"
    id = "cost-guard"
    name = "Cost Guard"
    description = "A spending budget per run, thread or user, priced with litellm's offline price map."
    texts: ClassVar[Mapping[str, str]] = {
        # amounts as dollars() writes them (a tiny budget keeps its significant digits: $0.00002, not $0.0000)
        "used_up": "Cost budget of ${budget} for this {scope} is used up (spent ${spent})",
        "nearly_used": "Cost budget of ${budget} for this {scope} is {share:.0%} spent (${spent})",
        # the scope inside those sentences, a word the studio translates (its value stays the English's)
        "scope=run": "run",
        "scope=thread": "thread",
        "scope=resource": "resource",
    }

    options: CostGuardOptions

    def __init__(self, *, ledger: CostLedger | None = None, **options: Any) -> None:
        super().__init__(**options)
        self.ledger: CostLedger = ledger if ledger is not None else MemoryLedger()

    # ----------------------------------------------------------------------------------------- pricing
    def price(self, model_id: str) -> ModelPrice | None:
        """The per-token prices used for ``model_id`` (the options override the price map)."""
        options = self.options
        known = model_price(options.price_model or model_id)
        if options.input_cost_per_million is None and options.output_cost_per_million is None:
            return known
        return ModelPrice(
            input=(options.input_cost_per_million / 1e6)
            if options.input_cost_per_million is not None
            else (known.input if known else 0.0),
            output=(options.output_cost_per_million / 1e6)
            if options.output_cost_per_million is not None
            else (known.output if known else 0.0),
            cached_input=known.cached_input if known else None,
        )

    def scope_key(self, args: HookArgs) -> str | None:
        scope = self.options.scope
        if scope == "run":
            return f"run:{args.run_id}" if args.run_id else None
        value = args.request_context.get("thread_id" if scope == "thread" else "resource_id")
        return None if value is None else f"{scope}:{value}"

    def spent(self, key: str, state: dict[str, Any]) -> float:
        if self.options.scope == "run":
            return float(state.get("cost", 0.0))
        hours = self.options.window_hours
        since = None if hours is None else time.time() - hours * 3600
        return self.ledger.total(key, since)

    # ----------------------------------------------------------------------------------------- hooks
    async def process_input_step(self, args: ProcessInputStepArgs) -> None:
        key = self.scope_key(args)
        if key is None:
            return
        options = self.options
        state = args.state
        cost = self.spent(key, state)
        if cost >= options.max_cost:
            metadata = self._metadata(key, cost, "hard", state)
            values: dict[str, Any] = {
                "budget": dollars(options.max_cost),
                "scope": options.scope,
                "spent": dollars(cost),
            }
            if options.strategy == "block":
                if options.message:  # the user's own words: shown as written, in every language
                    raise TripWire(options.message, metadata=metadata, processor_id=self.id)
                raise self.tripwire("used_up", metadata=metadata, **values)
            reason = options.message or self.sentence("used_up", **values)  # by its code, like the tripwire
            if not state.get("warned_hard"):
                state["warned_hard"] = True
                logger.warning("CostGuard: %s", reason)
                pending = report_violation(self, self.id, reason, metadata)
                if pending is not None:
                    await pending
            return
        percent = options.warn_at_percent
        if percent is not None and cost >= options.max_cost * percent / 100 and not state.get("warned_soft"):
            state["warned_soft"] = True
            reason = self.sentence(
                "nearly_used",
                budget=dollars(options.max_cost),
                scope=options.scope,
                share=cost / options.max_cost,
                spent=dollars(cost),
            )
            logger.warning("CostGuard: %s", reason)
            pending = report_violation(self, self.id, reason, self._metadata(key, cost, "soft", state))
            if pending is not None:
                await pending

    def process_llm_response(self, args: ProcessLLMResponseArgs) -> None:
        if args.from_cache:
            return
        usage = _usage_of(args.chunks)
        if usage is None:
            return
        model_id = getattr(args.model, "model_id", "") or ""
        price = self.price(model_id)
        cost = cost_of(usage, price) if price is not None else 0.0
        if price is None:
            logger.debug("CostGuard: no price known for %r; counted as free", model_id)
        state = args.state
        state["cost"] = state.get("cost", 0.0) + cost
        state.setdefault("usage", []).append(usage.model_dump(by_alias=True, exclude_none=True))
        key = self.scope_key(args)
        if key is not None and self.options.scope != "run":  # a run's spend lives in its state
            self.ledger.add(key, cost, usage, model_id, time.time())

    def _metadata(self, key: str, cost: float, threshold: str, state: dict[str, Any]) -> dict[str, Any]:
        options = self.options
        hours = options.window_hours
        since = None if hours is None else time.time() - hours * 3600
        metadata: dict[str, Any] = {
            "processorId": self.id,
            "maxCost": options.max_cost,
            "cost": round(cost, 10),
            "scope": options.scope,
            "scopeKey": key,
            "threshold": threshold,
        }
        if options.scope == "run":
            usage = Usage()
            for item in state.get("usage", []):
                usage = usage + Usage.model_validate(item)
            metadata["usage"] = usage.model_dump(by_alias=True, exclude_none=True)
        else:
            ledger_usage = getattr(self.ledger, "usage", None)
            if callable(ledger_usage):
                metadata["usage"] = ledger_usage(key, since).model_dump(by_alias=True, exclude_none=True)
            if options.include_breakdown:
                metadata["breakdown"] = self.ledger.breakdown(key, since)
        return metadata


def _usage_of(chunks: list[dict[str, Any]]) -> Usage | None:
    """The usage reported by the step's ``finish`` record (the runtime appends it to the recorded chunks)."""
    for chunk in reversed(chunks):
        if chunk.get("type") != "finish":
            continue
        payload = chunk.get("payload")
        if hasattr(payload, "model_dump"):
            payload = payload.model_dump(by_alias=True)
        if not isinstance(payload, dict):
            return None
        usage = (payload.get("output") or {}).get("usage")
        return Usage.model_validate(usage) if isinstance(usage, dict) else None
    return None
