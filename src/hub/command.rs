//! Hub input lines: the tokenizer of the `command name=value flag ...` grammar and the typed
//! [`Command`] that the session acts on.
//!
//! The grammar is read leniently, because hosts differ: blanks (including a trailing `\r`) around
//! the line and around `=` are skipped, a value is either a double-quoted string (no escapes; may
//! be empty or hold blanks) or a bare token that stops at a blank, `=` or `"`, and a name without
//! `=` is a flag. Names are case-sensitive as in Scan. Unknown commands parse to `None` and unknown
//! arguments are ignored (hosts extend the protocol that way). Arguments of known commands that are
//! present but malformed give a [`CommandError`] whose text goes into an `error` reply.

use std::fmt;
use std::time::Duration;

/// One argument: `name=value`, or a flag (`value` is `None`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Argument {
    /// The name before `=` (case-sensitive, never empty).
    pub name: String,
    /// The value after `=`, quotes removed (may be empty); `None` for a flag.
    pub value: Option<String>,
}

/// A tokenized line: the command word and its arguments in order.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Tokens {
    /// The first word of the line; empty for a blank line.
    pub command: String,
    /// The arguments in line order, repeated names kept ([`Tokens::value`] takes the last one).
    pub arguments: Vec<Argument>,
}

impl Tokens {
    /// The value of the last argument called `name` (later ones win), if it has one.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.arguments
            .iter()
            .rev()
            .find(|argument| argument.name == name)
            .and_then(|argument| argument.value.as_deref())
    }

    /// Whether `name` appears, as a flag or with a value.
    pub fn has(&self, name: &str) -> bool {
        self.arguments.iter().any(|argument| argument.name == name)
    }
}

/// Why a line of a known command was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CommandError {}

fn error<T>(message: String) -> Result<T, CommandError> {
    Err(CommandError(message))
}

/// Splits a line into its command word and arguments.
pub fn tokenize(line: &str) -> Result<Tokens, CommandError> {
    let mut cursor = Cursor {
        chars: line.chars().collect(),
        at: 0,
    };
    cursor.skip_blanks();
    let command = cursor.take_while(|c| !c.is_whitespace());
    let mut arguments = Vec::new();
    loop {
        cursor.skip_blanks();
        let Some(first) = cursor.peek() else { break };
        if first == '"' {
            // A quoted value without a name: not part of the grammar. Skip it.
            cursor.quoted()?;
            continue;
        }
        let name = cursor.take_while(|c| !c.is_whitespace() && c != '=' && c != '"');
        let after_name = cursor.at;
        cursor.skip_blanks();
        let value = if cursor.peek() == Some('=') {
            cursor.at += 1;
            cursor.skip_blanks();
            if cursor.peek() == Some('"') {
                Some(cursor.quoted()?)
            } else {
                Some(cursor.take_while(|c| !c.is_whitespace() && c != '=' && c != '"'))
            }
        } else {
            cursor.at = after_name;
            None
        };
        if name.is_empty() {
            // A stray `=value`: skip it (and the lone `"` case is handled above).
            if value.is_none() {
                cursor.at += 1;
            }
            continue;
        }
        arguments.push(Argument { name, value });
    }
    Ok(Tokens { command, arguments })
}

/// A character cursor over one line.
struct Cursor {
    chars: Vec<char>,
    at: usize,
}

impl Cursor {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let start = self.at;
        while self.peek().is_some_and(&keep) {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    /// Reads `"..."` starting at the opening quote.
    fn quoted(&mut self) -> Result<String, CommandError> {
        self.at += 1;
        let value = self.take_while(|c| c != '"');
        if self.peek() != Some('"') {
            return error("a quoted value has no closing '\"'".into());
        }
        self.at += 1;
        Ok(value)
    }
}

/// What `go` asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GoMode {
    /// Find a move to play.
    Think,
    /// Search the position after the expected opponent move; the clock starts at `ponder-hit`.
    Ponder,
    /// Analysis: the host wants scores and lines, a single legal move is searched too.
    Analyze,
}

/// The fields of one `level` line (each present field replaces the earlier value).
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Level {
    /// `depth=`: stop after the iteration of this depth, in plies (at least 1).
    pub depth: Option<u32>,
    /// `nodes=`: stop after about this many nodes (at least 1).
    pub nodes: Option<u64>,
    /// `move-time=`: think this long for the move.
    pub move_time: Option<Duration>,
    /// Remaining clock in seconds; may be negative (the host's clock has run past zero).
    pub time: Option<f64>,
    /// `inc=`: Fischer increment per move.
    pub increment: Option<Duration>,
    /// `moves=`: moves to the next time control; None when absent or 0 (sudden death or Fischer).
    pub moves_to_go: Option<u32>,
    /// The `infinite` flag: search until `stop`, whatever else is set (once set by a line, later
    /// lines cannot clear it).
    pub infinite: bool,
}

