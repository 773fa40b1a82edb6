"""`shashki serve`'s set-up mode at the API level (issue 33.2): POST /api/setup, the board
editor over HTTP, against a server in a thread; the page's side is in test_serve_browser.py."""

import pytest

import shashki
from shashki.apps.web import Api
from shashki.apps.web.games import EnginePool

from test_serve_api import Client, start


@pytest.fixture(scope="module")
def server():
    server = start(Api(pool=EnginePool(egdb=False)))
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def client(server):
    return Client(server)


def edit(client, **fields):
    return client.ok("POST", "/api/setup", dict({"variant": "russian"}, **fields))


def test_a_set_up_starts_from_the_position_given(client):
    state = edit(client)
    assert state["fen"] == shashki.Board("russian").fen() and state["valid"]
    assert state["status"] == state["reasons"] == [] and len(state["pieces"]) == 24
    state = edit(client, fen="B:W:B")
    assert state["turn"] == "black" and state["pieces"] == [] and not state["valid"]
    assert state["status"] == ["NO_WHITE_PIECES", "NO_BLACK_PIECES"]
    assert state["reasons"] == ["White has no pieces", "Black has no pieces"]


@pytest.mark.parametrize("variant", [v.name for v in shashki.VARIANTS])
def test_clear_sets_the_games_first_side_to_move(client, variant):
    state = edit(client, variant=variant, clear=True)
    first = shashki.get_variant(variant).first_to_move
    assert state["pieces"] == [] and state["turn"] == shashki.variants.COLOR_NAMES[first]
    assert state["fen"] == shashki.Board.empty(variant).fen()


def test_a_position_set_up_piece_by_piece_and_played(client):
    state = edit(client, clear=True)
    for square, piece in ((10, "white man"), (21, "black king")):
        state = edit(client, fen=state["fen"], square=square, piece=piece)
    state = edit(client, fen=state["fen"], turn="black")
    board = shashki.Board.empty("russian")
    board.set_piece_at(10, shashki.Piece(shashki.WHITE))
    board.set_piece_at(21, shashki.Piece(shashki.BLACK, True))
    board.turn = shashki.BLACK
    assert state["fen"] == board.fen() and state["valid"]
    assert state["pieces"] == [{"square": 10, "color": "white", "king": False},
                               {"square": 21, "color": "black", "king": True}]
    # "play from here": a game made from the set-up position
    game = client.new(fen=state["fen"])
    assert game["fen"] == state["fen"] and game["legal"]
    state = edit(client, fen=state["fen"], square=10, piece="empty")
    assert state["status"] == ["NO_WHITE_PIECES"] and not state["valid"]


def test_a_click_cycles_through_the_pieces_a_square_can_hold(client):
    cycled = []
    fen = "W:W:B"
    for _ in range(5):
        state = edit(client, fen=fen, square=10, cycle=True)   # (e3)
        fen = state["fen"]
        cycled.append(fen)
    assert cycled == ["W:We3:B", "W:WKe3:B", "W:W:Be3", "W:W:BKe3", "W:W:B"]
    # on White's crowning row the white man is passed over, on Black's the black man
    assert edit(client, fen="W:W:B", square=28, cycle=True)["fen"] == "W:WKb8:B"
    assert edit(client, fen="W:WKb8:B", square=28, cycle=True)["fen"] == "W:W:Bb8"
    assert edit(client, fen="W:W:B", square=0, cycle=True)["fen"] == "W:Wa1:B"
    assert edit(client, fen="W:Wa1:B", square=0, cycle=True)["fen"] == "W:WKa1:B"
    assert edit(client, fen="W:WKa1:B", square=0, cycle=True)["fen"] == "W:W:BKa1"
    # a side with all the pieces it may have: the other side's come next
    twelve = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bh8"
    assert edit(client, fen=twelve, square=12, cycle=True)["fen"] == twelve[:-3] + "Bb4,h8"


@pytest.mark.parametrize("fields, words", [
    ({"fen": "W:Wz9:B"}, "off the board"),
    ({"variant": "chess"}, "chess"),
    ({"square": 32, "piece": "white man"}, "square"),
    ({"square": -1, "cycle": True}, "square"),
    ({"square": "c3", "piece": "white man"}, "square"),
    ({"square": 10, "piece": "white queen"}, "one of white man"),
    ({"square": 10, "piece": None}, "one of piece and cycle"),
    ({"square": 10}, "one of piece and cycle"),
    ({"piece": "white man"}, "one of piece and cycle"),
    ({"cycle": True}, "one of piece and cycle"),
    ({"square": 10, "piece": "white man", "cycle": True}, "one of piece and cycle"),
    ({"cycle": 1, "square": 10}, "true or false"),
    ({"clear": "yes"}, "true or false"),
    ({"turn": "red"}, "black, white"),
    ({"turn": 0}, "black, white"),
    ({"fen": "W:W:B", "square": 29, "piece": "white man"},
     "a white man on d8 stands on its own crowning row"),
    ({"square": 12, "piece": "white man"}, "would give white 13 pieces"),
    ({"moves": []}, "unknown field"),
])
def test_bad_set_up_edits_say_what_was_expected(client, fields, words):
    error = client.error("POST", "/api/setup", dict({"variant": "russian"}, **fields))
    assert words in error["error"] + " " + error["expected"], error
    assert error["expected"]


def test_the_set_up_route_keeps_the_servers_rules(client):
    client.error("GET", "/api/setup", status=405)
    client.error("POST", "/api/setup?x=1", {})
    # a page of another site, or a body that is not JSON, cannot use it
    body = b'{"variant": "russian"}'
    for headers, status in (([b"Host: evil.example", b"Content-Type: application/json"], 403),
                            ([b"Host: HOST", b"Origin: http://evil.example",
                              b"Content-Type: application/json"], 403),
                            ([b"Host: HOST", b"Content-Type: text/plain"], 415)):
        got, answer = client.raw(b"POST /api/setup HTTP/1.1\r\nConnection: close\r\n"
                                 + b"".join(h + b"\r\n" for h in headers)
                                 + b"Content-Length: " + str(len(body)).encode()
                                 + b"\r\n\r\n" + body)
        assert got == status and answer["error"]
