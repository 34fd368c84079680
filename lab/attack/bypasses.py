"""Found bypasses as a corpus: a JSONL file of the variants that got through, to run again after a fix.

Each line is the variant's case in the lab's JSONL format (:meth:`lab.corpus.Case.to_dict`): its text (or the
tool result it planted, with the seed's request), ``label: attack``, ``expect: blocked``, and ``attack_seed``,
``attack_chain`` and ``attack_run_seed`` naming where it came from (kept in ``metadata`` when read back). A run of
this corpus with ``processor-studio lab`` fails its recall until the design stops every one of them; each line can
also become a regression test (:mod:`studio.lab.bypass_tests`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from lab.attack.robustness import VariantResult
from lab.corpus import Case


def bypass_cases(found: Iterable[VariantResult]) -> list[Case]:
    """The cases of the variants that got through (each once, in the order given)."""
    cases: dict[str, Case] = {}
    for item in found:
        if item.bypassed and item.case is not None:
            cases.setdefault(item.case.id, item.case)
    return list(cases.values())


def bypass_lines(found: Iterable[VariantResult]) -> str:
    """The JSONL text of :func:`bypass_cases`."""
    return "".join(json.dumps(case.to_dict(), ensure_ascii=False) + "\n" for case in bypass_cases(found))


def write_bypasses(path: Path | str, found: Iterable[VariantResult]) -> int:
    """Write the bypasses as a corpus at ``path`` (replacing it at once); returns how many were written."""
    from lab.reports import write_atomically

    text = bypass_lines(found)
    write_atomically(Path(path), text)
    return text.count("\n")


__all__ = ["bypass_cases", "bypass_lines", "write_bypasses"]
