"""A game's page as a person sees it in headless Chromium: the keys step through the game, the
line and the hands are drawn, a seat's view hides the others' tiles, the hand's result shows at
its end and nothing is cut off at a laptop's width. Screenshots of a 4-player kozel game and a
fives game are kept in build/test-artifacts/. Skipped where no Chromium is installed."""

from __future__ import annotations

import pytest
from browser import ARTIFACTS, chromium, needs_browser, probed
from clitools import invoke

from domsim.pages.gamepage import game_frames
from domsim.record import read_records

#: Appended to a copy of the page: presses keys, and writes what it saw into <pre id="probe">.
PROBE = """<script>
window.addEventListener("load", () => {
  const where = () => document.getElementById("where").textContent;
  const key = k => document.dispatchEvent(new KeyboardEvent("keydown", {key: k}));
  const backs = () => document.querySelectorAll('.seat rect[fill="#34495e"]').length;
  const found = {start: where(), seats: document.querySelectorAll(".seat").length,
                 steps: document.querySelectorAll("#steps li").length};
  for (let i = 0; i < 5; i++) key("ArrowRight");
  found.fifth = where();
  found.tiles = document.querySelectorAll("#line rect").length;
  found.now = document.getElementById("now").textContent;
  found.backsUp = backs();
  const view = document.getElementById("view");
  view.value = "1";
  view.dispatchEvent(new Event("change"));
  found.backsSeat1 = backs();
  key("End");
  found.end = where();
  found.result = document.getElementById("result").hidden ? null
    : document.getElementById("result").textContent;
  key("PageUp");
  found.handBack = where();
  key("Home");
  found.home = where();
  found.sideways = document.documentElement.scrollWidth > document.documentElement.clientWidth;
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
});
</script>
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The pages of a 4-player kozel game and a 2-player fives game, with their records."""
    out = tmp_path_factory.mktemp("pages")
    made = {}
    for variant, players in (("kozel", 4), ("fives", 2)):
        record, page = out / f"{variant}.json", out / f"{variant}.html"
        result = invoke("play", "--variant", variant, "-p", "hard", "-n", str(players),
                        "--seed", "11", "--record", str(record), "--html", str(page))
        assert result.exit_code == 0, result.output
        made[variant] = (page, read_records(record)[0])
    return made


@needs_browser
@pytest.mark.parametrize("variant", ["kozel", "fives"])
def test_the_keys_step_through_the_game(pages, variant):
    page, record = pages[variant]
    frames = game_frames(record)
    hands = frames["hands"]
    probe = page.with_name(f"probe-{variant}.html")
    probe.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    found = probed(chromium("--dump-dom", probe.as_uri()), "probe")
    first = len(hands[0]["frames"])
    assert found["start"] == f"hand 1 of {len(hands)} \u00b7 step 1 of {first}"
    assert found["fifth"] == f"hand 1 of {len(hands)} \u00b7 step 6 of {first}"
    assert found["seats"] == record["players"]
    assert found["steps"] == sum(len(hand["frames"]) for hand in hands)
    assert found["tiles"] == min(5, sum(1 for f in hands[0]["frames"][1:6] if f["kind"] == "play"))
    assert found["now"].startswith(hands[0]["frames"][5]["text"])
    assert found["backsUp"] == 0
    held_by_others = sum(len(h) for seat, h in enumerate(hands[0]["frames"][-1]["hands"])
                         if seat != 1)
    assert found["backsSeat1"] >= held_by_others  # the others' tiles face down
    last = len(hands[-1]["frames"])
    assert found["end"] == f"hand {len(hands)} of {len(hands)} \u00b7 step {last} of {last}"
    assert " holds " in found["result"] and "Scores" in found["result"]
    assert frames["outcome"] in found["result"]
    assert found["handBack"].endswith(f"step 1 of {last}")
    assert found["home"].startswith("hand 1 of") and not found["sideways"]


@needs_browser
def test_screenshots_of_a_kozel_and_a_fives_game(pages):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for variant, step in (("kozel", 24), ("fives", 14)):
        page, _ = pages[variant]
        shot = ARTIFACTS / f"game-{variant}.png"
        chromium(f"--screenshot={shot}", page.as_uri() + f"#step={step}")
        assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000
