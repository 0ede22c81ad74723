#!/usr/bin/env python3
"""PDN files between Onca and pydraughts 0.6.7 (the Python half of tests/pdn_interop.rs).

    python pdn_interop.py replay FILE
        Reads FILE with pydraughts' PDNReader and replays every game on a
        pydraughts Board (each move through Move(board, pdn_move=...), which
        fails on an illegal or unknown move). Works around one reader bug of
        pydraughts 0.6.7 (see replay()). Prints one JSON line per game:
        {"moves": N, "fen": FEN after the last move} or {"error": "..."}.

    python pdn_interop.py write FILE GAMES SEED
        Plays GAMES seeded random games with pydraughts (some from a position
        with kings), writes them to FILE with PDNWriter and prints one JSON
        line per game: {"moves": N, "fen": FEN after the last move}.

FENs are pydraughts' Board.fen for Brazilian: algebraic squares, which our
FEN reader takes as they are.
"""

import json
import random
import sys

EXPECTED_VERSION = "0.6.7"
# A middlegame with kings on both sides, so written games have king captures.
KING_START = "W:WKa1,c3,e3,g3,b2,d2:Bb6,d6,Kh8,a7,c7,e7"


def check_version():
    try:
        from importlib.metadata import version
        found = version("pydraughts")
    except Exception as error:  # pragma: no cover - reported to the Rust side
        found = f"unknown ({error})"
    if found != EXPECTED_VERSION:
        raise SystemExit(f"expected pydraughts {EXPECTED_VERSION}, found {found}")


def replay(path):
    from draughts import Board, Move
    from draughts.PDN import PDNReader

    reader = PDNReader(filename=path)
    for game in reader.games:
        try:
            if game.variant != "brazilian":
                raise ValueError(f"variant {game.variant!r} from GameType {game.tags.get('GameType')!r}")
            fen = game.tags.get("FEN")
            board = Board("brazilian", fen) if fen else Board("brazilian")
            moves = game.moves
            # pydraughts 0.6.7's reader lists the first move of a game that starts with Black
            # twice (_PDNGame._read takes the first word of move 1 and then move 1 again); the
            # same square cannot start two moves in a row, so the copy is certain.
            if board.turn == 1 and len(moves) >= 2 and moves[0] == moves[1]:
                moves = moves[1:]
            for text in moves:
                board.push(Move(board, pdn_move=text))
            print(json.dumps({"moves": len(moves), "fen": board.fen}), flush=True)
        except Exception as error:
            print(json.dumps({"error": f"{type(error).__name__}: {error}"}), flush=True)


def write(path, games, seed):
    from draughts import Board
    from draughts.PDN import PDNWriter

    rng = random.Random(seed)
    open(path, "w").close()
    for index in range(games):
        board = Board("brazilian", KING_START) if index % 3 == 2 else Board("brazilian")
        plies = rng.randrange(10, 80)
        played = 0
        for _ in range(plies):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
            played += 1
        PDNWriter(path, board=board, tags={"Event": f"pydraughts {index}"},
                  game_ending="*", file_mode="a")
        print(json.dumps({"moves": played, "fen": board.fen}), flush=True)


def main():
    check_version()
    if len(sys.argv) == 3 and sys.argv[1] == "replay":
        replay(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
