//! Evaluation weights read from a file at run time (`name opening endgame` lines, see
//! [`Weights::parse_text`]): the one loader behind the Hub's `weights` parameter and the
//! `--weights` options of the command line.

use crate::eval::weights::Weights;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// Larger than any weights file (one short line per feature and per non-zero pattern entry: at
/// most about 4 MB).
const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads and parses the weights file at `path`. Names the file leaves out keep their built-in
/// values; the error names the file and the reason.
pub fn load_weights(path: &Path) -> Result<Weights, String> {
    let cannot_read =
        |error: std::io::Error| format!("cannot read weights file '{}': {error}", path.display());
    let file = std::fs::File::open(path).map_err(cannot_read)?;
    // A weights file is a few MB at most; a path to something endless (a device, a pipe) must not
    // hang or exhaust the engine.
    let mut text = String::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(cannot_read)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "weights file '{}' is larger than {MAX_FILE_BYTES} bytes",
            path.display()
        ));
    }
    Weights::parse_text(&text).map_err(|why| format!("weights file '{}': {why}", path.display()))
}

/// [`load_weights`], shared for the search threads.
pub fn load_shared(path: &Path) -> Result<Arc<Weights>, String> {
    load_weights(path).map(Arc::new)
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
        // Endless input is cut off, not read forever.
        let endless = load_weights(Path::new("/dev/zero"));
        assert!(endless.is_err_and(|why| why.contains("larger than")));
    }
}
