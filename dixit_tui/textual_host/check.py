"""Are the private parts the server relies on still what they were checked against? `check_internals` fingerprints
each part listed in `internals.py` (Textual) and `runtime_internals.py` (asyncio, asyncssh) in the installed source.

Touches no internal: it reads the installed packages' source files. Fast enough for every start of `dixit-tui serve`
(a few milliseconds): a module file identical to the one checked has every part in it unchanged, so only a file that
differs is parsed, and each part looked up in it.

Textual: a part may differ between the releases the pin admits (8.0 to 8.2), and the code relying on it then adapts
(`compat.py`). `releases.py` holds each part's source, fingerprinted, in every such release: a part matches when its
source now is the one of any release checked (absent too, where some releases have no such part).

`python -m dixit_tui.textual_host.check` prints the fingerprints of the installed versions (to update the lists);
`python -m dixit_tui.textual_host.check --releases WHEEL...` writes `releases.py` from Textual's wheels (`pip download
--no-deps textual==8.0.0 ... -d wheels`), and `--differences` says, per part, in which releases its source differs.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.metadata
import importlib.util
import logging
import platform
import re
import sys
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dixit_tui.textual_host import internals, releases, runtime_internals
from dixit_tui.textual_host.internals import Internal

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Library:
    """A package whose private parts are listed, with the version they were checked against."""

    name: str  # as people say it: "Textual", "asyncssh", "Python"
    package: str  # its folder (an importable top-level name): "textual", "asyncssh", "asyncio"
    checked_with: str
    internals: tuple[Internal, ...]
    modules: Mapping[str, str]  # module file -> fingerprint of the whole file at checked_with
    # Other releases checked (Textual's, in `releases.py`): each is known to work with the code relying on its parts.
    releases: tuple[str, ...] = ()
    # "module:Name" -> each source the part has in those releases (None: not there) -> the releases that have it, as
    # `spans` says them ("8.0.0-8.2.6, 8.2.8")
    part_sources: Mapping[str, Mapping[str | None, str]] = field(default_factory=dict)
    # module file -> each whole-file fingerprint in those releases -> the releases that have it
    module_sources: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def every(self) -> list[str]:
        """Every release checked, oldest first."""
        return sorted({*self.releases, self.checked_with}, key=_release_key)

    def known(self, item: Internal) -> dict[str | None, tuple[str, ...]]:
        """Each source (fingerprint) `item` has in a release checked, and the releases that have it."""
        every = self.every()
        known = {found: unspans(said, every) for found, said in self.part_sources.get(key(item), {}).items()}
        if self.checked_with not in known.get(item.fingerprint, ()):
            known[item.fingerprint] = (*known.get(item.fingerprint, ()), self.checked_with)
        return known

    def known_file(self, module: str, found: str) -> bool:
        """The module's whole file is the one of a release checked (every part in it is then as in that release)."""
        return found == self.modules.get(module) or found in self.module_sources.get(module, {})

    def checked(self) -> str:
        """The releases checked, as people say them: "8.2.8", or "8.0.0 to 8.2.8 (14 releases)"."""
        every = self.every()
        if len(every) == 1:
            return every[0]
        return f"{every[0]} to {every[-1]} ({len(every)} releases)"

    def installed(self) -> str:
        if self.package == "asyncio":
            return platform.python_version()
        try:
            return importlib.metadata.version(self.package)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"


LIBRARIES: tuple[Library, ...] = (
    Library(
        "Textual",
        "textual",
        internals.CHECKED_WITH,
        internals.INTERNALS,
        internals.MODULES,
        releases.RELEASES,
        releases.PARTS,
        releases.MODULES,
    ),
    Library(
        "asyncssh",
        "asyncssh",
        runtime_internals.ASYNCSSH_CHECKED_WITH,
        runtime_internals.ASYNCSSH_INTERNALS,
        runtime_internals.ASYNCSSH_MODULES,
    ),
    Library(
        "Python",
        "asyncio",
        runtime_internals.PYTHON_CHECKED_WITH,
        runtime_internals.ASYNCIO_INTERNALS,
        runtime_internals.ASYNCIO_MODULES,
    ),
)


@dataclass(frozen=True)
class Difference:
    """A part whose source is not what was checked."""

    library: Library
    installed: str  # the library's installed version
    internal: Internal
    found: str | None  # its fingerprint now (None: not there)

    @property
    def gone(self) -> bool:
        """The part was there in every release checked and is no more (or its module is gone): the code relying on
        it cannot work."""
        return self.found is None and None not in self.library.known(self.internal)

    def describe(self) -> str:
        item = self.internal
        library = self.library
        if self.gone:
            what = "is gone"
        elif self.found is not None and set(library.known(item)) == {None}:
            what = "now exists (the server adds its own)"
        else:
            what = "changed"
        return (
            f"{library.name} internal {item.name} ({item.module}) {what}: checked with {library.name} "
            f"{library.checked()}{_variants(library, item)}, installed {self.installed}; {item.where} relies on it "
            f"({item.use})"
        )


