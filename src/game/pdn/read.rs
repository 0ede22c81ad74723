//! Reading PDN files of any size, one game at a time from a byte stream ([`PdnReader`]).
//!
//! Accepted: tags `[Name "value"]` (the `GameType` notation field decides how numbers read, see
//! [`SquareNotation`]; a `FEN` tag in that notation gives the start), algebraic and numeric move
//! text with `-`, `x` or `:` separators, move numbers (`12.`, `12...`, glued to the move or not),
//! annotations glued to moves (`!`, `?!`), NAGs (`$4`), comments `{...}` and `;` to the end of
//! the line, variations `(...)` at any depth (skipped), and the results `2-0`, `1-1`, `0-2`,
//! `1-0`, `1/2-1/2`, `0-1`, `0-0` and `*`. Every move is checked with our move generator.
//!
//! A bad game is reported with its number, the line and column of the first problem and the
//! reason; the reader then skips to the end of that game and goes on with the next. Memory stays
//! bounded by the longest game's moves: words and tag values have length limits, comments and
//! variations are skipped without being stored.

use super::{GameResult, PdnGame, SquareNotation};
use crate::game::record::Game;
use crate::notation::fen;
use crate::notation::pdn;
use crate::notation::squares::read_game_type;
use crate::rules::position::Position;
use crate::rules::variant::Variant;
use std::fmt;
use std::io::BufRead;

/// A game that could not be read: which game (counting from 1, bad games included), where in
/// the file (line and column from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// The game's number in the file.
    pub game: usize,
    /// Line of the first problem.
    pub line: usize,
    /// Column (in characters) of the first problem.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}: {}",
            self.game, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for PdnError {}

/// Reads every game of a PDN text; the first bad game is the error.
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    PdnReader::new(text.as_bytes()).collect()
}

/// Longest word (move, move number, result) accepted: a king's capture of every piece with all
/// its landing squares written fits in well under this.
const MAX_WORD: usize = 200;
/// Longest tag value accepted.
const MAX_TAG_VALUE: usize = 4096;

/// A place in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    line: usize,
    column: usize,
}

/// What the lexer found.
#[derive(Debug)]
enum Token {
    Tag { name: String, value: String },
    Word(String),
    End,
}

/// A token or a problem, with where it starts.
type Lexed = Result<(Token, Place), (String, Place)>;

/// Splits a byte stream into tags and words, skipping whitespace, comments and variations.
struct Lexer<R> {
    input: R,
    place: Place,
    /// A byte read but not consumed.
    peeked: Option<u8>,
    /// Set after a read error has been reported: the input counts as ended.
    broken: bool,
    read_error: Option<String>,
}

impl<R: BufRead> Lexer<R> {
    fn new(input: R) -> Self {
        Lexer {
            input,
            place: Place { line: 1, column: 1 },
            peeked: None,
            broken: false,
            read_error: None,
        }
    }

    fn peek(&mut self) -> Option<u8> {
        if self.peeked.is_none() && !self.broken {
            let next = match self.input.fill_buf() {
                Ok([]) => None,
                Ok(buffer) => Some(buffer[0]),
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {
                    return self.peek()
                }
                Err(error) => {
                    self.broken = true;
                    self.read_error = Some(format!("cannot read the file: {error}"));
                    None
                }
            };
            if next.is_some() {
                self.input.consume(1);
            }
            self.peeked = next;
        }
        self.peeked
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.peeked = None;
        if byte == b'\n' {
            self.place.line += 1;
            self.place.column = 1;
        } else if byte & 0xC0 != 0x80 {
            // Continuation bytes of UTF-8 characters do not start a column.
            self.place.column += 1;
        }
        Some(byte)
    }

    fn next_token(&mut self) -> Lexed {
        loop {
            let place = self.place;
            let Some(byte) = self.peek() else {
                return match self.read_error.take() {
                    Some(message) => Err((message, place)),
                    None => Ok((Token::End, place)),
                };
            };
            match byte {
                b if b.is_ascii_whitespace() => {
                    self.bump();
                }
                b'%' if place.column == 1 => self.skip_line(),
                b';' => self.skip_line(),
                b'{' => self.skip_comment(place)?,
                b'(' => self.skip_variation(place)?,
                b'[' => return self.tag(place),
                b'}' | b')' | b']' => {
                    self.bump();
                    return Err((format!("unexpected '{}'", byte as char), place));
                }
                _ => return self.word(place),
            }
        }
    }

    fn skip_line(&mut self) {
        while let Some(byte) = self.bump() {
            if byte == b'\n' {
                break;
            }
        }
    }

