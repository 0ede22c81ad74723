//! The `--pdn-notation` option shared by the commands that write PDN: its names on the command
//! line and in `--help`.

use crate::notation::squares::SquareNotation;

/// Help text for `--pdn-notation`.
pub const HELP: &str = "Square names in written PDN: `algebraic` (the standard for Brazilian, \
    GameType 26: c3-d4), `numeric` (1 = b8 as in Hub and on lidraughts, GameType \
    26,W,8,8,N2,0) or `numeric-a1` (1 = a1 as in Russian books, GameType 26,W,8,8,N0,0)";

/// Reads a `--pdn-notation` value.
pub fn parse(text: &str) -> Result<SquareNotation, String> {
    match text {
        "algebraic" => Ok(SquareNotation::Algebraic),
        "numeric" => Ok(SquareNotation::HubNumbers),
        "numeric-a1" => Ok(SquareNotation::A1Numbers),
        other => Err(format!(
            "unknown notation '{other}' (algebraic, numeric or numeric-a1)"
        )),
    }
}
