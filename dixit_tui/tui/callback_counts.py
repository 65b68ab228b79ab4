"""How many parameters a callback takes, worked out once per function body or callable class, not per object.

Textual calls each callback it runs (`call_later`, `call_next`, an awaited mount) with as many arguments as it takes,
and works that out with `inspect.signature`, kept on the function object. The callbacks of a new session are new
objects each time (the closure `Widget.mount` makes for every mount, each `AwaitMount`), so every session paid for
a few dozen signatures (some 70 Python calls each). The count only depends on the code of a plain function (of a
bound method's function, less one) and on the class of a callable object: those are kept instead. Functions that
carry a signature of their own (`__wrapped__`, `__signature__`) are counted as before.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from types import BuiltinFunctionType, CodeType, FunctionType, MethodType
from typing import Any

import textual._callback as callback_module

_by_code: dict[CodeType, int] = {}
_by_class: dict[type, int] = {}
counted = 0
"""Signatures worked out since the process started (for tests)."""

_installed = False


def install_callback_counts() -> None:
    """Idempotent."""
    global _installed
    if _installed:
        return
    count = callback_module._count_parameters

    def shared_count(func: Callable[..., Any]) -> int:
        global counted
        if hasattr(func, "__wrapped__") or hasattr(func, "__signature__"):
            counted += 1
            return count(func)
        bound = type(func) is MethodType
        function = func.__func__ if bound else func  # type: ignore[attr-defined]
        if type(function) is FunctionType:  # (a bound method shows its function's __wrapped__, checked above)
            code = function.__code__
            found = _by_code.get(code)
            if found is None:
                counted += 1
                found = _by_code[code] = count(function)
            return found - 1 if bound else found
        if not isinstance(func, type | MethodType | partial | BuiltinFunctionType) and callable(func):
            cls = type(func)
            found = _by_class.get(cls)
            if found is None:
                counted += 1
                found = _by_class[cls] = count(func)
            return found
        counted += 1
        return count(func)

    callback_module._count_parameters = shared_count
    _installed = True
