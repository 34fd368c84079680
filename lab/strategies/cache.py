"""The variants strategies wrote, kept in a JSON Lines file: a resumed run reads them back instead of paying again.

A run given a cache (the CLI's ``--results FILE`` keeps one beside it, ``FILE.strategies.jsonl``) appends one line
per seed × strategy as soon as its variants are written, and looks there first next time. The key is a digest of
the seed's id and attacked text, the strategy's spec and the run's seed, so a changed seed or another seed value
asks the models again. A seed × strategy with a failed variant is not kept (a resume tries it again); a line a kill
tore is ignored, as the results file's is.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

from lab.corpus import Case
from lab.json_lines import file_lines
from lab.results import ResultsFile
from lab.strategies.base import StrategyVariant, payload


def cache_key(case: Case, spec: str, seed: int | str) -> str:
    """What identifies one seed × strategy's work: the same key, the same variants."""
    raw = json.dumps([case.id, payload(case), spec, seed], ensure_ascii=False)
    return hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()


class VariantCache:
    """Seed × strategy → the variants written (see the module docstring). Close it when the run ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[str, list[StrategyVariant]] = _read(path)
        self._file: ResultsFile | None = None

    def get(self, key: str) -> list[StrategyVariant] | None:
        return self.known.get(key)

    def put(self, key: str, variants: list[StrategyVariant]) -> None:
        """Keep ``variants`` unless one failed (a resume must try those again)."""
        if any(variant.failed for variant in variants):
            return
        if self._file is None:
            self._file = ResultsFile(self.path)
        self._file.append({"key": key, "variants": [_plain(variant) for variant in variants]})
        self.known[key] = list(variants)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _plain(variant: StrategyVariant) -> dict[str, Any]:
    data = dataclasses.asdict(variant)
    data["turns"] = list(variant.turns)
    return data


def _read(path: Path) -> dict[str, list[StrategyVariant]]:
    known: dict[str, list[StrategyVariant]] = {}
    if not path.exists():
        return known
    names = {field.name for field in dataclasses.fields(StrategyVariant)}
    for _number, line in file_lines(path):
        try:
            data: Any = json.loads(line or "")
            variants = [
                StrategyVariant(**{**{k: v for k, v in item.items() if k in names}, "turns": tuple(item["turns"])})
                for item in data["variants"]
            ]
        except (ValueError, TypeError, KeyError, AttributeError):
            continue  # a line a kill tore, or not ours
        known[str(data["key"])] = variants
    return known