    fn skip_comment(&mut self, opened: Place) -> Result<(), (String, Place)> {
        self.bump();
        loop {
            match self.bump() {
                Some(b'}') => return Ok(()),
                Some(_) => {}
                None => return Err(("comment '{' is never closed".into(), opened)),
            }
        }
    }

    fn skip_variation(&mut self, opened: Place) -> Result<(), (String, Place)> {
        self.bump();
        let mut depth = 1usize;
        loop {
            let place = self.place;
            match self.bump() {
                Some(b'(') => depth += 1,
                Some(b')') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some(b'{') => {
                    self.peeked = Some(b'{');
                    self.skip_comment(place)?;
                }
                Some(_) => {}
                None => return Err(("variation '(' is never closed".into(), opened)),
            }
        }
    }

    /// A word: everything up to whitespace or a character that starts something else.
    fn word(&mut self, place: Place) -> Lexed {
        let mut bytes = Vec::new();
        while let Some(byte) = self.peek() {
            if byte.is_ascii_whitespace() || b"{}()[];".contains(&byte) {
                break;
            }
            self.bump();
            if bytes.len() == MAX_WORD {
                while self
                    .peek()
                    .is_some_and(|b| !b.is_ascii_whitespace() && !b"{}()[];".contains(&b))
                {
                    self.bump();
                }
                return Err((format!("word longer than {MAX_WORD} characters"), place));
            }
            bytes.push(byte);
        }
        Ok((
            Token::Word(String::from_utf8_lossy(&bytes).into_owned()),
            place,
        ))
    }

    /// A tag `[Name "value"]` on one line; the value may escape `"` and `\` with a backslash.
    fn tag(&mut self, place: Place) -> Lexed {
        self.bump();
        let bad = |why: &str| Err((format!("bad tag: {why}"), place));
        let mut name = String::new();
        while let Some(byte) = self.peek() {
            if byte.is_ascii_alphanumeric() || byte == b'_' {
                self.bump();
                if name.len() < MAX_WORD {
                    name.push(byte as char);
                }
            } else {
                break;
            }
        }
        while self.peek().is_some_and(|b| b == b' ' || b == b'\t') {
            self.bump();
        }
        if name.is_empty() || self.peek() != Some(b'"') {
            self.skip_to_tag_end();
            return bad("expected [Name \"value\"]");
        }
        self.bump();
        let mut value = Vec::new();
        loop {
            match self.bump() {
                Some(b'"') => break,
                Some(b'\\') => match self.bump() {
                    Some(b'\n') | None => return bad("the value is not closed on its line"),
                    Some(escaped) => value.push(escaped),
                },
                Some(b'\n') | None => return bad("the value is not closed on its line"),
                Some(byte) => value.push(byte),
            }
            if value.len() > MAX_TAG_VALUE {
                self.skip_to_tag_end();
                return bad(&format!("value longer than {MAX_TAG_VALUE} bytes"));
            }
        }
        while self.peek().is_some_and(|b| b == b' ' || b == b'\t') {
            self.bump();
        }
        if self.peek() != Some(b']') {
            self.skip_to_tag_end();
            return bad("expected ']' after the value");
        }
        self.bump();
        Ok((
            Token::Tag {
                name,
                value: String::from_utf8_lossy(&value).into_owned(),
            },
            place,
        ))
    }

    fn skip_to_tag_end(&mut self) {
        while let Some(byte) = self.peek() {
            if byte == b'\n' {
                break;
            }
            self.bump();
            if byte == b']' {
                break;
            }
        }
    }
}

/// Reads games one by one from a byte stream: each item is a game or the reason it could not
/// be read, and a bad game does not stop the games after it.
pub struct PdnReader<R> {
    lexer: Lexer<R>,
    lookahead: Option<Lexed>,
    games: usize,
}

impl<R: BufRead> PdnReader<R> {
    /// A reader of the PDN text in `input`.
    pub fn new(input: R) -> Self {
        PdnReader {
            lexer: Lexer::new(input),
            lookahead: None,
            games: 0,
        }
    }

    fn peek(&mut self) -> &Lexed {
        let lexer = &mut self.lexer;
        self.lookahead.get_or_insert_with(|| lexer.next_token())
    }

    fn bump(&mut self) -> Lexed {
        match self.lookahead.take() {
            Some(lexed) => lexed,
            None => self.lexer.next_token(),
        }
    }
}

/// A game's first problem.
type Problem = (String, Place);

