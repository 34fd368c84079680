"""ClassifierGuard's cost with a model of Prompt Guard 2 22M's shape: load time, ms per chat message, cases/s batched.

Run: ``.venv/bin/python tests/bench/bench_classifier.py [--int8] [MODEL_FOLDER]`` (with a folder: that model, e.g. a
real Prompt Guard 2 export; without: a random-weight model of its shape built in a temporary folder by
``tests/support/tiny_classifier.write_sized_classifier`` — 128,000-token embedding, 12 layers of width 384).
``--int8`` first quantises the built model's weights to 8 bits (``onnxruntime.quantization.quantize_dynamic``, what
``optimum-cli onnxruntime quantize`` does to an export) and measures that.

Prints the model load (onnxruntime session + tokenizer, cold), the time of one chat message through the guard's own
path (``ClassifierGuard.score``: worker thread, tokenizer, one ``session.run``; the score memory is bypassed by
using new texts), and batched throughput (32 texts per call, as a lab worker would score them). Wall-clock time,
best of ``ROUNDS`` rounds: on a busy machine it includes waiting for a core, so the load (``uptime``) is printed too,
and the process's CPU time per message beside it.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from processors.builtin.classifier_guard import ClassifierGuard
from processors.builtin.classifier_model import ModelCache
from tests.support.tiny_classifier import write_sized_classifier

ROUNDS = 5
MESSAGES = 40
BATCH = 32


def chat_message(index: int, words: int = 40) -> str:
    """A chat message of ~40 words (about 42 tokens with the specials): new each time, so no score is remembered."""
    return " ".join(f"w{(index * 7919 + k * 104729) % 120_000}" for k in range(words))


async def main(folder: Path) -> None:
    started = time.perf_counter()
    model = ModelCache().get(folder)
    print(f"load (cold, onnxruntime session + tokenizer): {(time.perf_counter() - started) * 1000:.0f} ms")
    guard = ClassifierGuard(model_folder=str(folder), attack_label=model.labels[-1])
    await guard.score([chat_message(-1)])  # the shared cache loads it; the first run warms the session
    counter = 0
    per_message = []
    cpu = []
    for _ in range(ROUNDS):
        times = []
        cpu_started = time.process_time()
        for _ in range(MESSAGES):
            counter += 1
            text = chat_message(counter)
            started = time.perf_counter()
            await guard.score([text])
            times.append(time.perf_counter() - started)
        per_message.append(statistics.median(times))
        cpu.append((time.process_time() - cpu_started) / MESSAGES)
    best = min(per_message) * 1000
    print(f"one chat message (~40 words), median of {MESSAGES}, best of {ROUNDS} rounds: {best:.1f} ms")
    print(f"  CPU time of the process per message (all threads), best round: {min(cpu) * 1000:.1f} ms")
    rates = []
    for _ in range(ROUNDS):
        texts = [chat_message(counter + n) for n in range(BATCH * 4)]
        counter += len(texts)
        started = time.perf_counter()
        for start in range(0, len(texts), BATCH):
            await guard.score(texts[start : start + BATCH])
        rates.append(len(texts) / (time.perf_counter() - started))
    print(f"batched ({BATCH} a call), best of {ROUNDS} rounds: {max(rates):.0f} cases/s")
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())} on {os.cpu_count()} cores")


def quantise(folder: Path) -> None:
    """Replace the folder's model.onnx by its 8-bit dynamic quantisation (weights int8, activations at run time)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    full = folder / "model_fp32.onnx"
    (folder / "model.onnx").rename(full)
    quantize_dynamic(
        str(full),
        str(folder / "model.onnx"),
        weight_type=QuantType.QInt8,
        extra_options={"DefaultTensorType": 1},  # float: the Gelu of the com.microsoft domain has no shape inference
    )
    full.unlink()


if __name__ == "__main__":
    arguments = [argument for argument in sys.argv[1:] if argument != "--int8"]
    if arguments:
        asyncio.run(main(Path(arguments[0]).expanduser()))
    else:
        with tempfile.TemporaryDirectory() as scratch:
            built = write_sized_classifier(Path(scratch) / "sized")
            if "--int8" in sys.argv:
                quantise(built)
            size = sum(path.stat().st_size for path in built.iterdir()) / 1e6
            kind = "int8 weights" if "--int8" in sys.argv else "float32"
            print(f"model: Prompt Guard 2 22M's shape, random weights, {kind}, {size:.0f} MB in {built}")
            asyncio.run(main(built))
