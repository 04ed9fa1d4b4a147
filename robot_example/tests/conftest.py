"""`robotpy test` on a loaded machine: each robot process is waited for until it has gone.

pyfrc runs each robot test in a process of its own and, when the test is over, kills that process,
waits at most one second for it (``join(timeout=1)``) and closes it. A big process killed on a busy
machine can take longer than that to go; ``close()`` then raises "Cannot close a process while it
is still running", and pytest stops the whole run with an INTERNALERROR although every test passed
(seen once on a 2-core CI machine with another busy process). This waits for the killed process
first, for up to a minute, then lets pyfrc clean up as it does. pyfrc 2026.0.3.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

KILLED_PROCESS_WAIT_S = 60.0


def waiting_for_the_process(cleanup: Callable[[Any], None]) -> Callable[[Any], None]:
    """pyfrc's ``_cleanup_job`` for a job, once the job's process has been killed and has gone."""

    def cleanup_job(job: Any) -> None:
        process = job.process
        if process.is_alive():
            process.kill()
            process.join(timeout=KILLED_PROCESS_WAIT_S)
        cleanup(job)

    return cleanup_job


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "IsolatedTestsPlugin" and hasattr(plugin, "_cleanup_job"):
            plugin._cleanup_job = waiting_for_the_process(plugin._cleanup_job)