impl<R: BufRead> Iterator for PdnReader<R> {
    type Item = Result<PdnGame, PdnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if matches!(self.peek(), Ok((Token::End, _))) {
            return None;
        }
        self.games += 1;
        let mut problem: Option<Problem> = None;
        let mut tags: Vec<(String, String, Place)> = Vec::new();
        // The tag section: until the first word, or a tag name seen twice (the next game's tags
        // after a game without move text).
        loop {
            match self.peek() {
                Ok((Token::Tag { name, .. }, _))
                    if tags.iter().any(|(seen, _, _)| seen == name) =>
                {
                    break
                }
                Ok((Token::Tag { .. }, _)) => {
                    if let Ok((Token::Tag { name, value }, place)) = self.bump() {
                        tags.push((name, value, place));
                    }
                }
                Ok(_) => break,
                Err(_) => {
                    if let Err(found) = self.bump() {
                        problem.get_or_insert(found);
                    }
                }
            }
        }
        let tag = |wanted: &str| {
            tags.iter()
                .find(|(name, _, _)| name == wanted)
                .map(|(_, value, place)| (value.as_str(), *place))
        };
        let (variant, notation) = match tag("GameType") {
            Some((value, place)) => read_game_type(value).unwrap_or_else(|why| {
                problem.get_or_insert((why, place));
                (Variant::Brazilian, SquareNotation::Algebraic)
            }),
            None => (Variant::Brazilian, SquareNotation::Algebraic),
        };
        let start = match tag("FEN") {
            Some((value, place)) => fen::parse_fen_in(value, notation).unwrap_or_else(|why| {
                problem.get_or_insert((format!("FEN tag: {why}"), place));
                Position::start()
            }),
            None => Position::start(),
        };
        let mut result = tag("Result")
            .and_then(|(value, _)| GameResult::parse(value))
            .unwrap_or(GameResult::Unknown);
        let mut game = Game::in_variant(variant, start);
        // The move text: until a result, the next game's tags or the end.
        while !matches!(self.peek(), Ok((Token::End | Token::Tag { .. }, _))) {
            match self.bump() {
                Ok((Token::Word(word), place)) => {
                    if let Some(parsed) = GameResult::parse(&word) {
                        result = parsed;
                        break;
                    }
                    if problem.is_none() {
                        if let Err(why) = play_word(&mut game, &word, notation) {
                            problem = Some((why, place));
                        }
                    }
                }
                Err(found) => {
                    problem.get_or_insert(found);
                }
                Ok(_) => {}
            }
        }
        let number = self.games;
        Some(match problem {
            Some((message, place)) => Err(PdnError {
                game: number,
                line: place.line,
                column: place.column,
                message,
            }),
            None => Ok(PdnGame {
                variant,
                tags: tags
                    .into_iter()
                    .map(|(name, value, _)| (name, value))
                    .collect(),
                start,
                moves: game.moves().to_vec(),
                result,
            }),
        })
    }
}

