//! Everything the engine writes in Hub mode: the single line writer and the text of the replies
//! that carry numbers (`info`, `done`, scores, `error`).
//!
//! [`Output`] is the one writer: a locked sink that writes a whole line and flushes it, shared by
//! the session and the search thread's progress callback, so lines never interleave and never sit
//! in a buffer. A failed write (the host closed our stdout) is remembered so the session can quit.

use crate::eval::score::Score;
use crate::hub::numbering::MoveNumbering;
use crate::rules::moves::Move;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Heuristic scores are shown at most this far from zero (centi-men), well inside the +-80 that
/// hosts keep clear of proven results.
const MAX_HEURISTIC_CENTI: i64 = 7_500;

/// The shared, line-at-a-time writer.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl Output {
    /// A writer over `sink` (the process's stdout in a real session), not yet broken.
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes `text` and a newline, then flushes.
    pub fn line(&self, text: &str) {
        log::debug!("hub >> {text}");
        let mut sink = match self.sink.lock() {
            Ok(sink) => sink,
            // A writer that panicked mid-line cannot exist with panic=abort; recover anyway.
            Err(poisoned) => poisoned.into_inner(),
        };
        let written = sink
            .write_all(text.as_bytes())
            .and_then(|()| sink.write_all(b"\n"))
            .and_then(|()| sink.flush());
        if let Err(why) = written {
            log::debug!("hub: output failed: {why}");
            self.broken.store(true, Ordering::Release);
        }
    }

    /// Whether a write has failed (the host is gone).
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Acquire)
    }

    /// `error message="..."` (double quotes in the text become single quotes: values have no
    /// escapes).
    pub fn error(&self, message: &str) {
        self.line(&error_line(message));
    }
}

/// The `error` reply for `message`.
pub fn error_line(message: &str) -> String {
    let clean: String = message
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    format!("error message=\"{clean}\"")
}

/// A score in centi-men from the side to move: proven results are +-(10000 - plies), database
/// results +-(9000 - plies) (plies from the root to the position found in the tables), heuristic
/// scores are clamped to +-7500 (75 men).
pub fn score_centi(score: Score) -> i64 {
    // The sign comes from the score itself: `plies_to_win` is `Some(0)` for both a win and a
    // loss at the root (and `db_plies` likewise).
    let magnitude = |base: i64, plies: i32| base - i64::from(plies.unsigned_abs().min(999));
    match (score.plies_to_win(), score.db_plies()) {
        (Some(plies), _) if score.0 > 0 => magnitude(10_000, plies),
        (Some(plies), _) => -magnitude(10_000, plies),
        (None, Some(plies)) if score.0 > 0 => magnitude(9_000, plies),
        (None, Some(plies)) => -magnitude(9_000, plies),
        (None, None) => (f64::from(score.0) * 100.0 / f64::from(Score::MAN))
            .round()
            .clamp(-MAX_HEURISTIC_CENTI as f64, MAX_HEURISTIC_CENTI as f64)
            as i64,
    }
}

/// The Hub score text: men with two decimals (`0.35`, `-1.00`, `99.97` = win in 3 plies).
pub fn format_score(score: Score) -> String {
    format_centi(score_centi(score))
}

fn format_centi(centi: i64) -> String {
    let sign = if centi < 0 { "-" } else { "" };
    let magnitude = centi.unsigned_abs();
    format!("{sign}{}.{:02}", magnitude / 100, magnitude % 100)
}

/// What one `info` line shows.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InfoFields {
    /// Depth of the completed iteration, in plies (written as `depth` and `mean-depth`).
    pub depth: u32,
    /// Value of the line for the side to move at the root.
    pub score: Score,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Positions scored by the endgame tables so far (written as `tbhits` when not zero).
    pub tbhits: u64,
    /// Time since the search started (`time`, and the divisor of `nps`).
    pub elapsed: Duration,
    /// The principal variation from the root, in our standard numbering (converted on output).
    pub pv: Vec<Move>,
    /// 1-based line number among several best lines; shown only when more than one is asked for.
    pub multipv: Option<usize>,
}

