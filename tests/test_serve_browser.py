"""The page of `shashki serve` in a real browser: Chromium from the system's packages, driven
by Playwright (`tox -e browser`, or `pytest -m browser` with playwright installed).

A whole game against the engine played by clicks, the two routes of a multi-capture told
apart square by square (by clicks and by a drag), illegal clicks, take-back, FEN and PDN in
and out, the analysis, engine against engine, the phone-sized layout.  Skipped, saying why,
where Playwright or Chromium is missing.
"""

import io
import json
import os
import random
import re
import shutil
import threading
import urllib.request

import pytest

import shashki
from shashki import pdn
from shashki.apps.web import Api, WebServer
from shashki.apps.web.games import EnginePool

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser tests drive Chromium with Playwright: "
                                   "pip install playwright, or run tox -e browser")


def _chromium():
    """The system's Chromium: $SHASHKI_CHROMIUM, else the first of the usual names on PATH
    (Playwright's own download of a browser is not used)."""
    named = os.environ.get("SHASHKI_CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = _chromium()
if CHROMIUM is None:
    pytest.skip("no Chromium found (apt-get install chromium, or set SHASHKI_CHROMIUM)",
                allow_module_level=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# two capture routes from d4 to h8 that part after b6 and d8 (russian)
TWO_ROUTES = "W:Wb2,h2,d4,h6:Be3,g3,c5,d6,c7,e7,g7,f8"
SHORT_ROUTE, LONG_ROUTE = "d4:b6:d8:f6:h8", "d4:b6:d8:h4:f2:d4:h8"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("egdb")
    server = WebServer(("127.0.0.1", 0), Api(pool=EnginePool(egdb=str(folder))))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        yield browser
        browser.close()


class Page:
    """The page, with what the tests read and do on it; the JavaScript errors it met are
    kept in `errors` (each test ends by checking there are none)."""

    def __init__(self, page, server):
        self.page = page
        self.server = server
        self.errors = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: message.type == "error" and
                # a 4xx answer that the test asked for is logged by the browser too
                "Failed to load resource" not in message.text and
                self.errors.append(message.text))
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']")

    # --- reading ------------------------------------------------------------------------

    def game_id(self):
        return re.search(r"/api/games/([0-9a-f]+)/pdn", self.page.get_attribute(
            "#download", "href")).group(1)

    def state(self):
        """The game's state as the server holds it."""
        with urllib.request.urlopen(f"{self.server.url}api/games/{self.game_id()}") as answer:
            return json.load(answer)

    def ply(self):
        return int(self.page.get_attribute("body", "data-ply"))

    def wait_ply(self, ply, exact=True):
        """Wait until the page shows move `ply` (or a later one, when not `exact`: the engine
        may have answered already)."""
        test = "==" if exact else ">="
        self.page.wait_for_function(f"Number(document.body.dataset.ply) {test} {ply}",
                                    timeout=30_000)

    def message(self, words):
        """The message shown, once it says `words` (an earlier one may still be up); a
        TimeoutError when it does not come."""
        self.page.wait_for_function(
            f"!document.querySelector('#message').hidden && document.querySelector"
            f"('#message').textContent.includes({json.dumps(words)})", timeout=10_000)
        return self.page.inner_text("#message")

    def status(self):
        return self.page.inner_text("#status")

    # --- doing ----------------------------------------------------------------------------

    def square(self, square):
        key = "data-name" if isinstance(square, str) else "data-square"
        return self.page.locator(f"rect.square[{key}='{square}']")

    def click(self, square):
        self.square(square).click()

    def setup(self, mode="human", level=0, variant=None):
        if variant is not None and self.page.input_value("#variant") != variant:
            self.page.select_option("#variant", variant)
            self.page.wait_for_function(
                f"document.querySelector('#download').href.length > 0 && "
                f"document.querySelector('svg.board').getAttribute('aria-label')"
                f".startsWith({json.dumps(shashki.get_variant(variant).title)})")
        self.page.select_option("#level", str(level))
        self.page.select_option("#mode", mode)

    def load(self, text):
        version = self.page.get_attribute("#download", "href")
        self.page.fill("#load-text", text)
        self.page.click("#load")
        self.page.wait_for_function(
            f"document.querySelector('#download').getAttribute('href') !== {json.dumps(version)}")


@pytest.fixture
def page(browser, server):
    # (Playwright's waits evaluate text as script, which the page's policy forbids)
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True, bypass_csp=True)
    wrapper = Page(context.new_page(), server)
    yield wrapper
    context.close()
    assert wrapper.errors == []


