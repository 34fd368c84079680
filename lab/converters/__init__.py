"""Attack converters: seeded, composable rewrites of attack texts that keep their meaning for a model.

::

    from lab.converters import load_converters

    converters = load_converters()                     # built-ins and plug-ins (entry-point group below)
    chain = converters.chain("base64|leetspeak")       # applied left to right
    variant = chain.variant("case-7", "Ignore all previous instructions.", seed=42)
    variant.turns                                      # the same for the same (seed, case id, chain)

- :mod:`lab.converters.base` — the :class:`Converter` protocol, :class:`Turns` (a multi-turn result);
- :mod:`lab.converters.chain` — chains, :func:`variant_rng`, :class:`Variant`, :func:`make_variants`;
- :mod:`lab.converters.registry` — the ``processor_studio.converters`` entry-point group;
- the built-ins: :mod:`~lab.converters.identity`, :mod:`~lab.converters.encodings`,
  :mod:`~lab.converters.characters`, :mod:`~lab.converters.wrappers`, :mod:`~lab.converters.chinese`.
"""

from __future__ import annotations

from lab.converters.base import Converted, Converter, FunctionConverter, NotReversibleError, Turns
from lab.converters.chain import Chain, Variant, make_variants, parse_chain, variant_rng
from lab.converters.errors import ChainSyntaxError, ConverterError, ConverterFailedError, UnknownConverterError
from lab.converters.registry import ENTRY_POINT_GROUP, ConverterRegistry, LoadError, load_converters

__all__ = [
    "ENTRY_POINT_GROUP",
    "Chain",
    "ChainSyntaxError",
    "Converted",
    "Converter",
    "ConverterError",
    "ConverterFailedError",
    "ConverterRegistry",
    "FunctionConverter",
    "LoadError",
    "NotReversibleError",
    "Turns",
    "UnknownConverterError",
    "Variant",
    "load_converters",
    "make_variants",
    "parse_chain",
    "variant_rng",
]
