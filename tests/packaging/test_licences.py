"""The generated licence list covers everything shipped: a new or upgraded runtime dependency without an entry fails
here until ``python packaging/licences.py`` is run and its output committed."""

import json
import tomllib

import licences  # packaging/licences.py (tests/packaging/conftest.py puts packaging/ on sys.path)
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def committed() -> dict[str, dict[str, str]]:
    return {entry["name"]: entry for entry in json.loads(licences.COMPONENTS.read_text(encoding="utf-8"))}


def pinned() -> dict[str, str]:
    """The direct requirements' exact pins (their dependencies are resolved at install time: only names count)."""
    with (licences.ROOT / "pyproject.toml").open("rb") as file:
        lines = tomllib.load(file)["project"]["dependencies"]
    pins = {}
    for line in lines:
        requirement = Requirement(line)
        for specifier in requirement.specifier:
            if specifier.operator == "==":
                pins[canonicalize_name(requirement.name)] = specifier.version
    return pins


def test_every_installed_runtime_dependency_has_an_entry_with_its_licence() -> None:
    """By name and licence; the version too for the pinned direct requirements (packaging/build.py rewrites the list
    for the exact versions of each build)."""
    listed = {canonicalize_name(name): entry for name, entry in committed().items()}
    pins = pinned()
    distributions, _absent = licences.runtime_requirements()
    assert len(distributions) > 50  # the closure was walked, not just the direct requirements
    stale = []
    for distribution in distributions:
        name = canonicalize_name(distribution.metadata["Name"])
        entry = listed.get(name)
        licence = licences.licence_of(distribution.metadata)
        if entry is None or entry["licence"] != licence or (name in pins and entry["version"] != pins[name]):
            stale.append(f"{name} {distribution.metadata['Version']} {licence}: {entry}")
    assert not stale, "run python packaging/licences.py and commit resources/licences/: " + "; ".join(stale)


def test_requirements_of_other_systems_have_a_licence_by_hand() -> None:
    _distributions, absent = licences.runtime_requirements()
    unknown = [name for name in absent if name not in licences.OTHER_SYSTEMS]
    assert not unknown, f"add {unknown} to OTHER_SYSTEMS in packaging/licences.py with their licence"


def test_data_files_under_their_own_licence_are_listed_and_exist() -> None:
    listed = committed()
    for data in licences.DATA_FILES:
        assert data.location().is_file(), data.path
        assert listed[data.name]["licence"] == data.licence
    model = listed["fastText language identification model (lid.176.ftz)"]
    assert model["licence"] == "CC-BY-SA-3.0" and "fasttext.cc" in model["notice"]


def test_the_notices_file_lists_everything_with_the_licence_texts() -> None:
    """The installers' licence file: every component, the notices, and each package's licence texts."""
    notices = licences.NOTICES.read_text(encoding="utf-8")
    for name in committed():
        assert name in notices
    assert "Creative Commons Attribution-ShareAlike 3.0" in notices
    assert "Permission is hereby granted, free of charge" in notices  # an MIT licence text, e.g. litellm's


def test_the_deb_ships_the_notices_as_its_copyright_file() -> None:
    import deb  # packaging/deb.py

    text = deb.copyright_text("Processor Studio", "(not published)", "processor-studio")
    header, _, body = text.partition(" .\n")
    assert header.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
    assert "fastText language identification model (lid.176.ftz)" in body and "CC-BY-SA-3.0" in body
    assert all(line.startswith(" ") for line in body.splitlines())  # continuation lines of the Comment field


def test_the_bundle_leaves_out_what_the_studio_does_not_need_at_run_time() -> None:
    """The spec excludes every installed module outside the runtime closure (the dev extra here), never one the
    closure provides (OpenTelemetry export is a studio feature: the otel extra is bundled), nor the standard library."""
    excluded = set(licences.not_runtime_modules())
    assert {"pytest", "hypothesis", "mypy", "PyInstaller", "psycopg"} <= excluded
    kept = {"litellm", "opentelemetry", "google", "processors", "studio", "PySide6", "fasttext", "opencc", "json"}
    assert not excluded & kept


def test_the_closure_follows_the_extras_a_requirement_asks_for() -> None:
    """litellm requires ``httpx[http2]``: h2 is shipped (and listed), or litellm's providers fail in the bundle."""
    names = {canonicalize_name(d.metadata["Name"]) for d in licences.runtime_requirements()[0]}
    assert {"h2", "hpack", "hyperframe"} <= names
    assert "h2" not in licences.not_runtime_modules()