def simulate(legal, route, square):
    """What the page's MovePicker does with a click on `square` after `route` (the squares
    clicked so far): ("move", move), ("step", route), ("ambiguous", None) or ("other", None).
    The tests check the page against it."""
    candidates = [m for m in legal if m["path"][:len(route)] == route]
    step = [m for m in candidates if len(m["path"]) > len(route) and
            m["path"][len(route)] == square]
    if step:
        complete = [m for m in step if len(m["path"]) == len(route) + 1]
        if len(step) == 1 or len(complete) == 1:
            return "move", step[0] if len(step) == 1 else complete[0]
        return "step", route + [square]
    ending = [m for m in candidates if m["to"] == square]
    if len(ending) == 1:
        return "move", ending[0]
    return ("ambiguous" if ending else "other"), None


def play_by_clicks(page, legal, move):
    """Enter `move` on the page: its piece, then its end square, and where that is not
    enough, the squares along its route; returns the number of clicks."""
    route = [move["from"]]
    page.click(move["from"])
    clicks = 1
    kind, chosen = simulate(legal, route, move["to"])
    if kind == "move" and chosen == move:
        page.click(move["to"])
        return clicks + 1
    for square in move["path"][1:]:
        page.click(square)
        clicks += 1
        kind, chosen = simulate(legal, route, square)
        if kind == "move":
            assert chosen == move
            return clicks
        assert kind == "step"
        route.append(square)
    raise AssertionError(f"{move['text']} was not entered")


# --- playing ---------------------------------------------------------------------------------

def test_a_whole_game_against_the_engine_by_clicks(page):
    page.setup(mode="white", level=1)            # depth 2
    page.page.click("#new-game")
    page.wait_ply(0)
    rng = random.Random(7)
    while True:
        page.page.wait_for_function("document.body.dataset.thinking === '' && "
                                    "(/\\(you\\)/.test(document.querySelector('#status')"
                                    ".textContent) || document.querySelector('#status')"
                                    ".classList.contains('over'))", timeout=30_000)
        state = page.state()
        if state["outcome"] is not None:
            break
        assert state["turn"] == "white" and page.ply() == state["ply"]
        move = rng.choice(state["legal"])
        play_by_clicks(page, state["legal"], move)
        page.wait_ply(state["ply"] + 1, exact=False)
        assert page.state()["moves"][state["ply"]]["text"] == move["text"]
        assert state["ply"] < 400
    # the end is shown, and the whole game is in the move list and the PDN
    outcome = state["outcome"]
    assert page.status().startswith(f"{outcome['result']}: {outcome['reason']}")
    assert page.page.locator("#moves button.move").count() == len(state["moves"])
    assert page.page.inner_text("#moves .result") == outcome["result"]
    board = shashki.Board("russian")
    for move in state["moves"]:
        board.push(move["text"])
    assert board.outcome() is not None and board.fen() == state["fen"]


def test_a_capture_with_two_routes(page):
    page.setup(mode="human")
    page.load(TWO_ROUTES)
    state = page.state()
    assert state["fen"] == TWO_ROUTES and {m["text"] for m in state["legal"]} >= {
        SHORT_ROUTE, LONG_ROUTE}
    # both routes end on h8: a click there is not enough
    def marked(kind):
        return {shashki.get_variant("russian").square_name(int(s)) for s in page.page.eval_on_selector_all(
            f"circle.target{kind}", "els => els.map(e => e.dataset.square)")}

    page.click("d4")
    # the man crowns on d8 and goes on as a king: d4 has five captures, two ending on h8
    assert marked(":not(.end)") == {"b6", "f2"} and marked(".end") == {"d2", "c1", "h4"}
    page.click("h8")
    page.message("2 routes lead to h8")
    page.click("b6")
    page.click("d8")
    # where the routes part: f6 to h8, g5 to d2 or c1, h4 and on to h8
    assert marked(":not(.end)") == {"f6", "g5", "h4"}
    page.click("h4")
    page.wait_ply(1)
    last = page.state()["last"]
    assert last["text"] == LONG_ROUTE and len(last["captured"]) == 6
    assert page.page.locator(".last-cross").count() == 6     # the pieces taken, marked
    # taken back, and the other route entered by dragging the piece to h8, then the squares
    page.page.click("#undo")
    page.wait_ply(0)
    page.square("d4").drag_to(page.square("h8"))
    page.message("2 routes lead to h8")
    for name in ("b6", "d8", "f6"):
        page.click(name)
    page.wait_ply(1)
    assert page.state()["last"]["text"] == SHORT_ROUTE


