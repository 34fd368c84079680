"""A tiny text-classification model folder, built by the tests themselves (nothing downloaded).

:func:`write_tiny_classifier` writes what ``optimum-cli export onnx --task text-classification`` writes, in
miniature: ``model.onnx`` (an embedding bag over ``input_ids``, masked by ``attention_mask``, plus a bias: two
logits per text), a ``tokenizers`` WordLevel ``tokenizer.json`` that adds ``[CLS] … [SEP]`` around each window, and
a ``config.json`` whose ``id2label`` names the classes. Each word of :data:`ATTACK_WORDS` adds 4 to the "INJECTION"
logit, every other word nothing, and the bias gives "SAFE" 1: a text with no attack word scores
``sigmoid(-1) ≈ 0.27``, one with one attack word ``sigmoid(3) ≈ 0.95``, whatever its length.

:func:`write_sized_classifier` writes a model of Prompt Guard 2 22M's shape (random weights) for the bench.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from tokenizers import Tokenizer, models, pre_tokenizers, processors

#: Words the tiny model reads as an attack.
ATTACK_WORDS = ("ignore", "previous", "instructions", "jailbreak")
#: Harmless words it knows (any other word is [UNK], also harmless).
BENIGN_WORDS = ("hello", "there", "please", "summarise", "this", "report", "weather", "today", "the", "a")
SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]")
OPSET = 17


def tiny_vocabulary() -> dict[str, int]:
    return {word: index for index, word in enumerate((*SPECIALS, *BENIGN_WORDS, *ATTACK_WORDS))}


def write_tokenizer(folder: Path, vocabulary: dict[str, int]) -> None:
    tokenizer = Tokenizer(models.WordLevel(vocab=vocabulary, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocabulary["[CLS]"]), ("[SEP]", vocabulary["[SEP]"])]
    )
    tokenizer.save(str(folder / "tokenizer.json"))


def write_config(folder: Path, labels: Sequence[str], **extra: object) -> None:
    config = {
        "architectures": ["TinyForSequenceClassification"],
        "id2label": {str(index): label for index, label in enumerate(labels)},
        "label2id": {label: index for index, label in enumerate(labels)},
        **extra,
    }
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")


def bag_graph(embedding: np.ndarray, bias: np.ndarray) -> onnx.ModelProto:
    """logits = bias + Σ over unmasked tokens of embedding[token]."""
    nodes = [
        helper.make_node("Gather", ["embedding", "input_ids"], ["vectors"], axis=0),
        helper.make_node("Cast", ["attention_mask"], ["mask_float"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask_float", "last_axis"], ["mask_column"]),
        helper.make_node("Mul", ["vectors", "mask_column"], ["kept"]),
        helper.make_node("ReduceSum", ["kept", "token_axis"], ["summed"], keepdims=0),
        helper.make_node("Add", ["summed", "bias"], ["logits"]),
    ]
    initializers = [
        numpy_helper.from_array(embedding.astype(np.float32), "embedding"),
        numpy_helper.from_array(bias.astype(np.float32), "bias"),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "last_axis"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "token_axis"),
    ]
    graph_inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
        for name in ("input_ids", "attention_mask")
    ]
    output = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", embedding.shape[1]])
    graph = helper.make_graph(nodes, "tiny_classifier", graph_inputs, [output], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def write_tiny_classifier(folder: Path, *, labels: Sequence[str] = ("SAFE", "INJECTION")) -> Path:
    """The tiny model folder described in the module docstring; returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    vocabulary = tiny_vocabulary()
    embedding = np.zeros((len(vocabulary), len(labels)), dtype=np.float32)
    for word in ATTACK_WORDS:
        embedding[vocabulary[word], 1] = 4.0
    bias = np.zeros(len(labels), dtype=np.float32)
    bias[0] = 1.0
    onnx.save(bag_graph(embedding, bias), str(folder / "model.onnx"))
    write_tokenizer(folder, vocabulary)
    write_config(folder, labels)
    return folder


def image_graph() -> onnx.ModelProto:
    """A model that is no text classifier: it takes ``pixel_values``."""
    node = helper.make_node("Identity", ["pixel_values"], ["logits"])
    graph = helper.make_graph(
        [node],
        "not_text",
        [helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, ["batch", 2])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 2])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    return model


