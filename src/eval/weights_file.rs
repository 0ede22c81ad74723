//! Evaluation weights read from a file at run time (`name opening endgame` lines, see
//! [`Weights::parse_text`]): the one loader behind the Hub's `weights` parameter and the
//! `--weights` options of the command line, which also refuses a file fitted to another variant
//! than the game's ([`for_variant`]).

use crate::eval::weights::Weights;
use crate::rules::variant::Variant;
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

/// `weights`, read from `path`, if they were fitted to `variant`; otherwise an error naming the
/// file and both variants (weights fitted to one variant's games misjudge the other's).
pub fn for_variant<W: std::borrow::Borrow<Weights>>(
    weights: W,
    path: &Path,
    variant: Variant,
) -> Result<W, String> {
    let fitted_to = weights.borrow().variant;
    if fitted_to == variant {
        Ok(weights)
    } else {
        Err(format!(
            "weights file '{}' is for {fitted_to} draughts, not {variant}",
            path.display()
        ))
    }
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

    #[test]
    fn a_file_of_another_variant_is_refused_by_name() {
        let russian = Arc::new(Weights::builtin_for(Variant::Russian).clone());
        let path = Path::new("ru.txt");
        assert!(for_variant(russian.clone(), path, Variant::Russian).is_ok());
        let Err(why) = for_variant(russian, path, Variant::Brazilian) else {
            panic!("Russian weights must be refused in a Brazilian game")
        };
        assert_eq!(
            why,
            "weights file 'ru.txt' is for russian draughts, not brazilian"
        );
    }
}
