"""Are the private parts the server relies on still what they were checked against? `check_internals` fingerprints
each part listed in `internals.py` (Textual) and `runtime_internals.py` (asyncio, asyncssh) in the installed source.

Touches no internal: it reads the installed packages' source files. Fast enough for every start of `dixit-tui serve`
(a few milliseconds): a module file identical to the one checked has every part in it unchanged, so only a file that
differs is parsed, and each part looked up in it.

`python -m dixit_tui.textual_host.check` prints the fingerprints of the installed versions (to update the lists).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.metadata
import importlib.util
import logging
import platform
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dixit_tui.textual_host import internals, runtime_internals
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

    def installed(self) -> str:
        if self.package == "asyncio":
            return platform.python_version()
        try:
            return importlib.metadata.version(self.package)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"


LIBRARIES: tuple[Library, ...] = (
    Library("Textual", "textual", internals.CHECKED_WITH, internals.INTERNALS, internals.MODULES),
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
        """The part was there and is no more (or its module is gone): the code relying on it cannot work."""
        return self.found is None and self.internal.fingerprint is not None

    def describe(self) -> str:
        item = self.internal
        if self.gone:
            what = "is gone"
        elif item.fingerprint is None:
            what = "now exists (the server adds its own)"
        else:
            what = "changed"
        return (
            f"{self.library.name} internal {item.name} ({item.module}) {what}: checked with {self.library.name} "
            f"{self.library.checked_with}, installed {self.installed}; {item.where} relies on it ({item.use})"
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
                state += f" from {result.library.checked_with}, see the log"
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
            if text is not None and fingerprint(text) == library.modules.get(module):
                continue
            sources = _Sources(text)
            for item in items:
                found = sources.fingerprint(item.name)
                if found != item.fingerprint:
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


def current(library: Library, root: Path | None = None) -> tuple[dict[str, str | None], dict[str, str]]:
    """Each of a library's parts' fingerprints in the installed source (None: it is not there), and each module's."""
    root = root or package_root(library.package)
    parts: dict[str, str | None] = {}
    modules: dict[str, str] = {}
    for module in dict.fromkeys(item.module for item in library.internals):
        text = _read(root, module)
        if text is not None:
            modules[module] = fingerprint(text)
        sources = _Sources(text)
        for item in library.internals:
            if item.module == module:
                parts[f"{module}:{item.name}"] = sources.fingerprint(item.name)
    return parts, modules


if __name__ == "__main__":
    for lib in LIBRARIES:
        print(f"# {lib.name} {lib.installed()}")
        found_parts, found_modules = current(lib)
        for key, value in found_parts.items():
            print(f"{value}  {key}")
        for key, value in found_modules.items():
            print(f"{value}  {key} (whole file)")
