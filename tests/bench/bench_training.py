"""How long the learned injection model's training takes: one ``train()`` (4 fold fits and the final fit), or a
leave-one-family-out as the model card runs it (issue 28). It prints the figure; it asserts nothing.

Run from the repository root (scikit-learn installed, the dev extras)::

    python tests/bench/bench_training.py train --every 4
    python tests/bench/bench_training.py leave-out --families team-w-longdocs team-w-longzh2 team-w-manuals team-w-web

``train --every N`` trains on every N-th family of ``training/data/`` (``--every 1``: all of it, the shipped model's
fit); ``leave-out`` leaves each named family out in turn, in this process (``TRAIN_PROCESSES=1``). The texts are read
from this checkout's ``training/data/`` (``--data``), whichever code is imported: the same command over another
checkout's code (``PYTHONPATH=<other checkout>``) compares the code on the same data.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "training" / "data"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("train", "leave-out"))
    parser.add_argument("--every", type=int, default=4, help="train: every N-th family (1: all)")
    parser.add_argument("--families", nargs="*", default=[], help="leave-out: the families (default: 4 small ones)")
    parser.add_argument("--variant", default="chars4+words C=4")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    os.environ["TRAIN_PROCESSES"] = "1"
    from training.fit import VARIANTS, FeatureCache, load_rows, train

    variant = VARIANTS[args.variant]
    started = time.perf_counter()
    if args.what == "train":
        families = sorted(path.stem for path in args.data.glob("*.jsonl"))[:: args.every]
        rows = load_rows(args.data, families)
        model = train(rows, variant, FeatureCache(variant.kinds))
        print(f"train: {len(families)} families, {len(rows)} texts, {len(model.idf):,} features", file=sys.stderr)
    else:
        from training.evaluate import leave_one_family_out

        families = args.families or ["team-w-longdocs", "team-w-longzh2", "team-w-manuals", "team-w-web"]
        rows = load_rows(args.data, families)
        results = leave_one_family_out(rows, variant, lambda _: None)
        print(f"leave-out: {len(rows)} texts, {[r.model['all'].cell() for r in results]}", file=sys.stderr)
    print(f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