def test_routes_that_part_at_once(page):
    """english: 18x11x2 and 18x9x2 both end on 2; the first landing square tells them
    apart."""
    page.setup(mode="human", variant="english")
    page.load("W:W13,18,22,28,31,32:B1,3,5-7,10,14,15,20,K23")
    page.click("18")
    page.click("9")
    page.wait_ply(1)
    assert page.state()["last"]["text"] == "18x9x2"


def test_illegal_clicks_play_nothing(page):
    page.setup(mode="human", variant="russian")
    page.click("e5")
    page.message("e5 is empty")
    page.click("b6")
    page.message("the piece on b6 is black; it is white's move")
    page.click("c3")
    page.click("c5")
    page.message("the piece on c3 cannot go to c5")
    page.click("a1")
    page.message("the piece on a1 cannot move")
    assert page.ply() == 0 and page.state()["moves"] == []
    # a capture is compulsory: the other pieces may not move
    page.load("W:Wc3,g3:Bd4")
    page.click("g3")
    page.message("a capture is compulsory")
    page.click("g3")
    page.click("h4")
    assert page.ply() == 0 and page.state()["moves"] == []
    # a piece dragged where it may not go goes back
    page.square("g3").drag_to(page.square("h4"))
    assert page.ply() == 0


def test_take_back_against_the_engine(page):
    page.setup(mode="white", level=0, variant="russian")
    page.page.click("#new-game")
    page.wait_ply(0)
    page.click("c3")
    page.click("d4")
    page.wait_ply(2)                             # the engine has answered
    page.page.click("#undo")
    page.wait_ply(0)
    assert page.state()["moves"] == [] and "(you)" in page.status()
    page.page.wait_for_timeout(500)
    assert page.ply() == 0                       # the engine does not play for White


def test_going_through_the_moves(page):
    page.setup(mode="human", variant="russian")
    for origin, target in (("c3", "d4"), ("f6", "g5"), ("g3", "f4")):
        ply = page.ply()
        page.click(origin)
        page.click(target)
        page.wait_ply(ply + 1)
    page.page.click("#moves button.move[data-ply='1']")
    page.wait_ply(1)
    assert "move 1 of 3 shown" in page.status()
    page.page.keyboard.press("ArrowRight")
    page.wait_ply(2)
    page.page.click("#first")
    page.wait_ply(0)
    page.page.keyboard.press("End")
    page.wait_ply(3)
    # the last move is marked on the board
    assert page.page.locator(".last-move").count() == 2


# --- FEN and PDN -------------------------------------------------------------------------------

def test_fen_paste_and_copy(page):
    page.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.setup(mode="human", variant="russian")
    fen = "W:Wc3,e3,Ka1:Bb6,Kh8"       # (as the server writes it)
    page.load(fen)
    assert page.page.input_value("#fen") == fen == page.state()["fen"]
    assert page.page.locator("g.piece").count() == 5
    assert page.page.locator("g.piece.king").count() == 2
    page.page.click("#copy-fen")
    page.message("FEN copied")
    assert page.page.evaluate("navigator.clipboard.readText()") == fen
    # a bad FEN is refused with the reason, and the game stays
    gid = page.game_id()
    page.page.fill("#load-text", "W:Wz9:Ba1")
    page.page.click("#load")
    page.message("z9")
    assert page.game_id() == gid