impl Level {
    /// Adds the fields of a later `level` line.
    pub fn merge(&mut self, later: &Level) {
        self.depth = later.depth.or(self.depth);
        self.nodes = later.nodes.or(self.nodes);
        self.move_time = later.move_time.or(self.move_time);
        self.time = later.time.or(self.time);
        self.increment = later.increment.or(self.increment);
        self.moves_to_go = later.moves_to_go.or(self.moves_to_go);
        self.infinite |= later.infinite;
    }
}

/// A command from the host.
#[derive(Clone, PartialEq, Debug)]
pub enum Command {
    /// `hub`: introduce the engine (`id`, one `param` line per parameter, `wait`).
    Hub,
    /// `set-param name=<name> value=<value>`: set an engine parameter.
    SetParam {
        /// The parameter's name (never empty; unknown names are ignored later).
        name: String,
        /// The new value, not yet checked against the parameter's type.
        value: String,
    },
    /// `init`: get ready to search (create the table); answered with `ready`.
    Init,
    /// `new-game`: later searches are unrelated to earlier ones (clear the table and statistics).
    NewGame,
    /// `pos=` text (Hub string or FEN) and the `moves=` text (empty when absent).
    Pos {
        /// The start position text, not yet parsed (never blank).
        position: String,
        /// The moves played from `position`, separated by blanks, not yet parsed.
        moves: String,
    },
    /// `level ...`: limits for the next search, merged into those of earlier `level` lines.
    Level(Level),
    /// `go think|ponder|analyze`: search the current position.
    Go(GoMode),
    /// `ponder-hit`: the opponent played the expected move; the ponder search's clock starts.
    PonderHit,
    /// `stop`: end the running search as soon as possible (its `done` follows).
    Stop,
    /// `ping`: answered with `pong`.
    Ping,
    /// `quit`: end any search and the session.
    Quit,
}

/// Reads one line. `Ok(None)` for blank lines and commands we do not know (ignored by the
/// protocol); `Err` for a known command with a malformed or missing argument.
pub fn parse_command(line: &str) -> Result<Option<Command>, CommandError> {
    let tokens = tokenize(line)?;
    let command = match tokens.command.as_str() {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "new-game" => Command::NewGame,
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "ping" => Command::Ping,
        "quit" => Command::Quit,
        "set-param" => parse_set_param(&tokens)?,
        "pos" => parse_pos(&tokens)?,
        "level" => Command::Level(parse_level(&tokens)?),
        "go" => Command::Go(parse_go(&tokens)),
        _ => return Ok(None),
    };
    Ok(Some(command))
}

fn parse_set_param(tokens: &Tokens) -> Result<Command, CommandError> {
    let Some(name) = tokens.value("name").filter(|name| !name.is_empty()) else {
        return error("set-param needs name=<parameter>".into());
    };
    let Some(value) = tokens.value("value") else {
        return error(format!("set-param name={name} needs value=<value>"));
    };
    Ok(Command::SetParam {
        name: name.to_string(),
        value: value.to_string(),
    })
}

fn parse_pos(tokens: &Tokens) -> Result<Command, CommandError> {
    let Some(position) = tokens.value("pos").filter(|text| !text.trim().is_empty()) else {
        return error("pos needs pos=<position> (Hub string or FEN)".into());
    };
    Ok(Command::Pos {
        position: position.to_string(),
        moves: tokens.value("moves").unwrap_or("").to_string(),
    })
}

/// `go think|ponder|analyze`; a bare `go` thinks.
fn parse_go(tokens: &Tokens) -> GoMode {
    tokens
        .arguments
        .iter()
        .find_map(|argument| match argument.name.as_str() {
            "think" => Some(GoMode::Think),
            "ponder" => Some(GoMode::Ponder),
            "analyze" | "analyse" => Some(GoMode::Analyze),
            _ => None,
        })
        .unwrap_or(GoMode::Think)
}

/// The longest time we accept in a `level` field (about 31 years); larger values are clamped.
const MAX_SECONDS: f64 = 1.0e9;

