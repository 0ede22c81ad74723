//! Evaluation weights read from a file at run time (`name opening endgame` lines, see
//! [`Weights::parse_text`]): the one loader behind the Hub's `weights` parameter and the
//! `--weights` options of the command line.

use crate::weights::Weights;
use std::path::Path;
use std::sync::Arc;

/// Reads and parses the weights file at `path`. Names the file leaves out keep their built-in
/// values; the error names the file and the reason.
pub fn load_weights(path: &Path) -> Result<Weights, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read weights file '{}': {error}", path.display()))?;
    Weights::parse_text(&text).map_err(|why| format!("weights file '{}': {why}", path.display()))
}

/// [`load_weights`], shared for the search threads.
pub fn load_shared(path: &Path) -> Result<Arc<Weights>, String> {
    load_weights(path).map(|weights| Arc::new(weights))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_file_and_the_reason() {
        let missing = load_weights(Path::new("/nonexistent/onca-weights.txt"));
        let Err(why) = missing else {
            panic!("a missing file must be an error")
        };
        assert!(why.contains("/nonexistent/onca-weights.txt"), "{why}");
        assert!(why.starts_with("cannot read weights file"), "{why}");
    }
}
