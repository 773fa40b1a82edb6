"""Reading PDN files in pydraughts, run in that peer's own venv (benchmarks/bench_pdn.py).

    python pdn_worker.py REPLAY FILE [FILE ...]

Reads every game of the files with pydraughts' PDNReader, `passes` times, and prints
{"games": ..., "cpu": ...} as JSON: CPU seconds of the reading alone (the files are read into
memory first, as shashki's side reads them from memory too).  With REPLAY = 1 each game's
moves are also played on a pydraughts Board (``Board.push(Move(board, pdn_move=...))``), the
check that shashki's reader always makes; PDNReader alone only splits the text.
"""

import json
import sys
import time

PASSES = 3


def main():
    import draughts
    from draughts.PDN import PDNReader
    replay = sys.argv[1] == "1"
    texts = [open(path, encoding="utf-8").read() for path in sys.argv[2:]]
    games = 0
    start = time.process_time()
    for _ in range(PASSES):
        for text in texts:
            for game in PDNReader(pdn_text=text).games:
                if replay:
                    board = draughts.Board(variant=game.variant, fen="startpos")
                    for move in game.moves:
                        board.push(draughts.Move(board, pdn_move=move))
                games += 1
    print(json.dumps({"games": games, "cpu": time.process_time() - start}))


if __name__ == "__main__":
    main()
