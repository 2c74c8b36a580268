"""report.html as a person sees it: rendered by headless Chromium (Debian's `chromium` package),
every chart has loaded and nothing is cut off at a laptop's window width; a screenshot is kept
in build/test-artifacts/. Skipped where no Chromium is installed."""

from __future__ import annotations

import json
import re

import pytest
from browser import ARTIFACTS, chromium, needs_browser
from browser import probed as probed_json
from clitools import invoke

#: Appended to a copy of the page: once everything has loaded, list what did not load and what
#: reaches past the window's right edge, into <pre id="probe">.
PROBE = """<script>
window.addEventListener("load", () => {
  const width = document.documentElement.clientWidth, problems = [];
  for (const img of document.images) {
    if (!img.complete || img.naturalWidth === 0) problems.push("not loaded: " + img.title);
    if (img.getBoundingClientRect().right > width + 1) problems.push("cut off: " + img.title);
  }
  for (const box of document.querySelectorAll("h3, .scroll, p, li")) {
    if (box.getBoundingClientRect().right > width + 1)
      problems.push("cut off: " + box.textContent.slice(0, 60));
  }
  if (document.documentElement.scrollWidth > width) problems.push("the page scrolls sideways");
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({images: document.images.length, problems});
  document.body.appendChild(out);
});
</script>
"""

#: The same for the first screen: what is in view without scrolling, into <pre id="first">.
FIRST_SCREEN = """<script>
window.addEventListener("load", () => {
  const seen = (el) => el && el.getBoundingClientRect().bottom <= window.innerHeight;
  const out = document.createElement("pre");
  out.id = "first";
  out.textContent = JSON.stringify({
    summary: seen(document.querySelector("table.summary")),
    ship: seen([...document.querySelectorAll("h2")]
      .find(h => h.textContent === "Settings to ship")),
    open: [...document.querySelectorAll("details")].filter(d => d.open).length,
    folded: document.querySelectorAll("details").length});
  document.body.appendChild(out);
});
</script>
"""


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    out = tmp_path_factory.mktemp("browser") / "cal"
    result = invoke("calibrate", "--variant", "block", "--variant", "kozel", "--level", "easy",
                    "--level", "medium", "--setting", "0", "--setting", "0.3", "--games", "1",
                    "--seed", "5", "-j", "2", "--silent", "--samples", "20", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def probed(calibrated) -> dict[str, dict]:
    """What each probe found in one load of the page (1280 x 900): PROBE's and FIRST_SCREEN's
    findings, by their ids. PROBE's listener is added first, so it measures the page before
    FIRST_SCREEN adds its line of findings (which it must not count as the page's)."""
    page = (calibrated / "report.html").read_text(encoding="utf-8")
    probe = calibrated / "probe.html"
    probe.write_text(page.replace("</body>", PROBE + FIRST_SCREEN + "</body>"), encoding="utf-8")
    dom = chromium("--dump-dom", probe.as_uri())
    return {name: probed_json(dom, name) for name in ("probe", "first")}


@needs_browser
def test_every_chart_loads_and_nothing_is_cut_off(calibrated, probed):
    out = calibrated
    page = (out / "report.html").read_text(encoding="utf-8")
    figures = probed["probe"]
    assert figures["images"] == page.count("<img ") and figures["images"] >= 11
    assert figures["problems"] == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "report.png"
    chromium(f"--screenshot={shot}", (out / "report.html").as_uri(), height=3000)
    assert shot.read_bytes().startswith(b"\x89PNG")


@needs_browser
def test_the_first_screen_is_the_summary_and_the_settings_to_ship(calibrated, probed):
    """At a laptop's window (1280 x 900) the summary table and the settings' heading are in
    view without scrolling; every detail is folded. A screenshot is kept."""
    out = calibrated
    figures = probed["first"]
    assert figures["summary"] and figures["ship"]
    assert figures["open"] == 0 and figures["folded"] >= 3
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "report-first-screen.png"
    chromium(f"--screenshot={shot}", (out / "report.html").as_uri())
    assert shot.read_bytes().startswith(b"\x89PNG")


@needs_browser
def test_a_game_of_every_step_is_one_click_away(calibrated):
    """From report.html each played step links its games; a linked page opens in the browser
    with its table drawn (a screenshot is kept)."""
    page = (calibrated / "report.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="(games/[^"]+\.html)">', page)
    calibration = json.loads((calibrated / "calibration.json").read_text())
    played = [step for ladder in calibration["ladders"] for step in ladder["steps"]]
    assert played and len(links) >= len(played)
    assert all((calibrated / link).is_file() for link in links)
    dom = chromium("--dump-dom", (calibrated / links[0]).as_uri())
    where = re.search(r'id="where"[^>]*>([^<]*)<', dom)
    assert where and where[1].startswith("hand 1 of ")
    assert dom.count("<rect") > 10  # tiles drawn in the hands
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "report-step-game.png"
    chromium(f"--screenshot={shot}", (calibrated / links[0]).as_uri() + "#step=12")
    assert shot.read_bytes().startswith(b"\x89PNG")
