"""The private parts of Textual (and of asyncssh and asyncio) the project relies on are still what they were checked
against: an upgrade that changes one fails here, naming the part and the file to re-check (see
dixit_tui/textual_host/internals.py). And the check `dixit-tui serve` runs at start sees a part that differs in a
modified copy of a Textual module, and says which."""

from __future__ import annotations

import argparse
import logging
import shutil
import tomllib
from pathlib import Path

import pytest
import textual
from packaging.requirements import Requirement
from packaging.version import Version

from dixit_tui.serve import check_internals_at_start
from dixit_tui.textual_host import internals, releases
from dixit_tui.textual_host.check import LIBRARIES, check_internals, fingerprint, key, package_root, source_of
from dixit_tui.textual_host.internals import CHECKED_WITH

TEXTUAL = LIBRARIES[0]


def test_every_private_part_relied_on_is_unchanged() -> None:
    report = check_internals()
    changed = [difference.describe() for difference in report.differences]
    assert not changed, "\n".join(changed)


def test_every_module_is_the_one_checked_so_the_check_at_start_reads_no_module_twice() -> None:
    """Each module file is the one of a release checked (`MODULES`, and `releases.MODULES` for Textual's other
    releases): the check then hashes it and parses nothing. A file that changed elsewhere than in the parts listed is
    parsed at each start: update its fingerprint."""
    for library in LIBRARIES:
        root = package_root(library.package)
        assert set(library.modules) == {item.module for item in library.internals}, library.name
        for module in library.modules:
            found = fingerprint((root / module).read_text(encoding="utf-8"))
            assert library.known_file(module, found), f"{library.name}: {module}"


def textual_requirement() -> Requirement:
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    [requirement] = [Requirement(line) for line in pyproject["project"]["dependencies"] if line.startswith("textual")]
    return requirement


def test_the_pin_admits_every_release_checked_from_the_lowest() -> None:
    """pyproject.toml's Textual pin admits every release whose parts are fingerprinted (`releases.py`), three minors
    at least, from the lowest checked (the one CI also runs the TUI tests on: .ci/run), and nothing before it; the
    installed one is one of them (a new release is fingerprinted before it is used: `check.py --releases`). A release
    after the last one checked is admitted by the pin: its parts are then checked at start."""
    specifier = textual_requirement().specifier
    checked = [Version(release) for release in releases.RELEASES]
    assert checked == sorted(checked) and str(checked[-1]) == CHECKED_WITH
    assert all(specifier.contains(release) for release in checked)
    assert not specifier.contains(Version(f"{checked[0].major}.{checked[0].minor}.{checked[0].micro}.dev0"))
    earlier = Version(f"{checked[0].major}.{checked[0].minor - 1}") if checked[0].minor else None
    assert earlier is None or not specifier.contains(earlier)
    assert len({(release.major, release.minor) for release in checked}) >= 3
    assert not specifier.contains(Version(f"{checked[-1].major + 1}.0"))
    assert textual.__version__ in releases.RELEASES


def test_every_part_is_fingerprinted_in_every_release_checked() -> None:
    """`releases.py` has each part's source in every release (regenerate it when a part is added: see check.py), and
    the one it has at CHECKED_WITH is the part's fingerprint in `internals.py`."""
    for item in internals.INTERNALS:
        assert key(item) in releases.PARTS, f"{key(item)}: not in releases.py"
        sources = TEXTUAL.known(item)
        having = [release for found in sources.values() for release in found]
        assert sorted(having) == sorted(releases.RELEASES), key(item)
        assert CHECKED_WITH in releases.PARTS[key(item)].get(item.fingerprint, ""), key(item)
    assert set(releases.MODULES) >= set(internals.MODULES)


def test_the_fingerprints_see_a_change() -> None:
    text = "from a import b as c\nclass A:\n    def f(self):\n        return 1\n    x: int = 2\n"
    assert source_of(text, "A.f") == "def f(self):\n        return 1"
    assert source_of(text, "A.x") == "x: int = 2"
    assert source_of(text, "c") == "from a import b as c"
    assert source_of(text, "A.g") is None and source_of(text, "B.f") is None
    changed = text.replace("return 1", "return 2")
    assert fingerprint(source_of(changed, "A.f") or "") != fingerprint(source_of(text, "A.f") or "")


