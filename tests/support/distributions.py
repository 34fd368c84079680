"""Install a made-up distribution into a test's folder, so ``importlib.metadata`` finds its entry points.

    fake_distribution(tmp_path, "toy-provider", {"processor_studio.providers": {"toy": "toy_provider:PROVIDER"}},
                      modules={"toy_provider": SOURCE})
    monkeypatch.syspath_prepend(str(tmp_path))

What an installed wheel leaves behind, and nothing more: each module as ``<name>.py`` and a ``<name>-<version>.
dist-info`` folder with ``METADATA`` and ``entry_points.txt``. Plug-in registries are then tested through the
public extension point only, as a third-party package would use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def fake_distribution(
    site: Path,
    name: str,
    groups: Mapping[str, Mapping[str, str]],
    *,
    modules: Mapping[str, str] | None = None,
    version: str = "1.0",
) -> Path:
    """Write the distribution ``name`` into ``site`` (put ``site`` on ``sys.path`` yourself); returns its dist-info."""
    for module, source in (modules or {}).items():
        (site / f"{module}.py").write_text(source, encoding="utf-8")
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = []
    for group, points in groups.items():
        lines.append(f"[{group}]")
        lines.extend(f"{point} = {target}" for point, target in points.items())
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return info
