//! The evaluation's weights as data: one named field per weight or weight table.
//!
//! [`Weights::DEFAULT`] holds the hand-set values the engine plays with. The tuner (the `tuning/`
//! crate) works on the flat vector of tunable weights ([`Weights::tunable`]), whose order matches
//! the feature vector of [`crate::eval::linear_features`]; [`Weights::to_text`] and
//! [`Weights::parse_text`] give a plain `name value` file for storing tuned weights.

/// Number of tunable weights (every field except the two structural ones).
pub const TUNABLE: usize = 31;

/// Index of the man weight in the tunable vector.
pub const MAN: usize = 0;
/// Index of the king weight.
pub const KING: usize = 1;
/// First index of the opening advancement table (8 entries).
pub const ADVANCE_OPENING: usize = 2;
/// First index of the endgame advancement table (8 entries).
pub const ADVANCE_ENDGAME: usize = 10;
/// Index of the centre weight.
pub const CENTRE_OPENING: usize = 18;
/// Index of the near-centre weight.
pub const NEAR_CENTRE_OPENING: usize = 19;
/// Index of the edge weight.
pub const EDGE_OPENING: usize = 20;
/// Index of the back-row guard weight.
pub const BACK_GUARD: usize = 21;
/// Index of the long-diagonal king weight.
pub const KING_LONG_DIAGONAL: usize = 22;
/// First index of the runaway table (8 entries).
pub const RUNAWAY: usize = 23;

/// All evaluation weights, in score units (100 = one man).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king (flying kings dominate the 8x8 board: about three men).
    pub king: i32,
    /// Bonus per man by rows advanced (0 = own back row, 6 = one step from promotion), opening.
    pub advance_opening: [i32; 8],
    /// The same, endgame (few pieces left): advancing is what wins.
    pub advance_endgame: [i32; 8],
    /// A man on one of the four central squares (d4, f4, c5, e5 from White's side), opening.
    pub centre_opening: i32,
    /// A man on the wider centre ring (files c-f, rows 3-6 from own side), opening.
    pub near_centre_opening: i32,
    /// A man on the a/h file (can be attacked from one side only but is passive), opening.
    pub edge_opening: i32,
    /// A man still guarding the back row against promotion (c1, e1 for White), while the opponent
    /// has no king, weighted by the opening phase.
    pub back_guard: i32,
    /// A king on the long diagonal a1-h8.
    pub king_long_diagonal: i32,
    /// A man with no enemy man ahead of it in its cone, by rows advanced (opponent without kings).
    pub runaway: [i32; 8],
    /// Pieces on the board at the start: the opening end of the phase scale (structural, not
    /// tuned).
    pub phase_pieces: i32,
    /// Divisor of the score when the stronger side has at most two pieces against a king
    /// (structural, not tuned: it makes the evaluation non-linear).
    pub drawish_divisor: i32,
}

impl Weights {
    /// The hand-set weights the engine plays with.
    pub const DEFAULT: Weights = Weights {
        man: 100,
        king: 300,
        advance_opening: [0, 0, 2, 4, 6, 9, 14, 0],
        advance_endgame: [0, 6, 12, 20, 30, 42, 60, 0],
        centre_opening: 8,
        near_centre_opening: 3,
        edge_opening: -4,
        back_guard: 12,
        king_long_diagonal: 20,
        runaway: [0, 0, 0, 6, 14, 28, 50, 0],
        phase_pieces: 24,
        drawish_divisor: 8,
    };

    /// The tunable weights as a flat vector, in feature order (see the index constants).
    pub fn tunable(&self) -> [i32; TUNABLE] {
        let mut out = [0; TUNABLE];
        out[MAN] = self.man;
        out[KING] = self.king;
        out[ADVANCE_OPENING..ADVANCE_OPENING + 8].copy_from_slice(&self.advance_opening);
        out[ADVANCE_ENDGAME..ADVANCE_ENDGAME + 8].copy_from_slice(&self.advance_endgame);
        out[CENTRE_OPENING] = self.centre_opening;
        out[NEAR_CENTRE_OPENING] = self.near_centre_opening;
        out[EDGE_OPENING] = self.edge_opening;
        out[BACK_GUARD] = self.back_guard;
        out[KING_LONG_DIAGONAL] = self.king_long_diagonal;
        out[RUNAWAY..RUNAWAY + 8].copy_from_slice(&self.runaway);
        out
    }

