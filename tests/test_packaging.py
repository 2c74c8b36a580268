"""The wheel holds every package of the source tree: pyproject.toml lists them by hand, and a
package missing there works in an editable install but not in the installed wheel."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_in_the_wheel():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts)
             for init in (ROOT / "domsim").rglob("__init__.py")}
    assert found | {"domsim.strategies"} == listed