def textual_copy(tmp_path: Path) -> Path:
    """A copy of the modules the list names, as the installed Textual has them: the folder holding textual/."""
    root = package_root("textual")
    for module in internals.MODULES:
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / module, tmp_path / module)
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_check_names_a_part_changed_in_a_copy_of_a_textual_module(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = textual_copy(tmp_path)
    assert not check_internals({"textual": root}).differences  # (the copy as installed)
    parser = root / "textual/_xterm_parser.py"
    # a part every release the pin admits has (releases.py): the check is the same on the lowest and the newest
    assert None not in releases.PARTS["textual/_xterm_parser.py:XTermParser.__init__"]
    edit(parser, "        self.last_x = 0.0\n", "        self.last_x = 1.0\n")
    edit(parser, "from __future__ import annotations\n", "from __future__ import annotations\n# a comment\n")
    report = check_internals({"textual": root})
    [difference] = report.differences  # (the comment changes the file, but no part listed)
    assert difference.internal.name == "XTermParser.__init__" and not difference.gone
    assert difference.installed == textual.__version__ and difference.library.checked_with == CHECKED_WITH
    said = difference.describe()
    assert "XTermParser.__init__" in said and "dixit_tui/textual_host/parser.py" in said
    assert f"checked with Textual {TEXTUAL.checked()}" in said and f"installed {textual.__version__}" in said
    assert TEXTUAL.checked() == f"{releases.RELEASES[0]} to {CHECKED_WITH} ({len(releases.RELEASES)} releases)"
    assert f"Textual {textual.__version__}: {len(internals.INTERNALS)} internals checked, 1 differ" in report.summary()

    caplog.set_level(logging.WARNING)
    assert check_internals_at_start(argparse.Namespace(), report)  # changed, not gone: the server starts
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [(logging.WARNING, said)]


def test_a_part_gone_stops_the_start_unless_allowed(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = textual_copy(tmp_path)
    edit(root / "textual/_xterm_parser.py", "    def __init__(self, debug", "    def __init_gone__(self, debug")
    report = check_internals({"textual": root})
    [difference] = report.gone
    assert difference.internal.name == "XTermParser.__init__" and "is gone" in difference.describe()
    assert f"checked with Textual {TEXTUAL.checked()}" in difference.describe()

    caplog.set_level(logging.WARNING)
    assert not check_internals_at_start(argparse.Namespace(), report)
    assert [r.levelno for r in caplog.records] == [logging.ERROR, logging.ERROR]
    assert "--allow-textual-mismatch" in caplog.records[-1].getMessage()
    caplog.clear()
    assert check_internals_at_start(argparse.Namespace(allow_textual_mismatch=True), report)
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    caplog.clear()
    assert not check_internals_at_start(argparse.Namespace(reuse_port=True), report)  # a worker: its supervisor said
    assert not caplog.records


def test_a_part_some_releases_checked_do_not_have_is_not_missed(tmp_path: Path) -> None:
    """Textual's own Kitty-key parsing (`XTermParser._parse_extended_key`, which parser.py overrides) came in 8.2.7:
    without it, as in the earlier releases checked, the server starts with nothing said (its override is then not
    called); had it been gone from every release checked, the server would not start."""
    [item] = [item for item in internals.INTERNALS if item.name == "XTermParser._parse_extended_key"]
    assert releases.RELEASES[0] in TEXTUAL.known(item)[None]
    root = textual_copy(tmp_path)
    parser = root / "textual/_xterm_parser.py"
    text = parser.read_text(encoding="utf-8")
    if source_of(text, "XTermParser._parse_extended_key") is not None:  # (the installed release has it: renamed)
        edit(parser, "    def _parse_extended_key(", "    def _parse_extended_key_before(")
    assert not check_internals({"textual": root}).differences
    assert check_internals_at_start(argparse.Namespace(), check_internals({"textual": root}))
