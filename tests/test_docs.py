"""The repository carries its own references: every rule id the code, tests and docs cite is
defined in docs/RULES.md, and every document they point to exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [*ROOT.glob("domsim/**/*.py"), *ROOT.glob("strategies/*.py"),
           *ROOT.glob("core/src/**/*.rs"), *ROOT.glob("tests/*.py"), *ROOT.glob("bench/*.py"),
           ROOT / "README.md", *ROOT.glob("docs/*.md")]
RULE_ID = re.compile(r"\bR-[A-Z0-9]+(?:-[A-Z0-9]+)*")


def defined_ids() -> set[str]:
    """The ids docs/RULES.md defines: in a heading, or opening a bullet."""
    text = (ROOT / "docs/RULES.md").read_text(encoding="utf-8")
    return set(re.findall(r"^(?:## |- )(R-[A-Z0-9-]+[A-Z0-9])", text, re.MULTILINE))


def test_every_cited_rule_id_is_defined():
    defined = defined_ids()
    cited = {(m, path.relative_to(ROOT).as_posix()) for path in SOURCES
             for m in RULE_ID.findall(path.read_text(encoding="utf-8"))}
    assert len(defined) >= 27
    assert {"R-MUST", "R-DUP", "R-TARGET", "R-KOZEL-25"} <= defined
    assert sorted((rule, where) for rule, where in cited if rule not in defined) == []


def test_cited_documents_exist():
    """A docs path in the code, and relative links inside docs/, name files that are there."""
    missing = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        names = re.findall(r"docs/([A-Za-z-]+\.md)", text)
        if path.parent.name == "docs":
            names += re.findall(r"\]\(([A-Za-z-]+\.md)", text)
        missing += [(path.name, name) for name in names if not (ROOT / "docs" / name).is_file()]
    assert missing == []

