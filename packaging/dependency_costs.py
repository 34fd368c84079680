"""What each direct dependency costs: disk in the virtualenv, bytes in the built bundle, and import time.

    python packaging/dependency_costs.py                  # a Markdown table (packaging/README.md quotes it)
    python packaging/dependency_costs.py --bundle DIR     # another bundle than dist/processor-studio

For each requirement of ``pyproject.toml`` it takes the distributions only that requirement pulls in (its exclusive
closure; those two or more need are counted once under "shared"), then:

- **venv**: the size of their installed files (``importlib.metadata`` RECORD), what an untrimmed bundle would carry;
- **bundle**: what they take in the built one-folder bundle: their folders in ``_internal/`` (data, extensions)
  plus their compressed bytecode in the executable's PYZ archive (read with PyInstaller's archive reader);
- **import**: seconds to import the requirement's top-level module in a fresh interpreter (median of 3), which is
  what it adds to start-up if the studio imported it there; the studio imports litellm and mcp only when a real model
  or an MCP server is first used (``check_deb.sh`` and the bundle check verify it for litellm).

Figures depend on the machine's load: say it beside them (``uptime``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tomllib
from collections import defaultdict
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent

#: The module a requirement is imported as (when it differs from its name).
IMPORT_NAMES = {
    "pyside6-essentials": "PySide6.QtWidgets",
    "shiboken6": "shiboken6",
    "sqlalchemy": "sqlalchemy",
    "pyyaml": "yaml",
    "fasttext-predict": "fasttext",
}


def direct_requirements() -> list[str]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        lines = tomllib.load(file)["project"]["dependencies"]
    return [canonicalize_name(Requirement(line).name) for line in lines]


def closure(name: str) -> set[str]:
    """``name`` and every installed distribution it needs (no extras, this system's markers)."""
    found = {name}
    pending = [name]
    while pending:
        try:
            requires = metadata.distribution(pending.pop()).requires or []
        except metadata.PackageNotFoundError:
            continue
        for line in requires:
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            dependency = canonicalize_name(requirement.name)
            if dependency not in found:
                found.add(dependency)
                pending.append(dependency)
    return found


def installed_bytes(name: str) -> int:
    try:
        distribution = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return 0
    total = 0
    for file in distribution.files or []:
        path = Path(str(distribution.locate_file(file)))
        if path.is_file():
            total += path.stat().st_size
    return total


def top_level_names(name: str) -> set[str]:
    """The top-level modules and folders a distribution installs (from its file list)."""
    try:
        distribution = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return set()
    names = set()
    for file in distribution.files or []:
        first = file.parts[0]
        if first.endswith((".dist-info", ".egg-info", ".pth")) or first in ("..", "__pycache__"):
            continue
        names.add(first.removesuffix(".py").split(".")[0])
    return names


def bundle_bytes(bundle: Path) -> dict[str, int]:
    """Top-level name → bytes in the bundle: files under ``_internal/<name>`` plus PYZ entries ``<name>.*``."""
    sizes: dict[str, int] = defaultdict(int)
    internal = bundle / "_internal"
    if internal.is_dir():
        for entry in internal.iterdir():
            if entry.is_symlink():  # PyInstaller links some libraries and metadata folders: counted where they point
                continue
            if entry.is_dir():
                size = sum(p.stat().st_size for p in entry.rglob("*") if p.is_file() and not p.is_symlink())
            else:
                size = entry.stat().st_size
            sizes[entry.name.split(".")[0]] += size
    executable = bundle / bundle.name
    if executable.is_file():
        from PyInstaller.archive.readers import PKG_ITEM_PYZ, CArchiveReader

        package = CArchiveReader(str(executable))
        for archive_name, (*_, typecode) in package.toc.items():
            if typecode != PKG_ITEM_PYZ:
                continue
            pyz = package.open_embedded_archive(archive_name)
            for module, (_typecode, _offset, length) in pyz.toc.items():
                sizes[module.split(".")[0]] += length
    return sizes


def import_seconds(module: str, runs: int = 3) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "QT_QPA_PLATFORM": "offscreen"}
    times = []
    for _ in range(runs):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        times.append(float(result.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def mb(size: int) -> str:
    return f"{size / 1e6:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / "processor-studio")
    parser.add_argument("--no-import", action="store_true", help="skip the import times")
    args = parser.parse_args(argv)
    direct = direct_requirements()
    closures = {name: closure(name) for name in direct}
    owners: dict[str, list[str]] = defaultdict(list)
    for name, members in closures.items():
        for member in members:
            owners[member].append(name)
    in_bundle = bundle_bytes(args.bundle)
    rows = []
    shared = {member for member, names in owners.items() if len(names) > 1}
    for name in direct:
        exclusive = sorted(member for member in closures[name] if owners[member] == [name])
        venv = sum(installed_bytes(member) for member in exclusive)
        bundled = sum(in_bundle.get(top, 0) for member in exclusive for top in top_level_names(member))
        module = IMPORT_NAMES.get(name, name.replace("-", "_"))
        seconds = "" if args.no_import else f"{import_seconds(module):.2f}"
        others = ", ".join(member for member in exclusive if member != name)
        rows.append((venv, name, len(exclusive), mb(venv), mb(bundled), seconds, others))
    print("| requirement | packages only it pulls in (itself included) | venv MB | bundle MB | import s | the others |")
    print("|---|---|---|---|---|---|")
    for _venv, name, count, venv_mb, bundled_mb, seconds, others in sorted(rows, reverse=True):
        print(f"| {name} | {count} | {venv_mb} | {bundled_mb} | {seconds} | {others} |")
    shared_venv = sum(installed_bytes(member) for member in shared)
    shared_bundle = sum(in_bundle.get(top, 0) for member in shared for top in top_level_names(member))
    print(
        f"| (shared by two or more) | {len(shared)} | {mb(shared_venv)} | {mb(shared_bundle)} | | "
        f"{', '.join(sorted(shared))} |"
    )
    print(
        f"\nbundle {args.bundle}: {mb(sum(in_bundle.values()))} MB counted of "
        f"{mb(sum(p.stat().st_size for p in args.bundle.rglob('*') if p.is_file() and not p.is_symlink()))} MB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
