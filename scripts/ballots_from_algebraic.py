#!/usr/bin/env python3
"""Converts opening ballots from short algebraic form to our ballot format (data/openings/).

Input lines: `CODE move move ...` with moves in the short form of published tables, e.g.
`I-4 ab4 ba5 ba3 ab6 ab2 dc5` (ab4 = the man on file a moves or captures to b4). Output lines:
the same moves in Hub notation with square numbers, and the code and original text as a comment.
Each move is matched against the legal moves that `onca moves` lists, so the output is legal by
construction (tests replay it again with our move generator).

Usage: scripts/ballots_from_algebraic.py INPUT [ONCA_BINARY] > ballots.txt
"""

import subprocess
import sys


def square_number(algebraic):
    file_index = ord(algebraic[0]) - ord("a")
    row_from_top = 8 - int(algebraic[1])
    return row_from_top * 4 + file_index // 2 + 1


def file_of(number):
    row, index = (number - 1) // 4, (number - 1) % 4
    return 2 * index + (1 if row % 2 == 0 else 0)


def squares(move):
    return [int(s) for s in move.replace("x", "-").split("-")]


def play(position, move):
    side, white, black, kings = position
    nums = squares(move)
    origin, target, captured = nums[0], nums[1], nums[2:] if "x" in move else []
    own, other = (white, black) if side == "W" else (black, white)
    own.remove(origin)
    own.add(target)
    if origin in kings:
        kings.remove(origin)
        kings.add(target)
    for square in captured:
        other.discard(square)
        kings.discard(square)
    if (side == "W" and target <= 4) or (side == "B" and target >= 29):
        kings.add(target)
    return ("B" if side == "W" else "W", white, black, kings)


def fen(position):
    side, white, black, kings = position
    text = lambda pieces: ",".join(("K" if s in kings else "") + str(s) for s in sorted(pieces))
    return f"{side}:W{text(white)}:B{text(black)}"


def main():
    source = sys.argv[1]
    onca = sys.argv[2] if len(sys.argv) > 2 else "onca"
    for line in open(source):
        if not line.strip() or line.startswith("#"):
            continue
        code, *short_moves = line.split()
        position = ("W", set(range(21, 33)), set(range(1, 13)), set())
        hub_moves = []
        for short in short_moves:
            from_file, target = ord(short[0]) - ord("a"), square_number(short[1:])
            legal = subprocess.run(
                [onca, "moves", "-p", fen(position)], capture_output=True, text=True, check=True
            ).stdout.split()
            fits = [m for m in legal if squares(m)[1] == target and file_of(squares(m)[0]) == from_file]
            if len(fits) != 1:
                sys.exit(f"{code}: '{short}' fits {fits} in {fen(position)}")
            hub_moves.append(fits[0])
            position = play(position, fits[0])
        print(f"{' '.join(hub_moves):<40} # IDF {code}: {' '.join(short_moves)}")


if __name__ == "__main__":
    main()