@dataclass(frozen=True)
class LibraryResult:
    library: Library
    installed: str
    checked: int  # entries checked
    differences: tuple[Difference, ...]


@dataclass(frozen=True)
class InternalsReport:
    results: tuple[LibraryResult, ...]

    @property
    def differences(self) -> tuple[Difference, ...]:
        return tuple(difference for result in self.results for difference in result.differences)

    @property
    def gone(self) -> tuple[Difference, ...]:
        return tuple(difference for difference in self.differences if difference.gone)

    def summary(self) -> str:
        """One line, e.g. "Textual 8.2.8: 117 internals checked, all match; asyncssh 2.24.1: 5 checked, all match"."""
        parts = []
        for index, result in enumerate(self.results):
            count = f"{result.checked} internals checked" if index == 0 else f"{result.checked} checked"
            if result.differences:
                gone = sum(difference.gone for difference in result.differences)
                state = f"{len(result.differences)} differ{f' ({gone} gone)' if gone else ''}"
                state += f" from {result.library.checked()}, see the log"
            else:
                state = "all match"
            parts.append(f"{result.library.name} {result.installed}: {count}, {state}")
        return "; ".join(parts)

    def log(self, log: logging.Logger = logger) -> None:
        """A WARNING per part that differs."""
        for difference in self.differences:
            log.warning("%s", difference.describe())


def check_internals(roots: Mapping[str, Path] | None = None) -> InternalsReport:
    """Each listed part's fingerprint in the installed source (or, for a package in `roots`, in the folder given: the
    folder holding the package's folder, as site-packages holds textual/)."""
    results = []
    for library in LIBRARIES:
        root = (roots or {}).get(library.package) or package_root(library.package)
        installed = library.installed()
        differences = []
        by_module: dict[str, list[Internal]] = {}
        for item in library.internals:
            by_module.setdefault(item.module, []).append(item)
        for module, items in by_module.items():
            text = _read(root, module)
            if text is not None and library.known_file(module, fingerprint(text)):
                continue
            sources = _Sources(text)
            for item in items:
                found = sources.fingerprint(item.name)
                if found not in library.known(item):
                    differences.append(Difference(library, installed, item, found))
        results.append(LibraryResult(library, installed, len(library.internals), tuple(differences)))
    return InternalsReport(tuple(results))


@functools.cache
def installed_internals() -> InternalsReport:
    """`check_internals` of the installed packages, worked out once per process."""
    return check_internals()


def package_root(package: str) -> Path:
    """The folder that holds the package's folder (site-packages, or the standard library's)."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None, package
    return Path(spec.origin).parent.parent


def _read(root: Path, module: str) -> str | None:
    try:
        return (root / module).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


class _Sources:
    """A module's text, parsed when first asked."""

    def __init__(self, text: str | None) -> None:
        self._text = text
        self._tree: ast.Module | None = None

    def fingerprint(self, name: str) -> str | None:
        if self._text is None:
            return None
        if self._tree is None:
            try:
                self._tree = ast.parse(self._text)
            except SyntaxError:
                self._text = None
                return None
        source = _source_in(self._tree, self._text, name)
        return None if source is None else fingerprint(source)


def source_of(text: str, name: str) -> str | None:
    """The source of `name` (Class.member or a module-level name) in a module's text, or None if it is not there."""
    return _source_in(ast.parse(text), text, name)


