"""A Hugging Face text-classification model read from a local folder, and the cache that loads it once.

``ClassifierGuard`` (:mod:`~processors.builtin.classifier_guard`) scores texts with it. A folder holds either an
ONNX export (``model.onnx`` or ``onnx/model.onnx``, as ``optimum-cli export onnx`` and the hub's ONNX repos write
it) with its ``tokenizer.json`` and ``config.json`` — run through ``onnxruntime`` and ``tokenizers``, both shipped
with the app — or PyTorch / safetensors weights, which need the optional ``transformers`` extra. Nothing is ever
downloaded.

A text longer than the model's window is cut into windows of ``max_length`` tokens that overlap by ``stride``
tokens (the tokenizer's own overflow, special tokens added to each window); its score is the highest window's, so
an attack at the end of a long document is not lost past the truncation point.

Loading costs hundreds of milliseconds for a real model, so :data:`MODEL_CACHE` keeps each loaded model, keyed by
its folder and the size and modification time of its files (a re-exported model is read again), and shares it
between guards, agents, runs and the lab's workers. Loading and scoring are blocking calls: the guard runs them in a
worker thread (``asyncio.to_thread``) so the studio's event loop never waits on them.

A folder that is not a model raises :class:`ClassifierModelError`, whose ``code`` and ``parameters`` say what is
missing (the studio shows it in the reader's language; the English message names the file).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from tokenizers import Encoding, Tokenizer

from processors.builtin.classifier_folder import (
    WEIGHT_FILES,
    ClassifierModelError,
    find_onnx_file,
    fingerprint,
    read_labels,
)

__all__ = [
    "MODEL_CACHE",
    "ClassifierModelError",
    "ModelCache",
    "OnnxClassifier",
    "TextClassifier",
    "find_onnx_file",
    "read_labels",
]

#: Texts scored per ``session.run``: bounds the padded batch's memory for long documents.
BATCH_WINDOWS = 32
#: Scores remembered per model (a chat re-checks its earlier messages every turn), for texts up to
#: ``REMEMBERED_LENGTH`` characters (long tool results are not kept: the memory stays under ~10 MB).
SCORE_MEMORY = 2048
REMEMBERED_LENGTH = 4096
#: The inputs a text-classification export may take; any other required input is not one we can feed.
KNOWN_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


# ---------------------------------------------------------------------------------------------- models
class TextClassifier(Protocol):
    """What the guard needs of a loaded model: its labels and the probability of one label for each text."""

    labels: tuple[str, ...]
    source: str

    def scores(self, texts: Sequence[str], label: int, *, max_length: int, stride: int) -> list[float]: ...


@dataclass(frozen=True)
class _Window:
    text_index: int
    ids: list[int]
    type_ids: list[int]


class OnnxClassifier:
    """An ONNX text-classification export with its ``tokenizer.json``, run by ``onnxruntime`` on the CPU."""

    def __init__(self, folder: Path, onnx_file: Path, labels: tuple[str, ...], problem_type: str) -> None:
        import onnxruntime  # imported here: the runtime works without it until a guard needs a model

        self.labels = labels
        self.source = str(folder)
        self._multi_label = problem_type == "multi_label_classification"
        tokenizer_file = folder / "tokenizer.json"
        try:
            self._tokenizer_json = tokenizer_file.read_text(encoding="utf-8")
            Tokenizer.from_str(self._tokenizer_json)
        except Exception as error:  # tokenizers raises a bare Exception for a file it cannot parse
            raise ClassifierModelError("no_tokenizer", "bad_tokenizer", folder=str(folder), error=str(error)) from None
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 2  # the laptops this runs on: more threads only contend with the studio
        options.log_severity_level = 3  # errors only: an export's unused initialisers are no news to the user
        try:
            self._session = onnxruntime.InferenceSession(
                str(onnx_file), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as error:  # onnxruntime raises its own Fail/InvalidGraph/… classes
            raise ClassifierModelError("bad_onnx", "bad_onnx", file=onnx_file.name, error=str(error)) from None
        self._inputs = {item.name: item.type for item in self._session.get_inputs()}
        unknown = [name for name in self._inputs if name not in KNOWN_INPUTS]
        if "input_ids" not in self._inputs or unknown:
            names = ", ".join(self._inputs)
            raise ClassifierModelError(
                "bad_inputs",
                "bad_inputs",
                file=onnx_file.name,
                inputs=names,
            )
        outputs = [item.name for item in self._session.get_outputs()]
        self._output = "logits" if "logits" in outputs else outputs[0]
        self._tokenizers: dict[tuple[int, int], Tokenizer] = {}
        self._memory: OrderedDict[tuple[str, int, int, int], float] = OrderedDict()
        self._lock = threading.Lock()

    def scores(self, texts: Sequence[str], label: int, *, max_length: int, stride: int) -> list[float]:
        """The probability of class ``label`` for each text: the highest over the text's windows."""
        results: dict[int, float] = {}
        pending: list[int] = []
        with self._lock:
            for index, text in enumerate(texts):
                remembered = self._memory.get((text, label, max_length, stride))
                if remembered is None:
                    pending.append(index)
                else:
                    results[index] = remembered
        if pending:
            windows = [
                _Window(index, encoding.ids, encoding.type_ids)
                for index in pending
                for encoding in self._windows(texts[index], max_length, stride)
            ]
            best: dict[int, float] = {}
            for start in range(0, len(windows), BATCH_WINDOWS):
                batch = windows[start : start + BATCH_WINDOWS]
                for window, probability in zip(batch, self._run(batch, label), strict=True):
                    best[window.text_index] = max(best.get(window.text_index, 0.0), probability)
            with self._lock:
                for index in pending:
                    results[index] = best.get(index, 0.0)
                    if len(texts[index]) <= REMEMBERED_LENGTH:
                        self._memory[(texts[index], label, max_length, stride)] = results[index]
                while len(self._memory) > SCORE_MEMORY:
                    self._memory.popitem(last=False)
        return [results[index] for index in range(len(texts))]

    def _windows(self, text: str, max_length: int, stride: int) -> list[Encoding]:
        tokenizer = self._tokenizer(max_length, stride)
        encoding = tokenizer.encode(text)
        return [encoding, *encoding.overflowing]

    def _tokenizer(self, max_length: int, stride: int) -> Tokenizer:
        """A tokenizer that cuts at ``max_length`` tokens with ``stride`` tokens of overlap (one per setting)."""
        with self._lock:
            tokenizer = self._tokenizers.get((max_length, stride))
            if tokenizer is None:
                tokenizer = Tokenizer.from_str(self._tokenizer_json)
                tokenizer.no_padding()
                special = tokenizer.num_special_tokens_to_add(is_pair=False)
                if stride >= max_length - special:
                    raise ClassifierModelError(
                        "bad_stride",
                        "bad_stride",
                        stride=str(stride),
                        max_length=str(max_length),
                        special=str(special),
                    )
                tokenizer.enable_truncation(max_length, stride=stride)
                self._tokenizers[(max_length, stride)] = tokenizer
            return tokenizer

    def _run(self, batch: Sequence[_Window], label: int) -> list[float]:
        width = max(len(window.ids) for window in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        types = np.zeros((len(batch), width), dtype=np.int64)
        for row, window in enumerate(batch):
            ids[row, : len(window.ids)] = window.ids
            mask[row, : len(window.ids)] = 1
            types[row, : len(window.type_ids)] = window.type_ids
        given = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        feed = {
            name: given[name].astype(np.int32) if kind == "tensor(int32)" else given[name]
            for name, kind in self._inputs.items()
        }
        (logits,) = self._session.run([self._output], feed)
        logits = np.asarray(logits, dtype=np.float64)
        if logits.ndim != 2 or logits.shape[1] != len(self.labels):
            raise ClassifierModelError(
                "bad_outputs",
                "bad_outputs",
                scores=str(logits.shape[-1] if logits.ndim else 0),
                count=str(len(self.labels)),
                labels=", ".join(self.labels),
            )
        if self._multi_label:
            probabilities = 1.0 / (1.0 + np.exp(-logits))
        else:
            shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
            probabilities = shifted / shifted.sum(axis=1, keepdims=True)
        return [float(value) for value in probabilities[:, label]]


class TransformersClassifier:
    """PyTorch / safetensors weights through ``transformers`` (the optional extra; not shipped in the installers)."""

    def __init__(self, folder: Path, labels: tuple[str, ...]) -> None:
        try:
            transformers: Any = importlib.import_module("transformers")
        except ImportError:
            raise ClassifierModelError(
                "needs_transformers",
                "needs_transformers",
                folder=str(folder),
            ) from None
        self.labels = labels
        self.source = str(folder)
        self._pipeline = transformers.pipeline("text-classification", model=str(folder), top_k=None)
        self._lock = threading.Lock()

    def scores(self, texts: Sequence[str], label: int, *, max_length: int, stride: int) -> list[float]:
        """The label's probability per text (the pipeline truncates at ``max_length``; no windows here)."""
        wanted = self.labels[label]
        with self._lock:
            answers = self._pipeline(list(texts), truncation=True, max_length=max_length)
        return [max((a["score"] for a in answer if a["label"] == wanted), default=0.0) for answer in answers]


def load_classifier(folder: str | Path, onnx_name: str = "") -> TextClassifier:
    """Read the model in ``folder`` (blocking: call it from a worker thread). See the module docstring."""
    path = Path(folder).expanduser()
    labels = read_labels(path)
    onnx_file = find_onnx_file(path, onnx_name)
    if onnx_file is None:
        if any((path / name).is_file() for name in WEIGHT_FILES):
            return TransformersClassifier(path, labels)
        raise ClassifierModelError("no_onnx", "no_onnx", folder=str(path))
    if not (path / "tokenizer.json").is_file():
        raise ClassifierModelError("no_tokenizer", "no_tokenizer", folder=str(path))
    problem_type = ""
    with contextlib.suppress(OSError, ValueError, AttributeError):  # read_labels has already checked the file
        problem_type = str(json.loads((path / "config.json").read_text(encoding="utf-8")).get("problem_type") or "")
    return OnnxClassifier(path, onnx_file, labels, problem_type)


# ---------------------------------------------------------------------------------------------- cache
class ModelCache:
    """Loaded models shared by every guard of the process, keyed by folder, ONNX file name and file stamps.

    ``loads`` counts the models actually read (a cache hit does not count). At most ``size`` models stay loaded
    (the least recently used goes). Thread-safe: two guards asking for the same folder at once load it once.
    """

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self.loads = 0
        self._models: OrderedDict[tuple[Any, ...], TextClassifier] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, folder: str | Path, onnx_name: str = "") -> TextClassifier:
        """The model of ``folder``, loaded now if it is not loaded yet (blocking: call it in a worker thread)."""
        if not str(folder).strip():
            raise ClassifierModelError("no_folder", "folder_not_chosen", folder="")
        path = Path(folder).expanduser().resolve()
        if not path.is_dir():
            raise ClassifierModelError("no_folder", "folder_not_found", folder=str(path))
        key = (str(path), onnx_name, fingerprint(path))
        with self._lock:  # held while loading: a second guard waits for the first load instead of repeating it
            model = self._models.get(key)
            if model is None:
                model = load_classifier(path, onnx_name)
                self.loads += 1
                self._models[key] = model
                while len(self._models) > self.size:
                    self._models.popitem(last=False)
            self._models.move_to_end(key)
            return model

    def clear(self) -> None:
        with self._lock:
            self._models.clear()


#: The process's one cache (guards, agents, runs and lab workers share it).
MODEL_CACHE = ModelCache()