/// Plays the move a move-text word names, if it names one (move numbers and NAGs name none).
fn play_word(game: &mut Game, word: &str, notation: SquareNotation) -> Result<(), String> {
    if word.starts_with('$') {
        return Ok(());
    }
    // Move numbers: `12.`, `12...`, or glued to the move as `12.c3-d4`.
    let body = word.rsplit('.').next().unwrap_or("");
    let body = body.trim_end_matches(['!', '?']);
    if body.is_empty() || body.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(());
    }
    let mv = pdn::read_move_in(game.variant(), game.current(), body, notation)
        .map_err(|why| format!("move {} '{body}': {why}", game.moves().len() + 1))?;
    game.play(mv);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<Result<PdnGame, PdnError>> {
        PdnReader::new(text.as_bytes()).collect()
    }

    #[test]
    fn a_bad_game_is_located_and_the_next_games_are_read() {
        let text = "[Event \"one\"]\n\n1. c3-d4 f6-e5 2-0\n\n\
                    [Event \"two\"]\n\n1. c3-d4 f6-e5\n2. d4xf6 h6-g5 0-2\n\n\
                    [Event \"three\"]\n[GameType \"26,W,8,8,N2,0\"]\n\n1. 22-18 11-15 1-1\n";
        let games = all(text);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].as_ref().map(|g| g.moves.len()), Ok(2));
        let error = games[1].as_ref().expect_err("h6-g5 ignores the capture");
        assert_eq!((error.game, error.line, error.column), (2, 8, 10));
        assert!(error.message.contains("move 4 'h6-g5'"), "{error}");
        assert_eq!(
            error.to_string().split(':').next(),
            Some("game 2, line 8, column 10")
        );
        let third = games[2].as_ref().expect("the third game reads");
        assert_eq!(third.tag("Event"), Some("three"));
        assert_eq!(third.result, GameResult::Draw);
        assert_eq!(third.moves.len(), 2);
    }

    #[test]
    fn comments_variations_nags_and_every_result_form() {
        let text = "; a line comment\n% an escape line\n\
                    [Result \"*\"]\n1.c3-d4! {one (brace) 2. x} f6-e5?! $4 (1... f6-g5 (2. d4-c5)) \
                    2.d4xf6 g7xe5 1/2-1/2\n\
                    1. c3-d4 1-0\n1. c3-d4 f6-e5 0-1\n1. c3-d4 *\n1. c3-d4 0-0\n";
        let games: Vec<PdnGame> = all(text).into_iter().map(|g| g.expect("reads")).collect();
        let results: Vec<GameResult> = games.iter().map(|g| g.result).collect();
        assert_eq!(
            results,
            [
                GameResult::Draw,
                GameResult::WhiteWins,
                GameResult::BlackWins,
                GameResult::Unknown,
                GameResult::Draw
            ]
        );
        assert_eq!(games[0].moves.len(), 4);
    }

    #[test]
    fn game_type_25_is_russian_draughts() {
        // White's c3 (21) may take one man on b4 although d2 could take two: only Russian allows
        // it. The FEN names Hub numbers, as the N2 game type says.
        let text = "[GameType \"25,W,8,8,N2,0\"]\n[FEN \"W:W21,28:B17,24,15\"]\n1. 21x14 *\n";
        let games = read_games(text).expect("a Russian game");
        assert_eq!(games[0].variant, Variant::Russian);
        assert_eq!(games[0].moves[0].to_string(), "21x14x17");
        let brazilian = text.replace("25,W", "26,W");
        assert!(read_games(&brazilian).is_err(), "illegal in Brazilian");
        let written = super::super::write_game(&games[0], SquareNotation::HubNumbers);
        assert!(
            written.contains("[GameType \"25,W,8,8,N2,0\"]"),
            "{written}"
        );
        let again = read_games(&written).expect("read back");
        assert_eq!(again[0].variant, Variant::Russian);
        assert_eq!(again[0].moves, games[0].moves);
        let plain = read_games("1. c3-d4 *\n").expect("no GameType");
        assert_eq!(plain[0].variant, Variant::Brazilian);
    }

    #[test]
    fn the_numbering_follows_the_game_type() {
        // 1 = a1: White's c3-d4 is 10-14, Black's f6-e5 is 23-19.
        let a1 = "[GameType \"26,W,8,8,N0,0\"]\n[FEN \"W:W1-12:B21-32\"]\n1. 10-14 23-19 *\n";
        let game = read_games(a1).expect("N0 file");
        assert_eq!(game[0].start, Position::start());
        assert_eq!(game[0].moves[0].to_string(), "22-18");
        assert!(read_games("[GameType \"20\"]\n1. c3-d4 *\n").is_err());
        let error = read_games("[GameType \"26,W,8,8,N1,0\"]\n1. 22-18 *\n")
            .expect_err("N1 is not a Brazilian numbering");
        assert_eq!((error.line, error.column), (1, 1));
    }

    #[test]
    fn broken_input_gives_errors_not_panics() {
        let cases = [
            "{ never closed",
            "( never closed",
            "[Event \"no end",
            "[Event]",
            "[ \"x\"]",
            "1. c3-d4 ) 2-0",
            "1. c3-d4 ] 2-0",
            "1. zz-d4 *",
            "[FEN \"W:W99\"]\n1. c3-d4 *",
        ];
        for case in cases {
            let games = all(case);
            assert!(games.iter().any(Result::is_err), "{case:?} gave {games:?}");
        }
        let long = format!("1. {} *\n1. c3-d4 *\n", "x".repeat(100_000));
        let games = all(&long);
        assert_eq!(games.len(), 2);
        assert!(games[0]
            .as_ref()
            .is_err_and(|e| e.message.contains("longer")));
        assert!(games[1].is_ok());
        assert!(all("").is_empty());
        assert!(all("\n\n  \n").is_empty());
        let invalid_utf8: &[u8] = b"[Event \"\xff\xfe\"]\n1. c3-d4 *\n";
        let games: Vec<_> = PdnReader::new(invalid_utf8).collect();
        assert!(games[0].is_ok(), "{games:?}");
    }

    #[test]
    fn games_without_move_text_do_not_swallow_the_next_game() {
        let text = "[Event \"a\"]\n[Result \"1-1\"]\n\n[Event \"b\"]\n\n1. c3-d4 2-0\n";
        let games = read_games(text).expect("both read");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].result, GameResult::Draw);
        assert!(games[0].moves.is_empty());
        assert_eq!(games[1].tag("Event"), Some("b"));
    }
}
