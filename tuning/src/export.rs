//! Writes weights as Rust source (`pub const TUNED: Weights = Weights { .. }`) that the engine can
//! compile in, and reads such a file back (to check the round trip).
//!
//! The source is built from [`Weights::to_text`]'s `name value` lines, so it follows the engine's
//! fields without knowing them: `man 100` becomes `man: 100`, `runaway[0] 0` .. `runaway[7] 50`
//! become `runaway: [0, .., 50]` (tables of any dimension, `a[i][j]`, nest). This relies on the
//! text names being the field names, which `Weights` keeps.

use onca::weights::Weights;

/// One `name[i][j] value` line split up.
struct Entry {
    field: String,
    indices: Vec<usize>,
    value: i32,
}

fn parse_entry(line: &str) -> Result<Entry, String> {
    let (name, value) = line
        .split_once(' ')
        .ok_or_else(|| format!("expected `name value`, found `{line}`"))?;
    let value = value
        .trim()
        .parse()
        .map_err(|_| format!("bad number in `{line}`"))?;
    let (field, mut rest) = name.split_once('[').map_or((name, ""), |(f, r)| (f, r));
    let mut indices = Vec::new();
    while !rest.is_empty() {
        let (index, after) = rest
            .split_once(']')
            .ok_or_else(|| format!("bad table index in `{name}`"))?;
        indices.push(
            index
                .parse()
                .map_err(|_| format!("bad table index in `{name}`"))?,
        );
        rest = after.strip_prefix('[').unwrap_or(after);
    }
    if field.is_empty() || !field.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("`{name}` is not a field name"));
    }
    Ok(Entry {
        field: field.to_string(),
        indices,
        value,
    })
}

/// Renders a field's values (row-major, `shape` per dimension) as a nested array literal.
fn render(values: &[i32], shape: &[usize]) -> String {
    match shape.split_first() {
        None => values.first().map_or_else(String::new, i32::to_string),
        Some((&count, inner)) => {
            let size: usize = inner.iter().product();
            let items: Vec<String> = (0..count)
                .map(|i| render(&values[i * size..(i + 1) * size], inner))
                .collect();
            format!("[{}]", items.join(", "))
        }
    }
}

/// Rust source defining `pub const TUNED: Weights` with these values. Fails only if the text
/// names do not describe whole tables in order (a change in `Weights` this module must follow).
pub fn to_rust(weights: &Weights) -> Result<String, String> {
    let mut fields: Vec<(String, Vec<Vec<usize>>, Vec<i32>)> = Vec::new();
    for line in weights.to_text().lines().filter(|l| !l.trim().is_empty()) {
        let entry = parse_entry(line.trim())?;
        match fields.last_mut() {
            Some((field, indices, values)) if *field == entry.field => {
                indices.push(entry.indices);
                values.push(entry.value);
            }
            _ => {
                if fields.iter().any(|(field, _, _)| *field == entry.field) {
                    return Err(format!("field `{}` is not contiguous", entry.field));
                }
                fields.push((entry.field, vec![entry.indices], vec![entry.value]));
            }
        }
    }
    let mut body = String::new();
    for (field, indices, values) in &fields {
        let dimensions = indices.first().map_or(0, Vec::len);
        let shape: Vec<usize> = (0..dimensions)
            .map(|d| indices.iter().map(|i| i.get(d).map_or(0, |x| x + 1)).max())
            .map(|m| m.unwrap_or(0))
            .collect();
        // Row-major enumeration of the shape must be exactly the order given.
        let mut expected = vec![0usize; dimensions];
        for index in indices {
            if *index != expected {
                return Err(format!(
                    "field `{field}`: entries not a whole table in order"
                ));
            }
            for d in (0..dimensions).rev() {
                expected[d] += 1;
                if expected[d] < shape[d] || d == 0 {
                    break;
                }
                expected[d] = 0;
            }
        }
        body.push_str(&format!("    {field}: {},\n", render(values, &shape)));
    }
    Ok(format!(
        "//! Evaluation weights written by `onca-tune export`; do not edit by hand.\n\n\
         use crate::weights::Weights;\n\n\
         /// Weights fitted by the tuner.\n\
         pub const TUNED: Weights = Weights {{\n{body}}};\n"
    ))
}

/// Reads a [`to_rust`] file back (through [`Weights::parse_text`], so every name is checked).
pub fn from_rust(source: &str) -> Result<Weights, String> {
    let body = source
        .split_once("Weights {")
        .map(|(_, body)| body)
        .ok_or("no `Weights {` in the file")?;
    let mut tokens = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            let mut token = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    token.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            tokens.push(token);
        } else if c == '}' {
            break;
        } else {
            tokens.push(c.to_string());
            chars.next();
        }
    }
    let mut text = String::new();
    let mut position = 0;
    while position < tokens.len() {
        let field = &tokens[position];
        if tokens.get(position + 1).map(String::as_str) != Some(":") {
            return Err(format!("expected `:` after `{field}`"));
        }
        position += 2;
        let mut path = Vec::new();
        read_value(&tokens, &mut position, field, &mut path, &mut text)?;
        if tokens.get(position).map(String::as_str) == Some(",") {
            position += 1;
        }
    }
    Weights::parse_text(&text)
}

/// Reads one value (a number or a nested array) at `tokens[*position]` into `name[i].. value`
/// lines.
fn read_value(
    tokens: &[String],
    position: &mut usize,
    field: &str,
    path: &mut Vec<usize>,
    text: &mut String,
) -> Result<(), String> {
    let token = tokens.get(*position).ok_or("unexpected end of file")?;
    if token == "[" {
        *position += 1;
        let mut index = 0;
        while tokens.get(*position).map(String::as_str) != Some("]") {
            path.push(index);
            read_value(tokens, position, field, path, text)?;
            path.pop();
            index += 1;
            match tokens.get(*position).map(String::as_str) {
                Some(",") => *position += 1,
                Some("]") => {}
                _ => return Err(format!("expected `,` or `]` in `{field}`")),
            }
        }
        *position += 1;
        return Ok(());
    }
    let value: i32 = token
        .parse()
        .map_err(|_| format!("bad number `{token}` in `{field}`"))?;
    let indices: String = path.iter().map(|i| format!("[{i}]")).collect();
    text.push_str(&format!("{field}{indices} {value}\n"));
    *position += 1;
    Ok(())
}
