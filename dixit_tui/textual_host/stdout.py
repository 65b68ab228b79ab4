"""An app of an SSH session leaves the process's sys.stdout and sys.stderr alone.

Touches: `textual.app.redirect_stdout` and `redirect_stderr` (contextlib's, imported into Textual's app module),
replaced in that module's namespace; `App._process_messages` looks them up there at each run. Why: Textual's app run
redirects the process-wide sys.stdout/sys.stderr into the app; with many apps in one process, overlapping sessions
would leave sys.stdout pointing at an app that has ended (the server's own output, and every other session's, lost).
Skipped only for apps driven by a `HostedDriver`: apps with other drivers (Pilot in tests) keep Textual's behaviour.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from dixit_tui.textual_host.hosted import HostedDriver


def _skip_for_hosted_apps(
    redirect: Callable[[Any], contextlib.AbstractContextManager[Any]],
) -> Callable[[Any], contextlib.AbstractContextManager[Any]]:
    def maybe_redirect(target: Any) -> contextlib.AbstractContextManager[Any]:
        driver = getattr(getattr(target, "app", None), "_driver", None)
        if isinstance(driver, HostedDriver):
            return contextlib.nullcontext(target)
        return redirect(target)

    return maybe_redirect


def keep_process_output() -> None:
    """Apps driven by a `HostedDriver` do not redirect the process's sys.stdout and sys.stderr. Not idempotent: called
    once, by `patches.install_textual_patches`."""
    import textual.app as textual_app

    namespace = vars(textual_app)
    namespace["redirect_stdout"] = _skip_for_hosted_apps(namespace["redirect_stdout"])
    namespace["redirect_stderr"] = _skip_for_hosted_apps(namespace["redirect_stderr"])