    /// These weights with the tunable ones replaced by `values` (structural fields kept).
    pub fn with_tunable(&self, values: &[i32; TUNABLE]) -> Weights {
        let mut out = *self;
        out.man = values[MAN];
        out.king = values[KING];
        out.advance_opening
            .copy_from_slice(&values[ADVANCE_OPENING..ADVANCE_OPENING + 8]);
        out.advance_endgame
            .copy_from_slice(&values[ADVANCE_ENDGAME..ADVANCE_ENDGAME + 8]);
        out.centre_opening = values[CENTRE_OPENING];
        out.near_centre_opening = values[NEAR_CENTRE_OPENING];
        out.edge_opening = values[EDGE_OPENING];
        out.back_guard = values[BACK_GUARD];
        out.king_long_diagonal = values[KING_LONG_DIAGONAL];
        out.runaway.copy_from_slice(&values[RUNAWAY..RUNAWAY + 8]);
        out
    }

    /// The name of each tunable weight, in feature order (`advance_opening[3]` for table entries).
    pub fn tunable_names() -> Vec<String> {
        let mut names = vec![String::from("man"), String::from("king")];
        names.extend((0..8).map(|i| format!("advance_opening[{i}]")));
        names.extend((0..8).map(|i| format!("advance_endgame[{i}]")));
        for name in [
            "centre_opening",
            "near_centre_opening",
            "edge_opening",
            "back_guard",
            "king_long_diagonal",
        ] {
            names.push(String::from(name));
        }
        names.extend((0..8).map(|i| format!("runaway[{i}]")));
        names
    }

    /// Every weight as `name value` lines (tunable ones, then the structural ones).
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for (name, value) in Self::tunable_names().iter().zip(self.tunable()) {
            text.push_str(&format!("{name} {value}\n"));
        }
        text.push_str(&format!("phase_pieces {}\n", self.phase_pieces));
        text.push_str(&format!("drawish_divisor {}\n", self.drawish_divisor));
        text
    }

    /// Reads [`Weights::to_text`] output. Names not given keep their [`Weights::DEFAULT`] value;
    /// blank lines and `#` comments are skipped; unknown names and bad numbers are errors.
    pub fn parse_text(text: &str) -> Result<Weights, String> {
        let names = Self::tunable_names();
        let mut values = Self::DEFAULT.tunable();
        let mut out = Self::DEFAULT;
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split_whitespace();
            let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(format!("line {}: expected `name value`", number + 1));
            };
            let value: i32 = value
                .parse()
                .map_err(|_| format!("line {}: bad number `{value}`", number + 1))?;
            match name {
                "phase_pieces" if value > 0 => out.phase_pieces = value,
                "drawish_divisor" if value > 0 => out.drawish_divisor = value,
                "phase_pieces" | "drawish_divisor" => {
                    return Err(format!("line {}: {name} must be positive", number + 1))
                }
                _ => match names.iter().position(|known| known == name) {
                    Some(index) => values[index] = value,
                    None => return Err(format!("line {}: unknown weight `{name}`", number + 1)),
                },
            }
        }
        Ok(out.with_tunable(&values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunable_vector_round_trips() {
        let mut values = Weights::DEFAULT.tunable();
        for (i, value) in values.iter_mut().enumerate() {
            *value += i as i32;
        }
        let changed = Weights::DEFAULT.with_tunable(&values);
        assert_eq!(changed.tunable(), values);
        assert_eq!(Weights::tunable_names().len(), TUNABLE);
    }

    #[test]
    fn text_round_trips_and_rejects_garbage() {
        let mut weights = Weights::DEFAULT;
        weights.runaway[5] = -7;
        weights.drawish_divisor = 5;
        assert_eq!(Weights::parse_text(&weights.to_text()), Ok(weights));
        assert!(Weights::parse_text("man").is_err());
        assert!(Weights::parse_text("man x").is_err());
        assert!(Weights::parse_text("queen 3").is_err());
        assert!(Weights::parse_text("phase_pieces 0").is_err());
    }
}