def _source_in(tree: ast.Module, text: str, name: str) -> str | None:
    path = name.split(".")
    scope: list[ast.stmt] = tree.body
    node: ast.stmt | None = None
    for i, part in enumerate(path):
        node = None
        for stmt in scope:
            names: list[str] = []
            if isinstance(stmt, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                names = [stmt.name]
            elif isinstance(stmt, ast.Assign):
                names = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                names = [stmt.target.id]
            elif isinstance(stmt, ast.Import | ast.ImportFrom):
                names = [alias.asname or alias.name.split(".")[0] for alias in stmt.names]
            if part in names:
                node = stmt  # the last definition wins, as at run time
        if node is None:
            return None
        if i < len(path) - 1:
            if not isinstance(node, ast.ClassDef):
                return None
            scope = node.body
    assert node is not None
    return ast.get_source_segment(text, node)


def fingerprint(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def key(item: Internal) -> str:
    """How `releases.py` names a part: "module:Name"."""
    return f"{item.module}:{item.name}"


def _release_key(release: str) -> tuple[int, ...]:
    return tuple(int(number) for number in re.findall(r"\d+", release))


def spans(releases_having: Iterable[str], every: Sequence[str]) -> str:
    """Releases as runs of consecutive ones among `every`: "8.0.0-8.2.6, 8.2.8"."""
    having = set(releases_having)
    runs: list[list[str]] = []
    previous = False
    for release in every:
        if release in having:
            if previous:
                runs[-1].append(release)
            else:
                runs.append([release])
        previous = release in having
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def unspans(said: str, every: Sequence[str]) -> tuple[str, ...]:
    """The releases `spans` said, among `every` (oldest first)."""
    having: list[str] = []
    for run in said.split(", "):
        first, _, last = run.partition("-")
        start = every.index(first)
        having.extend(every[start : every.index(last or first) + 1])
    return tuple(having)


def _variants(library: Library, item: Internal) -> str:
    """How the part's source varies among the releases checked, if it does: " (its source: not there in
    8.0.0-8.2.6; 520f660eb07e65fd in 8.2.7; ...)"."""
    known = library.known(item)
    if len(known) < 2:
        return ""
    every = library.every()
    said = [
        f"{'not there' if source is None else source} in {spans(having, every)}" for source, having in known.items()
    ]
    return f" (its source: {'; '.join(said)})"


def current(
    library: Library, root: Path | None = None, read: Callable[[str], str | None] | None = None
) -> tuple[dict[str, str | None], dict[str, str]]:
    """Each of a library's parts' fingerprints in the installed source (None: it is not there), and each module's
    (`read`: a module's text by its file, instead of the installed one's)."""
    root = root or (None if read else package_root(library.package))
    parts: dict[str, str | None] = {}
    modules: dict[str, str] = {}
    for module in dict.fromkeys(item.module for item in library.internals):
        text = read(module) if read else _read(root or Path(), module)
        if text is not None:
            modules[module] = fingerprint(text)
        sources = _Sources(text)
        for item in library.internals:
            if item.module == module:
                parts[key(item)] = sources.fingerprint(item.name)
    return parts, modules


def _wheel_reader(wheel: zipfile.ZipFile) -> Callable[[str], str | None]:
    def read(module: str) -> str | None:
        try:
            return wheel.read(module).decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            return None

    return read


def releases_module(wheels: Sequence[Path], library: Library | None = None) -> str:
    """The text of `releases.py`: every part's and module's fingerprints in each of Textual's wheels given."""
    library = library or LIBRARIES[0]
    parts: dict[str, dict[str | None, list[str]]] = {key(item): {} for item in library.internals}
    modules: dict[str, dict[str, list[str]]] = {item.module: {} for item in library.internals}
    found_releases = []
    for path in sorted(wheels, key=lambda path: _release_key(path.name.split("-")[1])):
        release = path.name.split("-")[1]
        found_releases.append(release)
        with zipfile.ZipFile(path) as wheel:
            found_parts, found_modules = current(library, read=_wheel_reader(wheel))
        for name, value in found_parts.items():
            parts[name].setdefault(value, []).append(release)
        for module, value in found_modules.items():
            modules[module].setdefault(value, []).append(release)
    lines = [
        '"""Each private part of Textual listed in `internals.py`, fingerprinted in every Textual release the pin',
        "admits (pyproject.toml), as `check.py` does the installed one: a part matches when its source is the one of",
        "any release checked (the code relying on it works with each: `compat.py` adapts where they differ; None: that",
        "release has no such part). Generated: `python -m dixit_tui.textual_host.check --releases WHEEL...`.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        f"RELEASES: tuple[str, ...] = {tuple(found_releases)!r}",
        "",
        "# each part -> each of its sources (None: not there) -> the releases that have it",
        "PARTS: dict[str, dict[str | None, str]] = {",
    ]
    for name, sources in parts.items():
        lines.append(f"    {name!r}: {{")
        lines.extend(f"        {source!r}: {spans(having, found_releases)!r}," for source, having in sources.items())
        lines.append("    },")
    lines += [
        "}",
        "",
        "# each module's whole file -> the releases that have it",
        "MODULES: dict[str, dict[str, str]] = {",
    ]
    for module, files in modules.items():
        lines.append(f"    {module!r}: {{")
        lines.extend(f"        {source!r}: {spans(having, found_releases)!r}," for source, having in files.items())
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def differences_by_release(library: Library | None = None) -> str:
    """Per part whose source is not the same in every release checked: where each of its sources is found."""
    library = library or LIBRARIES[0]
    said = []
    for item in library.internals:
        variants = _variants(library, item)
        if variants:
            said.append(f"{item.name} ({item.module}, {item.where}){variants}")
    return "\n".join(said)


def main(argv: Sequence[str]) -> None:
    if argv[:1] == ["--releases"]:
        sys.stdout.write(releases_module([Path(wheel) for wheel in argv[1:]]))
        return
    if argv[:1] == ["--differences"]:
        sys.stdout.write(differences_by_release() + "\n")
        return
    for lib in LIBRARIES:
        sys.stdout.write(f"# {lib.name} {lib.installed()}\n")
        found_parts, found_modules = current(lib)
        for name, value in found_parts.items():
            sys.stdout.write(f"{value}  {name}\n")
        for name, value in found_modules.items():
            sys.stdout.write(f"{value}  {name} (whole file)\n")


if __name__ == "__main__":
    main(sys.argv[1:])
