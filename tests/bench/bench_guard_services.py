"""What a hosted guard service costs this machine per message checked, without the service: each guard asks its
stand-in (tests/support/guard_services.py, on 127.0.0.1, answering at once) about one chat message, N times in a
row; the figure is the guard's own share of a call (building the request, httpx's client and connection, reading
the answer) — the real service adds its network round trip and its own time on top.

    python tests/bench/bench_guard_services.py [N]

Prints, per service, the median and p95 wall time of one check and the process's CPU time per check.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from processors.builtin.guard_services.azure_prompt_shields import AzurePromptShields
from processors.builtin.guard_services.keys import BoundKeys, use_key_source
from processors.builtin.guard_services.lakera_guard import LakeraGuard
from processors.builtin.guard_services.model_armor import ModelArmor
from processors.builtin.guard_services.openai_moderation import OpenAIModeration
from tests.support.guard_services import KEY, TEMPLATE, GuardServiceStandIn

MESSAGE = "Could you summarise the attached quarterly report and list the three biggest risks it mentions?"
GUARDS = {
    "lakera": (LakeraGuard, {}),
    "azure": (AzurePromptShields, {}),
    "openai": (OpenAIModeration, {}),
    "armor": (ModelArmor, {"resource": TEMPLATE}),
}


async def measure(kind: str, count: int) -> tuple[float, float, float]:
    cls, options = GUARDS[kind]
    with GuardServiceStandIn(kind) as service:
        use_key_source(BoundKeys([(cls.key_binding.name, service.url, KEY)]))
        guard = cls(endpoint=service.url, **options)
        await guard.screen(MESSAGE)  # httpx imported, the first connection made
        walls: list[float] = []
        cpu = time.process_time()
        for _ in range(count):
            start = time.perf_counter()
            await guard.screen(MESSAGE)
            walls.append(time.perf_counter() - start)
        cpu = time.process_time() - cpu
    walls.sort()
    return statistics.median(walls), walls[int(0.95 * (len(walls) - 1))], cpu / count


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(f"{count} checks of one chat message per service, stand-ins on 127.0.0.1")
    for kind in GUARDS:
        median, p95, cpu = asyncio.run(measure(kind, count))
        print(f"{kind:7s} median {median * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms   CPU {cpu * 1000:5.2f} ms a check")


if __name__ == "__main__":
    main()
