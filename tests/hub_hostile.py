"""A hostile Hub engine for tests/test_hubclient.py: it plays by the protocol but for one way
of breaking it (argv[1]), at the byte level where a text-level fake cannot.

    python tests/hub_hostile.py MODE [SEED]

bad-byte-info   an info line with a byte that is not UTF-8 before the search's answer
bad-byte-id     its id line holds a byte that is not UTF-8
empty-move      answers a search with ``done move=`` (nothing after the '=')
random SEED     a good engine that writes random bytes, broken lines and answers at random
                (seeded), for the client's fuzzing
"""

import random
import sys

from shashki.hub import text as hubtext

MODE = sys.argv[1]
RNG = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
OUT = sys.stdout.buffer
# what `random` writes between the lines it owes: bytes of every kind, and lines the client
# must ignore, cut short or unreadable
NOISE = [b"\xff\xfe\n", b"info depth=\xc3\n", b"\x00\x01\x02\n", b'info pv="\n', b"done\n",
         b"done move=\n", b"done move=99-98\n", b"id name=\xff\n", b"error\n", b"\n", b"\r\n",
         b"x" * 5000 + b"\n", b"info depth=1 score=zz nodes=-1 pv=1-2\n", b"pong\n",
         b"ready\n", b"wait\n", "info pv=\u00e9\n".encode()]


def say(line):
    OUT.write(line if isinstance(line, bytes) else line.encode() + b"\n")
    OUT.flush()


def noise():
    if MODE == "random" and RNG.random() < 0.5:
        say(RNG.choice(NOISE))


def first_move(board):
    return hubtext.move_text(next(iter(board.legal_moves)), board.variant)


def main():
    variant, board = "russian", None
    for line in sys.stdin:
        noise()
        if not line.strip():
            continue
        command, args = hubtext.parse_line(line)
        if command == "hub":
            say(b"id name=fa\xffke version=1\n" if MODE == "bad-byte-id" else
                "id name=hostile version=1")
            say('param name=variant value=russian type=enum values="russian english"')
            say("wait")
        elif command == "set-param" and args.get("name") == "variant":
            variant = args["value"]
        elif command == "init":
            say("ready")
        elif command == "ping":
            say("pong")
        elif command == "pos":
            board = hubtext.parse_position(args["pos"], hubtext.hub_variant(variant))
            for text in args.get("moves", "").split():
                board.push(hubtext.parse_move(board, text))
        elif command == "go":
            if MODE == "bad-byte-info":
                say(b"info depth=1 pv=\xff\xfe\n")
            if MODE == "empty-move":
                say("done move=")
                continue
            if MODE == "random" and RNG.random() < 0.1:
                continue                # no answer at all: the client's timeout
            noise()
            say("info depth=1 score=0.1 nodes=5 pv=" + first_move(board))
            say("done move=" + first_move(board))
        elif command == "quit":
            break


if __name__ == "__main__":
    main()