def test_pdn_paste_and_download(page, tmp_path):
    page.setup(mode="human", variant="russian")
    text = ('[Event "test"]\n[White "Ann"]\n[Black "Bo"]\n[GameType "21"]\n\n'
            '1. 11-15 23-19 2. 8-11 22-17 *\n')
    page.load(text)
    assert page.page.input_value("#variant") == "english"      # the PDN's game
    assert page.page.locator("#moves button.move").all_inner_texts() == [
        "11-15", "23-19", "8-11", "22-17"]
    page.wait_ply(4)
    with page.page.expect_download() as info:
        page.page.click("#download")
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    assert path.name.startswith("shashki-english-") and path.suffix == ".pdn"
    record = pdn.read_game(io.StringIO(path.read_text()))
    assert record.variant.name == "english"
    assert [str(m) for m in record.moves] == ["11-15", "23-19", "8-11", "22-17"]
    assert record.headers["Event"] == "test" and record.headers["Result"] == "*"
    assert (record.headers["White"], record.headers["Black"]) == ("Ann", "Bo")
    # a game played here is named by who played it
    page.setup(mode="white", level=0, variant="russian")
    page.click("c3")
    page.click("d4")
    page.wait_ply(2)
    with page.page.expect_download() as info:
        page.page.click("#download")
    record = pdn.read_game(io.StringIO(open(info.value.path()).read()))
    assert (record.headers["White"], record.headers["Black"]) == ("you", "shashki (depth 1)")
    assert [str(m) for m in record.moves][0] == "c3-d4" and len(record.moves) == 2


# --- the set-up mode (issue 33.2) ---------------------------------------------------------

def _setup_fen(page):
    return page.page.get_attribute("body", "data-setup")


def _edit(page, action):
    """Do `action` (a click) in the set-up mode and wait for the server's answer to it."""
    before = _setup_fen(page)
    action()
    page.page.wait_for_function(f"document.body.dataset.setup !== {json.dumps(before)}")
    return _setup_fen(page)


def _reasons(page):
    return page.page.locator("#setup-reasons li").all_inner_texts()


def test_a_position_set_up_by_clicks_and_played(page):
    page.setup(mode="human", variant="russian")
    page.click("c3")
    page.click("d4")
    page.wait_ply(1)
    page.page.click("#edit")
    page.page.wait_for_selector("body[data-setup]")
    # the set-up starts from the position shown, the game's controls put away
    assert _setup_fen(page) == page.state()["fen"]
    assert page.page.is_hidden("#undo") and page.page.is_visible("#setup-play")
    assert _edit(page, lambda: page.page.click("#setup-clear")) == "W:W:B"
    assert _reasons(page) == ["White has no pieces", "Black has no pieces"]
    assert page.page.is_disabled("#setup-play")
    assert "not a position to play from" in page.status()
    # each click on a square puts the next piece there: white man, white king, black man...
    assert _edit(page, lambda: page.click("c3")) == "W:Wc3:B"
    assert _reasons(page) == ["Black has no pieces"]
    assert _edit(page, lambda: page.click("c3")) == "W:WKc3:B"
    assert page.page.locator("g.piece.white.king").count() == 1
    # on White's crowning row a white man cannot stand: the click makes a white king
    assert _edit(page, lambda: page.click("f8")) == "W:WKc3,Kf8:B"
    for expected in ("W:WKc3:Bf8", "W:WKc3:BKf8", "W:WKc3:B", "W:WKc3,Kf8:B", "W:WKc3:Bf8"):
        assert _edit(page, lambda: page.click("f8")) == expected
    assert _reasons(page) == [] and page.page.is_enabled("#setup-play")
    assert page.status() == "Setting up: White to move"
    assert _edit(page, lambda: page.page.select_option("#setup-turn", "black")) == \
        "B:WKc3:Bf8"
    assert page.page.input_value("#fen") == "B:WKc3:Bf8"
    # played from here: a new game of that position, Black to move
    gid = page.game_id()
    page.page.click("#setup-play")
    page.page.wait_for_function("!document.body.dataset.setup")
    assert page.game_id() != gid and page.state()["fen"] == "B:WKc3:Bf8"
    assert page.state()["moves"] == [] and page.status().startswith("Black to move")
    assert page.page.is_visible("#undo") and page.page.is_hidden("#editor")
    move = page.state()["legal"][0]
    page.click(move["from"])
    page.click(move["to"])
    page.wait_ply(1)


