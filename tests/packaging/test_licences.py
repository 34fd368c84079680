"""The generated licence list covers everything shipped: a new or upgraded runtime dependency without an entry fails
here until ``python packaging/licences.py`` is run and its output committed."""

import json

import licences  # packaging/licences.py (tests/packaging/conftest.py puts packaging/ on sys.path)


def committed() -> dict[str, dict[str, str]]:
    return {entry["name"]: entry for entry in json.loads(licences.COMPONENTS.read_text(encoding="utf-8"))}


def test_every_installed_runtime_dependency_has_an_entry_with_its_version_and_licence() -> None:
    listed = committed()
    distributions, _absent = licences.runtime_requirements()
    assert len(distributions) > 50  # the closure was walked, not just the direct requirements
    stale = []
    for distribution in distributions:
        name, version = str(distribution.metadata["Name"]), str(distribution.metadata["Version"])
        entry = listed.get(name)
        licence = licences.licence_of(distribution.metadata)
        if entry is None or entry["version"] != version or entry["licence"] != licence:
            stale.append(f"{name} {version}: {entry}")
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


def test_the_notices_file_is_what_the_generator_writes() -> None:
    """The installers' licence file: every component, and each package's licence texts."""
    notices = licences.NOTICES.read_text(encoding="utf-8")
    assert notices == licences.notices_text(), "run python packaging/licences.py and commit resources/licences/"
    for name in committed():
        assert name in notices
    assert "Creative Commons Attribution-ShareAlike 3.0" in notices


def test_the_deb_ships_the_notices_as_its_copyright_file() -> None:
    import deb  # packaging/deb.py

    text = deb.copyright_text("Processor Studio", "(not published)", "processor-studio")
    header, _, body = text.partition(" .\n")
    assert header.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
    assert "fastText language identification model (lid.176.ftz)" in body and "CC-BY-SA-3.0" in body
    assert all(line.startswith(" ") for line in body.splitlines())  # continuation lines of the Comment field
