"""Headless Chromium (Debian's `chromium` package) for the tests that look at a page as a person
sees it; they are skipped where it is not installed. Screenshots go to build/test-artifacts/."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

BROWSER = next(filter(None, map(shutil.which, ("chromium", "chromium-browser"))), None)
ARTIFACTS = Path(__file__).resolve().parent.parent / "build" / "test-artifacts"
WIDTH = 1280

needs_browser = pytest.mark.skipif(BROWSER is None, reason="needs Debian's chromium package "
                                                          "(apt-get install chromium)")


def chromium(*args: str, height: int = 900) -> str:
    command = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--window-size={WIDTH},{height}", "--virtual-time-budget=10000", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120,
                          check=True).stdout


def probed(dom: str, name: str) -> dict:
    """The JSON a probe script left in <pre id="NAME"> of a dumped DOM."""
    match = re.search(rf'<pre id="{name}">(.*?)</pre>', dom, re.S)
    assert match, dom[-2000:]
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&")
                      .replace("&lt;", "<").replace("&gt;", ">"))