def write_sized_classifier(
    folder: Path, *, vocabulary_size: int = 128_000, width: int = 384, layers: int = 12, seed: int = 7
) -> Path:
    """A model of Prompt Guard 2 22M's shape for the bench (random weights: its verdicts mean nothing).

    DeBERTa-v3-xsmall's size: a 128,000-token embedding of width 384 and 12 encoder layers (single-head attention
    of the same width, so the same multiply-adds per token, a 1,536-wide feed-forward, layer norms), mean-pooled
    into two logits; ~70 M parameters, most of them in the embedding, as in the real model.
    """
    folder.mkdir(parents=True, exist_ok=True)
    words = [f"w{index}" for index in range(vocabulary_size - len(SPECIALS))]
    vocabulary = {word: index for index, word in enumerate((*SPECIALS, *words))}
    generator = np.random.default_rng(seed)

    def weight(name: str, *shape: int, scale: float = 0.02) -> onnx.TensorProto:
        return numpy_helper.from_array((generator.standard_normal(shape) * scale).astype(np.float32), name)

    initializers = [
        weight("embedding", vocabulary_size, width),
        numpy_helper.from_array(np.array([2], dtype=np.int64), "last_axis"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "key_axis"),
        numpy_helper.from_array(np.array(-1e4, dtype=np.float32), "masked"),
        numpy_helper.from_array(np.array(1.0, dtype=np.float32), "one"),
        numpy_helper.from_array(np.array(width**-0.5, dtype=np.float32), "scale"),
        numpy_helper.from_array(np.ones(width, dtype=np.float32), "gamma"),
        numpy_helper.from_array(np.zeros(width, dtype=np.float32), "beta"),
        weight("head", width, 2),
    ]
    nodes = [
        helper.make_node("Gather", ["embedding", "input_ids"], ["h0"], axis=0),
        helper.make_node("Cast", ["attention_mask"], ["mask_float"], to=TensorProto.FLOAT),
        # additive attention mask over keys: (1 - mask) * -1e4, shaped [batch, 1, sequence]
        helper.make_node("Sub", ["one", "mask_float"], ["unmasked"]),
        helper.make_node("Mul", ["unmasked", "masked"], ["bias_keys"]),
        helper.make_node("Unsqueeze", ["bias_keys", "key_axis"], ["attention_bias"]),
    ]
    hidden = "h0"
    for layer in range(layers):
        n = f"l{layer}_"
        initializers += [
            weight(n + "q", width, width),
            weight(n + "k", width, width),
            weight(n + "v", width, width),
            weight(n + "o", width, width),
            weight(n + "up", width, 4 * width),
            weight(n + "down", 4 * width, width),
        ]
        nodes += [
            helper.make_node("MatMul", [hidden, n + "q"], [n + "Q"]),
            helper.make_node("MatMul", [hidden, n + "k"], [n + "K"]),
            helper.make_node("MatMul", [hidden, n + "v"], [n + "V"]),
            helper.make_node("Transpose", [n + "K"], [n + "Kt"], perm=[0, 2, 1]),
            helper.make_node("MatMul", [n + "Q", n + "Kt"], [n + "S"]),
            helper.make_node("Mul", [n + "S", "scale"], [n + "Ss"]),
            helper.make_node("Add", [n + "Ss", "attention_bias"], [n + "Sm"]),
            helper.make_node("Softmax", [n + "Sm"], [n + "P"], axis=-1),
            helper.make_node("MatMul", [n + "P", n + "V"], [n + "A"]),
            helper.make_node("MatMul", [n + "A", n + "o"], [n + "Ao"]),
            helper.make_node("Add", [hidden, n + "Ao"], [n + "r1"]),
            helper.make_node("LayerNormalization", [n + "r1", "gamma", "beta"], [n + "n1"], axis=-1),
            helper.make_node("MatMul", [n + "n1", n + "up"], [n + "u"]),
            helper.make_node("Gelu", [n + "u"], [n + "g"], domain="com.microsoft"),
            helper.make_node("MatMul", [n + "g", n + "down"], [n + "d"]),
            helper.make_node("Add", [n + "n1", n + "d"], [n + "r2"]),
            helper.make_node("LayerNormalization", [n + "r2", "gamma", "beta"], [n + "out"], axis=-1),
        ]
        hidden = n + "out"
    nodes += [
        helper.make_node("Unsqueeze", ["mask_float", "last_axis"], ["mask_column"]),
        helper.make_node("Mul", [hidden, "mask_column"], ["kept"]),
        helper.make_node("ReduceMean", ["kept"], ["pooled"], axes=[1], keepdims=0),
        helper.make_node("MatMul", ["pooled", "head"], ["logits"]),
    ]
    graph_inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
        for name in ("input_ids", "attention_mask")
    ]
    output = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 2])
    graph = helper.make_graph(nodes, "sized_classifier", graph_inputs, [output], initializers)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid("com.microsoft", 1)]
    )
    model.ir_version = 8
    onnx.save(model, str(folder / "model.onnx"))
    write_tokenizer(folder, vocabulary)
    write_config(folder, ("BENIGN", "MALICIOUS"))
    return folder
