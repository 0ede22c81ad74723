//! Reading the host's lines with bounded memory.
//!
//! A line longer than the limit is not kept: its bytes are skipped up to the next newline and the
//! caller is told how long it was, so a host (or an attacker) sending an endless line cannot make
//! us allocate without bound. Bytes that are not UTF-8 are replaced, never fatal.

use std::io::{self, BufRead};

/// Lines longer than this (bytes, without the newline) are refused. A full game in `moves=` is a
/// few kilobytes; a megabyte leaves ample room.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One result of [`read_line`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Line {
    /// A complete line (without `\n`; a `\r` before it is removed too).
    Text(String),
    /// A line of this many bytes was skipped because it exceeded the limit.
    TooLong(usize),
    /// The input is closed.
    End,
}

/// Reads the next line, keeping at most `limit` bytes of it in memory. A last line without a
/// newline still counts as a line.
pub fn read_line(reader: &mut impl BufRead, limit: usize) -> io::Result<Line> {
    let mut kept: Vec<u8> = Vec::new();
    let mut length = 0usize;
    let mut saw_any = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            if !saw_any {
                return Ok(Line::End);
            }
            break;
        }
        saw_any = true;
        let (chunk, found_newline) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], true),
            None => (buffer, false),
        };
        if length <= limit {
            let room = limit + 1 - length;
            kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        length = length.saturating_add(chunk.len());
        let consumed = chunk.len() + usize::from(found_newline);
        reader.consume(consumed);
        if found_newline {
            break;
        }
    }
    if kept.last() == Some(&b'\r') && length <= limit + 1 {
        kept.pop();
        length -= 1;
    }
    if length > limit {
        return Ok(Line::TooLong(length));
    }
    Ok(Line::Text(String::from_utf8_lossy(&kept).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn lines(input: &[u8], limit: usize) -> Vec<Line> {
        let mut reader = BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        loop {
            let line = read_line(&mut reader, limit).unwrap();
            let end = line == Line::End;
            out.push(line);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn splits_lines_and_strips_carriage_returns() {
        assert_eq!(
            lines(b"hub\r\ninit\n\nlast", 100),
            vec![
                Line::Text("hub".into()),
                Line::Text("init".into()),
                Line::Text(String::new()),
                Line::Text("last".into()),
                Line::End
            ]
        );
    }

    #[test]
    fn long_lines_are_skipped_and_reading_goes_on() {
        let mut input = vec![b'a'; 50];
        input.extend_from_slice(b"\nping\n");
        assert_eq!(
            lines(&input, 10),
            vec![Line::TooLong(50), Line::Text("ping".into()), Line::End]
        );
        // Exactly at the limit is fine, also with a CR after it.
        assert_eq!(
            lines(b"0123456789\r\n", 10),
            vec![Line::Text("0123456789".into()), Line::End]
        );
        assert_eq!(lines(b"0123456789a\n", 10)[0], Line::TooLong(11));
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(
            lines(b"p\xffq\n", 10),
            vec![Line::Text("p\u{fffd}q".into()), Line::End]
        );
    }
}