def test_a_set_up_cancelled_leaves_the_game(page):
    page.setup(mode="human", variant="english")
    page.page.click("#edit")
    page.page.wait_for_selector("body[data-setup]")
    # english: Black moves first, so a cleared board has Black to move
    assert _edit(page, lambda: page.page.click("#setup-clear")) == "B:W:B"
    assert page.page.input_value("#setup-turn") == "black"
    _edit(page, lambda: page.click(5))
    assert _edit(page, lambda: page.page.click("#setup-start")) == \
        shashki.get_variant("english").start_fen
    gid = page.game_id()
    page.page.click("#setup-cancel")
    page.page.wait_for_function("!document.body.dataset.setup")
    assert page.game_id() == gid and page.page.locator("g.piece").count() == 24
    # the board plays again: a click picks a piece to move, not a piece to put
    page.click("11")
    page.click("15")
    page.wait_ply(1)
    assert page.state()["moves"][0]["text"] == "11-15"


# --- the engine's side ---------------------------------------------------------------------

def test_engine_against_engine_and_pause(page):
    page.setup(mode="engines", level=0, variant="russian")
    page.page.wait_for_function("Number(document.body.dataset.ply) >= 4", timeout=30_000)
    page.page.click("#pause")
    page.page.wait_for_function("document.body.dataset.thinking === ''")
    held = page.ply()
    page.page.wait_for_timeout(1000)
    assert page.ply() == held and "paused" in page.status()


def test_the_analysis(page):
    page.setup(mode="human", variant="russian")
    page.page.check("#analyse")
    page.page.wait_for_function("/^[+-]?\\d+\\.\\d\\d$/.test("
                                "document.querySelector('#eval').textContent)")
    page.page.wait_for_function("document.querySelector('#pv').textContent.length > 0")
    assert re.match(r"depth \d+ · ", page.page.inner_text("#eval-depth"))
    legal = {m["text"] for m in page.state()["legal"]}
    assert page.page.inner_text("#pv").split()[0] in legal
    assert page.page.locator("svg.board .arrow").count() == 1     # the best move
    # a move restarts it for the new position
    page.click("c3")
    page.click("d4")
    page.wait_ply(1)
    page.page.wait_for_function("document.querySelector('#pv').textContent.startsWith('')"
                                " && document.querySelector('#eval-depth').textContent"
                                ".startsWith('depth')")
    # a new game set up is analysed afresh (both games are at their version 0 then)
    page.page.click("#new-game")
    page.wait_ply(0)
    page.page.wait_for_function("document.querySelector('#pv').textContent.length > 0")
    page.load("W:Wc3:Bd4,h8")                   # c3:e5 is the only move
    page.page.wait_for_function("document.querySelector('#pv').textContent"
                                ".startsWith('c3:e5')")
    page.page.uncheck("#analyse")
    assert page.page.locator("svg.board .arrow").count() == 0


# --- what it looks like ---------------------------------------------------------------------

def test_every_game_is_drawn(page):
    page.setup(mode="human")
    for variant in shashki.VARIANTS:
        page.setup(mode="human", variant=variant.name)
        board = shashki.Board(variant)
        assert page.page.locator("rect.square").count() == variant.geometry.squares
        assert page.page.locator("g.piece").count() == bin(board.white | board.black).count("1")
        assert page.page.locator("g.piece.white").count() == bin(board.white).count("1")


def test_flip(page):
    page.setup(mode="human", variant="russian")
    before = page.square("a1").bounding_box()
    page.page.click("#flip")
    after = page.square("a1").bounding_box()
    assert after["x"] > before["x"] and after["y"] < before["y"]
    page.click("c3")
    page.click("d4")
    page.wait_ply(1)


def test_the_phone_layout(browser, server):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True,
                                  is_mobile=True, bypass_csp=True)
    page = Page(context.new_page(), server)
    try:
        # nothing wider than the screen, the whole board on it
        assert page.page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        box = page.page.locator("svg.board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["width"] > 0.8 * PHONE["width"]
        page.setup(mode="human", variant="russian")
        page.square("c3").tap()
        page.square("d4").tap()
        page.wait_ply(1)
        assert page.state()["moves"][0]["text"] == "c3-d4"
    finally:
        context.close()
    assert page.errors == []
