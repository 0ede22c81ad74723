//! When to tell the host that a file it named is of another variant than the game: the files of
//! `egtb-path`, `weights` and `book` each belong to one variant, and a host may name them before it
//! chooses the variant, so the session keeps them and says so at the first `go` of a game of the
//! other variant, once per setting and game variant rather than at every move.

use crate::rules::variant::Variant;

/// The game variant a mismatch of one file setting was last reported for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MismatchNotice(Option<Variant>);

impl MismatchNotice {
    /// The setting changed: its next mismatch is news again.
    pub fn reset(&mut self) {
        self.0 = None;
    }

    /// Whether a mismatch with a game of `game` should be reported now (not yet reported for
    /// this setting and this game variant); it counts as reported from here on.
    pub fn first_for(&mut self, game: Variant) -> bool {
        self.0.replace(game) != Some(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_once_per_setting_and_game_variant() {
        let mut notice = MismatchNotice::default();
        assert!(notice.first_for(Variant::Russian));
        assert!(!notice.first_for(Variant::Russian));
        assert!(notice.first_for(Variant::Brazilian));
        assert!(notice.first_for(Variant::Russian));
        notice.reset();
        assert!(notice.first_for(Variant::Russian));
    }
}