fn parse_level(tokens: &Tokens) -> Result<Level, CommandError> {
    let mut level = Level {
        infinite: tokens.has("infinite"),
        ..Level::default()
    };
    for argument in &tokens.arguments {
        let name = argument.name.as_str();
        let Some(text) = argument.value.as_deref() else {
            continue;
        };
        match name {
            "depth" => {
                let depth = parse_integer::<u32>(name, text)?;
                if depth == 0 {
                    return error("level depth must be at least 1".into());
                }
                level.depth = Some(depth);
            }
            "nodes" => {
                let nodes = parse_integer::<u64>(name, text)?;
                if nodes == 0 {
                    return error("level nodes must be at least 1".into());
                }
                level.nodes = Some(nodes);
            }
            "moves" => {
                let moves = parse_integer::<u32>(name, text)?;
                level.moves_to_go = (moves > 0).then_some(moves);
            }
            "move-time" => level.move_time = Some(parse_duration(name, text)?),
            "inc" => level.increment = Some(parse_duration(name, text)?),
            "time" => level.time = Some(parse_real(name, text)?.clamp(-MAX_SECONDS, MAX_SECONDS)),
            _ => {}
        }
    }
    Ok(level)
}

fn parse_integer<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, CommandError> {
    text.trim()
        .parse::<T>()
        .or_else(|_| error(format!("level {name}={text}: expected a whole number")))
}

fn parse_real(name: &str, text: &str) -> Result<f64, CommandError> {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        _ => error(format!("level {name}={text}: expected a number of seconds")),
    }
}

/// A non-negative number of seconds.
fn parse_duration(name: &str, text: &str) -> Result<Duration, CommandError> {
    let seconds = parse_real(name, text)?;
    if seconds < 0.0 {
        return error(format!("level {name}={text}: must not be negative"));
    }
    Ok(Duration::from_secs_f64(seconds.min(MAX_SECONDS)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(line: &str) -> Vec<(String, Option<String>)> {
        tokenize(line)
            .unwrap()
            .arguments
            .into_iter()
            .map(|a| (a.name, a.value))
            .collect()
    }

    #[test]
    fn tokenizer_reads_quotes_flags_and_blanks() {
        let tokens = tokenize("  pos pos=Wbbb  moves = \"21-17 9-13\" \r").unwrap();
        assert_eq!(tokens.command, "pos");
        assert_eq!(tokens.value("pos"), Some("Wbbb"));
        assert_eq!(tokens.value("moves"), Some("21-17 9-13"));
        assert_eq!(
            pairs("go think x=\"\" y="),
            vec![
                ("think".into(), None),
                ("x".into(), Some(String::new())),
                ("y".into(), Some(String::new())),
            ]
        );
        assert!(tokenize("pos moves=\"21-17").is_err());
        // Stray quotes and equal signs are skipped, never loop forever.
        assert_eq!(
            pairs("cmd a \"q\" =v b == c"),
            vec![("a".into(), None), ("b".into(), Some(String::new()))]
        );
        assert_eq!(tokenize("").unwrap().command, "");
    }

    #[test]
    fn commands_parse_with_their_arguments() {
        assert_eq!(parse_command("hub").unwrap(), Some(Command::Hub));
        assert_eq!(parse_command("frobnicate now").unwrap(), None);
        assert_eq!(parse_command("   ").unwrap(), None);
        assert_eq!(
            parse_command("set-param name=hash value=128").unwrap(),
            Some(Command::SetParam {
                name: "hash".into(),
                value: "128".into()
            })
        );
        assert!(parse_command("set-param value=1").is_err());
        assert!(parse_command("pos moves=\"\"").is_err());
        assert_eq!(
            parse_command("go").unwrap(),
            Some(Command::Go(GoMode::Think))
        );
        assert_eq!(
            parse_command("go ponder").unwrap(),
            Some(Command::Go(GoMode::Ponder))
        );
    }

    #[test]
    fn level_fields_and_errors() {
        let Some(Command::Level(level)) =
            parse_command("level time=-1.5 inc=0.1 moves=30 handicap=2").unwrap()
        else {
            panic!("not a level");
        };
        assert_eq!(level.time, Some(-1.5));
        assert_eq!(level.increment, Some(Duration::from_millis(100)));
        assert_eq!(level.moves_to_go, Some(30));
        assert!(!level.infinite);
        let Some(Command::Level(level)) = parse_command("level move-time=0.05 infinite").unwrap()
        else {
            panic!("not a level");
        };
        assert_eq!(level.move_time, Some(Duration::from_millis(50)));
        assert!(level.infinite);
        assert!(parse_command("level depth=x").is_err());
        assert!(parse_command("level move-time=-1").is_err());
        assert!(parse_command("level time=nan").is_err());
        assert!(parse_command("level depth=0").is_err());
        let Some(Command::Level(huge)) = parse_command("level move-time=1e300").unwrap() else {
            panic!("not a level");
        };
        assert!(huge.move_time.is_some());
    }
}
