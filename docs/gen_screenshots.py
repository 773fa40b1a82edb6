"""Take the screenshots of `shashki serve` for the docs (docs/img/serve-desktop.png,
docs/img/serve-phone.png and docs/img/serve-setup.png) in the system's Chromium, driven by
Playwright as the browser tests drive it.

    pip install playwright && python docs/gen_screenshots.py [--chromium PATH]

The game on the board is played by the engine at a fixed depth, so the pictures come out the
same each time but for the analysis's figures; it is pasted into the page as PDN, and the
page is left where White, the player, answers a capture: a piece chosen and where it may go
shown, the analysis on.  The set-up mode's picture is a position half set up by clicks: White's
pieces placed (a click on White's crowning row gives a king), Black's not yet.
"""

import argparse
import shutil
import sys
import threading
from pathlib import Path

import shashki
from shashki import pdn
from shashki.apps.web import make_server
from shashki.engine import Engine

IMG = Path(__file__).resolve().parent / "img"
SHOTS = {"serve-desktop.png": dict(viewport={"width": 1280, "height": 800},
                                   device_scale_factor=1),
         "serve-phone.png": dict(viewport={"width": 390, "height": 844},
                                 device_scale_factor=2, is_mobile=True, has_touch=True)}


def game_text(plies=26, depth=4):
    """A russian game of the engine against itself, cut after the first capture by Black from
    ply `plies` on where White has a choice: the PDN text, and the square of a white piece
    that may move (a capture where one is due)."""
    board = shashki.Board("russian")
    engine = Engine("russian", 16, egdb=False)
    while True:
        move = engine.search(board, depth=depth).best_move
        board.push(move)
        legal = list(board.legal_moves)
        if len(board.move_stack) >= plies and move.is_capture and board.turn == shashki.WHITE \
                and len(legal) > 1:
            break
    origin = legal[0].origin
    game = pdn.Game.from_board(board, headers={"Event": "shashki serve", "White": "you",
                                               "Black": "shashki (depth 4)"})
    return str(game), board.variant.square_name(origin)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chromium", default=shutil.which("chromium"),
                        help="the browser to drive (default: chromium on PATH)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright   # (not a dependency of the docs build)
    if not args.chromium:
        sys.exit("no Chromium: apt-get install chromium, or give --chromium")
    text, piece = game_text()
    server = make_server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium)
            for name, options in SHOTS.items():
                # (the waits below evaluate text as script, which the page's policy forbids)
                page = browser.new_page(bypass_csp=True, **options)
                page.goto(server.url)
                page.wait_for_selector("body[data-ready='1']")
                page.select_option("#mode", "white")
                page.fill("#load-text", text)
                page.click("#load")
                page.wait_for_selector("#moves button.move")
                page.check("#analyse")
                page.wait_for_function("/depth ([89]|\\d\\d) /.test("
                                       "document.querySelector('#eval-depth').textContent)",
                                       timeout=60_000)
                page.click(f"rect.square[data-name='{piece}']")
                page.wait_for_timeout(300)
                page.evaluate("document.getElementById('message').hidden = true")
                # (filling the paste box scrolled the phone's page down to it)
                page.evaluate("window.scrollTo(0, 0)")
                IMG.mkdir(exist_ok=True)
                page.screenshot(path=str(IMG / name))
                print(f"wrote {IMG / name}")
                page.close()
            setup_shot(browser, server.url, IMG / "serve-setup.png")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return 0


#: the clicks of the set-up picture, after Clear: two men, and a king on d8 (White's crowning
#: row, where the first click gives a king)
SETUP_CLICKS = ("c3", "e3", "g3", "g3", "d8")


def setup_shot(browser, url, path):
    page = browser.new_page(bypass_csp=True, **SHOTS["serve-desktop.png"])
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.click("#edit")
    page.wait_for_selector("body[data-setup]")
    for click in ("#setup-clear",) + tuple(f"rect.square[data-name='{name}']"
                                           for name in SETUP_CLICKS):
        before = page.get_attribute("body", "data-setup")
        page.click(click)
        page.wait_for_function(f"document.body.dataset.setup !== {before!r}")
    page.evaluate("document.getElementById('message').hidden = true")
    page.screenshot(path=str(path), full_page=True)
    print(f"wrote {path}")
    page.close()


if __name__ == "__main__":
    sys.exit(main())