/// `info depth= mean-depth= score= nodes= time= nps= pv="..."` in Scan's order. We do not measure
/// the mean leaf depth; `mean-depth` repeats the nominal depth so that hosts parsing the fixed
/// field order still match. `multipv=` (our extension) follows the pv when several lines are
/// searched, and `tbhits=` (ours too) after it when the endgame tables scored positions; hosts
/// ignore fields they do not know.
pub fn info_line(fields: &InfoFields, numbering: MoveNumbering) -> String {
    let seconds = fields.elapsed.as_secs_f64();
    let mnps = if seconds > 0.0 {
        fields.nodes as f64 / seconds / 1.0e6
    } else {
        0.0
    };
    let pv: Vec<String> = fields
        .pv
        .iter()
        .map(|mv| numbering.format_move(mv))
        .collect();
    let mut line = format!(
        "info depth={} mean-depth={}.0 score={} nodes={} time={:.3} nps={:.2} pv=\"{}\"",
        fields.depth,
        fields.depth,
        format_score(fields.score),
        fields.nodes,
        seconds,
        mnps,
        pv.join(" ")
    );
    if let Some(index) = fields.multipv {
        line.push_str(&format!(" multipv={index}"));
    }
    if fields.tbhits > 0 {
        line.push_str(&format!(" tbhits={}", fields.tbhits));
    }
    line
}

/// `done move=<m>` or `done move=<m> ponder=<p>`; `done move=""` when there is no move.
pub fn done_line(best: Option<&Move>, ponder: Option<&Move>, numbering: MoveNumbering) -> String {
    match (best, ponder) {
        (None, _) => "done move=\"\"".to_string(),
        (Some(best), None) => format!("done move={}", numbering.format_move(best)),
        (Some(best), Some(ponder)) => format!(
            "done move={} ponder={}",
            numbering.format_move(best),
            numbering.format_move(ponder)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::legal_moves;
    use crate::rules::position::Position;

    #[test]
    fn scores_in_men_and_proven_results() {
        assert_eq!(format_score(Score(35)), "0.35");
        assert_eq!(format_score(Score(-100)), "-1.00");
        assert_eq!(format_score(Score(-4)), "-0.04");
        assert_eq!(format_score(Score(0)), "0.00");
        assert_eq!(format_score(Score::win_in(3)), "99.97");
        assert_eq!(format_score(Score::loss_in(0)), "-100.00");
        assert_eq!(format_score(Score::loss_in(12)), "-99.88");
        assert_eq!(format_score(Score(Score::MAX_HEURISTIC)), "75.00");
        assert_eq!(format_score(Score::db_win_in(3)), "89.97");
        assert_eq!(format_score(Score::db_loss_in(12)), "-89.88");
        assert_eq!(format_score(Score::db_win_in(0)), "90.00");
        assert_eq!(format_score(Score(-Score::MAX_HEURISTIC)), "-75.00");
    }

    #[test]
    fn info_and_done_follow_scan_layout() {
        let start = Position::start();
        let moves = legal_moves(&start);
        let fields = InfoFields {
            depth: 7,
            score: Score(12),
            nodes: 2_000_000,
            tbhits: 0,
            elapsed: Duration::from_millis(500),
            pv: moves[..2].to_vec(),
            multipv: None,
        };
        let line = info_line(&fields, MoveNumbering::Standard);
        let expected_pv = format!("{} {}", moves[0], moves[1]);
        assert_eq!(
            line,
            format!(
                "info depth=7 mean-depth=7.0 score=0.12 nodes=2000000 time=0.500 nps=4.00 pv=\"{expected_pv}\""
            )
        );
        assert_eq!(
            done_line(Some(&moves[0]), None, MoveNumbering::Standard),
            format!("done move={}", moves[0])
        );
        assert_eq!(
            done_line(None, None, MoveNumbering::Standard),
            "done move=\"\""
        );
        assert_eq!(error_line("bad \"x\"\n"), "error message=\"bad 'x' \"");
    }
}
