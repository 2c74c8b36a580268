"""Tests marked `sandbox` need the bots' sandbox: where it cannot start (a user without root on a
machine that refuses unprivileged user namespaces), they skip with its one-line reason."""

import pytest

from domsim.seat import sandbox


def pytest_collection_modifyitems(config, items):
    reason = sandbox.check()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=f"the bot sandbox cannot start here: {reason}")
    for item in items:
        if item.get_closest_marker("sandbox"):
            item.add_marker(skip)
