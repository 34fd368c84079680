"""``ClassifierGuard``: a text-classification model from a local folder as a guard (Prompt Guard 2, ProtectAI's
deberta-v3 prompt-injection v2, or a model of your own).

Point it at a folder holding an ONNX export, its ``tokenizer.json`` and ``config.json`` (see README, "Classifier
models"); name the label that means "attack" (one of the model's ``id2label``; empty means the second label of a
two-label model, the usual "benign / attack" order) and a threshold on that label's probability::

    ClassifierGuard(model_folder="~/models/prompt-guard-2-22m", attack_label="LABEL_1", threshold=0.8)

It checks the user's messages (input lane), the completed answer (output lane, ``process_output_result``) and,
in the output lane, each tool result before the model reads it. A text longer than ``max_length`` tokens is read
in overlapping windows (``stride`` tokens shared) and scored by its worst window. ``block`` ends the run with a
tripwire whose metadata carry the score, the label and the threshold; ``warn`` logs and reports the violation and
lets the text through. Either way the scores go into the processor's state (``last_score``, ``max_score``,
``scores``), where traces and the lab read them.

The model is loaded once per process (:data:`~processors.builtin.classifier_model.MODEL_CACHE`) and every
load and every scoring runs in a worker thread, so an event loop driving a UI never waits for the model.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field, model_validator

from processors.builtin.base import BuiltinProcessor, ProcessorOptions
from processors.builtin.classifier_folder import FOLDER_TEXTS, ClassifierModelError
from processors.builtin.text_checks import check_messages
from processors.builtin.violation_reports import report_violation
from processors.messages import Message
from processors.pipeline.processor import HookArgs, ProcessInputArgs, ProcessOutputResultArgs, ProcessToolResultArgs

if TYPE_CHECKING:
    from processors.builtin.classifier_model import TextClassifier

__all__ = ["ClassifierGuard", "ClassifierGuardOptions"]

logger = logging.getLogger(__name__)

#: Scores kept in the processor's state per run (the lab and the inspector read them; a long run keeps the last).
STATE_SCORES = 200


class ClassifierGuardOptions(ProcessorOptions):
    model_folder: str = Field(
        default="",
        description="Folder with the model's .onnx file, tokenizer.json and config.json",
        json_schema_extra={"x-folder": True},
    )
    attack_label: str = Field(
        default="",
        description="The model's label that means attack (empty: the second of two labels)",
        json_schema_extra={"x-model-labels": "model_folder"},
    )
    threshold: float = Field(default=0.5, ge=0.0, le=1.0, description="Flag a text whose attack score reaches this")
    max_length: int = Field(default=512, ge=8, le=8192, description="Tokens per window the model reads")
    stride: int = Field(default=64, ge=0, le=4096, description="Tokens two windows of a long text share")
    strategy: Literal["block", "warn"] = Field(default="block", description="block or warn")
    last_message_only: bool = Field(default=False, description="Check only the last message")
    check_tool_results: bool = Field(default=True, description="In the output lane: check tool results too")
    onnx_file: str = Field(
        default="", title="ONNX file", description="The .onnx file to run when the folder holds several"
    )

    texts: ClassVar[Mapping[str, str]] = {
        "stride_too_long": "stride must be smaller than max_length",
    }

    @model_validator(mode="after")
    def _stride_inside_window(self) -> ClassifierGuardOptions:
        if self.stride >= self.max_length:
            raise self.problem("stride_too_long")
        return self


class ClassifierGuard(BuiltinProcessor):
    """Score texts with a local text-classification model; block or warn above a threshold. See the module."""

    id = "classifier-guard"
    name = "Classifier guard"
    description = "Runs a text-classification model from a local folder (ONNX) and flags texts it scores as attacks."
    texts: ClassVar[Mapping[str, str]] = {
        **FOLDER_TEXTS,  # its model folder's problems (ClassifierModelError)
        "flagged_input": "Classifier flagged the input: {label} score {score:.2f} (threshold {threshold:.2f})",
        "flagged_answer": "Classifier flagged the answer: {label} score {score:.2f} (threshold {threshold:.2f})",
        "flagged_tool": (
            "Classifier flagged the result of tool '{tool}': {label} score {score:.2f} (threshold {threshold:.2f})"
        ),
    }
    type_name: ClassVar[str] = "ClassifierGuard"
    needs_model: ClassVar[bool] = False
    Options = ClassifierGuardOptions
    options: ClassifierGuardOptions

    async def load(self) -> TextClassifier:
        """The guard's model, loaded (once per process) in a worker thread."""
        return await asyncio.to_thread(_cached_model, self.options.model_folder, self.options.onnx_file)

    def label_index(self, model: TextClassifier) -> int:
        """The index of the attack label among the model's labels."""
        wanted = self.options.attack_label
        if not wanted:
            if len(model.labels) == 2:
                return 1
            labels = ", ".join(model.labels)
            raise ClassifierModelError("choose_label", "choose_label", labels=labels)
        if wanted not in model.labels:
            labels = ", ".join(model.labels)
            raise ClassifierModelError("unknown_label", "unknown_label", label=repr(wanted), labels=labels)
        return model.labels.index(wanted)

    async def score(self, texts: list[str]) -> list[float]:
        """The attack probability of each text (the worst window of a long one), computed in a worker thread."""
        model = await self.load()
        return await self._score(model, self.label_index(model), texts)

    async def _score(self, model: TextClassifier, label: int, texts: list[str]) -> list[float]:
        options = self.options
        return await asyncio.to_thread(model.scores, texts, label, max_length=options.max_length, stride=options.stride)

    # -------------------------------------------------------------------------------------------- hooks
    async def process_input(self, args: ProcessInputArgs) -> list[Message]:
        return await check_messages(
            args.messages,
            ("user",),
            lambda message, text: self._check(args, message, text, "the input"),
            last_only=self.options.last_message_only,
        )

    async def process_output_result(self, args: ProcessOutputResultArgs) -> list[Message]:
        return await check_messages(
            args.messages,
            ("assistant",),
            lambda message, text: self._check(args, message, text, "the answer"),
            last_only=True,
        )

    async def process_tool_result(self, args: ProcessToolResultArgs) -> None:
        """Score a tool's result before the model reads it (indirect prompt injection)."""
        if not self.options.check_tool_results:
            return
        result = args.result
        text = result if isinstance(result, str) else json.dumps(result, default=str, ensure_ascii=False)
        if text:
            await self._verdict(args, text, f"the result of tool '{args.tool_name}'")

    async def _check(self, args: HookArgs, message: Message, text: str, where: str) -> Message:
        await self._verdict(args, text, where)
        return message

    async def _verdict(self, args: HookArgs, text: str, where: str) -> None:
        model = await self.load()
        index = self.label_index(model)
        (score,) = await self._score(model, index, [text])
        flagged = score >= self.options.threshold
        self._record(args, score, where, flagged)
        if not flagged:
            return
        label = model.labels[index]
        key, params = self._sentence(where, label, score, tool=getattr(args, "tool_name", None))
        metadata: dict[str, Any] = {
            "score": score,
            "label": label,
            "threshold": self.options.threshold,
            "where": where,
            "model": self.options.model_folder,
        }
        if self.options.strategy == "block":
            raise self.tripwire(key, metadata=metadata, **params)
        reason = self.sentence(key, **params)  # by its code, like the tripwire
        logger.warning("%s", reason)
        outcome = report_violation(self, args.processor_id, reason, metadata)
        if outcome is not None:
            await outcome

    def _sentence(self, where: str, label: str, score: float, *, tool: str | None) -> tuple[str, dict[str, Any]]:
        """The key and values of the sentence for a text scored as an attack (its tripwire's, or its report's when
        it warns); ``where`` is the input, the answer or a tool's result."""
        key = {"the input": "flagged_input", "the answer": "flagged_answer"}.get(where, "flagged_tool")
        params: dict[str, Any] = {"label": label, "score": score, "threshold": self.options.threshold}
        if key == "flagged_tool":
            params["tool"] = tool
        return key, params

    @staticmethod
    def _record(args: HookArgs, score: float, where: str, flagged: bool) -> None:
        """The score beside the verdict, in the processor's state: what traces and the lab read."""
        state = args.state
        state["checked"] = state.get("checked", 0) + 1
        if flagged:
            state["flagged"] = state.get("flagged", 0) + 1
        state["last_score"] = score
        state["max_score"] = max(state.get("max_score", 0.0), score)
        scores = state.setdefault("scores", [])
        scores.append({"where": where, "score": score, "flagged": flagged})
        del scores[:-STATE_SCORES]


def _cached_model(folder: str, onnx_file: str) -> TextClassifier:
    """The shared cache's model. Imported here, in the worker thread: numpy, tokenizers and onnxruntime cost the
    studio nothing at start-up and nothing on its event loop."""
    from processors.builtin import classifier_model

    return classifier_model.MODEL_CACHE.get(folder, onnx_file)
