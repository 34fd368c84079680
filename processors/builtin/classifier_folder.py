"""What a classifier model folder holds, read without loading the model (no numpy, no onnxruntime): its labels, its
ONNX file, the stamps of its files, and the error that names what a folder that is not a model lacks.

The studio's options form reads the labels here on its UI thread (one small JSON file); the model itself is loaded
by :mod:`~processors.builtin.classifier_model`, in a worker thread.
"""

from __future__ import annotations

import json
from pathlib import Path

from processors.errors import ProcessorsError

__all__ = ["CONFIG_LIMIT", "WEIGHT_FILES", "ClassifierModelError", "find_onnx_file", "fingerprint", "read_labels"]

#: config.json larger than this is not a model's config (the studio reads it on its UI thread).
CONFIG_LIMIT = 1_000_000
#: PyTorch / safetensors weights: a model for the transformers extra rather than onnxruntime.
WEIGHT_FILES = (
    "model.safetensors",
    "pytorch_model.bin",
    "model.safetensors.index.json",
    "pytorch_model.bin.index.json",
)


#: ClassifierGuard's sentences about a model folder by key (part of ``ClassifierGuard.texts``: the studio shows them
#: in the reader's language by :attr:`ClassifierModelError.text_code` and ``parameters``).
FOLDER_TEXTS: dict[str, str] = {
    "folder_not_chosen": "No model folder chosen",
    "folder_not_found": "Model folder not found: {folder}",
    "no_config": "No config.json in the model folder {folder}",
    "unreadable_config": "config.json in {folder} is not readable JSON: {error}",
    "no_labels": "config.json in {folder} has no id2label (the model's class names)",
    "named_onnx_missing": "{file} not found in the model folder {folder}",
    "several_onnx": "Several ONNX files in {folder} ({files}): name the one to use",
    "no_onnx": "No .onnx file in the model folder {folder} (export one with optimum-cli)",
    "no_tokenizer": "No tokenizer.json in the model folder {folder}",
    "bad_tokenizer": "tokenizer.json in {folder} is not a tokenizers file: {error}",
    "bad_onnx": "{file} is not a model onnxruntime can run: {error}",
    "bad_inputs": (
        "{file} takes the inputs {inputs}; a text classifier takes input_ids (and optionally attention_mask,"
        " token_type_ids)"
    ),
    "bad_stride": (
        "stride {stride} must be smaller than max_length {max_length} minus the model's {special} special tokens"
    ),
    "bad_outputs": "the model answers {scores} scores per text, config.json names {count} labels",
    "needs_transformers": (
        "{folder} holds PyTorch/safetensors weights and no .onnx file: install the transformers extra"
        " (pip install 'processor-studio[transformers]') or export the model to ONNX"
        " (optimum-cli export onnx --task text-classification)"
    ),
    "choose_label": "The model has the labels {labels}: choose the one that means attack",
    "unknown_label": "The model has no label {label}; its labels: {labels}",
}


class ClassifierModelError(ProcessorsError):
    """A model folder cannot be used. ``code`` names the problem, ``parameters`` its details (file, labels); the
    English message is ``FOLDER_TEXTS[key]`` written with them, and ``text_code`` is ClassifierGuard's code of it."""

    def __init__(self, code: str, key: str, **parameters: str) -> None:
        super().__init__(FOLDER_TEXTS[key].format(**parameters))
        self.code = code
        self.key = key
        self.parameters = parameters

    @property
    def text_code(self) -> str:
        """``"ClassifierGuard.<key>"``: the sentence's code among ClassifierGuard's texts."""
        return f"ClassifierGuard.{self.key}"


# ---------------------------------------------------------------------------------------------- folder
def read_labels(folder: str | Path) -> tuple[str, ...]:
    """The model's labels in class order, from ``config.json``'s ``id2label``.

    Raises :class:`ClassifierModelError` (``no_folder``, ``no_config``, ``no_labels``) when there are none.
    """
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise ClassifierModelError("no_folder", "folder_not_found", folder=str(path))
    config = path / "config.json"
    if not config.is_file() or config.stat().st_size > CONFIG_LIMIT:
        raise ClassifierModelError("no_config", "no_config", folder=str(path))
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ClassifierModelError("no_config", "unreadable_config", folder=str(path), error=str(error)) from None
    id2label = data.get("id2label") if isinstance(data, dict) else None
    try:
        labels = {int(index): str(label) for index, label in (id2label or {}).items()}
    except (TypeError, ValueError, AttributeError):
        labels = {}
    if not labels or sorted(labels) != list(range(len(labels))):
        raise ClassifierModelError("no_labels", "no_labels", folder=str(path))
    return tuple(labels[index] for index in range(len(labels)))


def find_onnx_file(folder: Path, name: str = "") -> Path | None:
    """The ONNX file to run: ``name`` when given, else ``model.onnx`` or ``onnx/model.onnx``, else the only
    ``.onnx`` file of the folder (or of its ``onnx/``). None when there is none; several without a name is an
    error listing them."""
    if name:
        chosen = folder / name
        if not chosen.is_file():
            raise ClassifierModelError("no_onnx", "named_onnx_missing", folder=str(folder), file=name)
        return chosen
    for candidate in (folder / "model.onnx", folder / "onnx" / "model.onnx"):
        if candidate.is_file():
            return candidate
    found = sorted([*folder.glob("*.onnx"), *folder.glob("onnx/*.onnx")])
    if len(found) > 1:
        files = ", ".join(str(path.relative_to(folder)) for path in found)
        raise ClassifierModelError("several_onnx", "several_onnx", folder=str(folder), files=files)
    return found[0] if found else None


def fingerprint(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Name, size and modification time of every file the model is read from (a re-export is a new model)."""
    files = [*folder.glob("*"), *folder.glob("onnx/*")]
    return tuple(
        (str(path.relative_to(folder)), stat.st_size, stat.st_mtime_ns)
        for path in sorted(files)
        if path.is_file() and (stat := path.stat())
    )
