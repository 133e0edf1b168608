//! ASCII FBX (6.x and 7.x): `Name: value, value { children }` lines, `;` comments, and arrays
//! as `*N { a: 1,2,3 }` (7.x) or plain comma lists that continue over lines (6.x).

use super::tree::{Budget, Node, Value};

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Key(String),
    Str(String),
    Number(Value),
    Word(String),
    Star(u64),
    Open,
    Close,
    Comma,
    Newline,
}

/// The top-level nodes of an ASCII FBX file.
pub fn parse(bytes: &[u8], max_nodes: usize, max_array_bytes: usize) -> Result<Vec<Node>, String> {
    let tokens = tokens(bytes)?;
    let mut parser = Parser {
        tokens: &tokens,
        pos: 0,
        budget: Budget::new(max_nodes),
        values_left: max_array_bytes.saturating_mul(2) / 8,
    };
    let nodes = parser.nodes(0)?;
    if nodes.is_empty() {
        return Err("it holds no nodes".into());
    }
    Ok(nodes)
}

fn tokens(bytes: &[u8]) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1usize;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                line += 1;
                out.push(Token::Newline);
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => {
                out.push(Token::Open);
                i += 1;
            }
            b'}' => {
                out.push(Token::Close);
                i += 1;
            }
            b',' => {
                out.push(Token::Comma);
                i += 1;
            }
            b'"' => {
                let start = i + 1;
                let end = bytes[start..]
                    .iter()
                    .position(|&b| b == b'"')
                    .map(|p| start + p)
                    .ok_or_else(|| format!("a string on line {line} is not closed"))?;
                line += bytes[start..end].iter().filter(|&&b| b == b'\n').count();
                out.push(Token::Str(
                    String::from_utf8_lossy(&bytes[start..end]).into_owned(),
                ));
                i = end + 1;
            }
            b'*' => {
                let start = i + 1;
                let mut end = start;
                while end < bytes.len() && bytes[end].is_ascii_digit() {
                    end += 1;
                }
                let count = std::str::from_utf8(&bytes[start..end])
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| format!("an array on line {line} has no length"))?;
                out.push(Token::Star(count));
                i = end;
            }
            _ => {
                let start = i;
                while i < bytes.len()
                    && !matches!(
                        bytes[i],
                        b' ' | b'\t' | b'\r' | b'\n' | b',' | b'{' | b'}' | b'"' | b';'
                    )
                {
                    i += 1;
                }
                let word = String::from_utf8_lossy(&bytes[start..i]).into_owned();
                if let Some(key) = word.strip_suffix(':') {
                    out.push(Token::Key(key.to_owned()));
                } else if let Some(number) = number(&word) {
                    out.push(Token::Number(number));
                } else {
                    out.push(Token::Word(word));
                }
            }
        }
    }
    Ok(out)
}

fn number(word: &str) -> Option<Value> {
    let first = *word.as_bytes().first()?;
    if !(first.is_ascii_digit() || first == b'-' || first == b'+' || first == b'.') {
        return None;
    }
    if let Ok(i) = word.parse::<i64>() {
        return Some(Value::I64(i));
    }
    word.parse::<f64>().ok().map(Value::F64)
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    budget: Budget,
    /// Array numbers the file may still hold.
    values_left: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn skip_newlines(&mut self) {
        while self.peek() == Some(&Token::Newline) {
            self.pos += 1;
        }
    }

    /// Nodes until the closing brace of the list at `depth` (or the end at depth 0).
    fn nodes(&mut self, depth: usize) -> Result<Vec<Node>, String> {
        let mut nodes = Vec::new();
        loop {
            self.skip_newlines();
            match self.peek().cloned() {
                None if depth == 0 => return Ok(nodes),
                None => return Err("it ends inside a node (a '}' is missing)".into()),
                Some(Token::Close) if depth > 0 => {
                    self.pos += 1;
                    return Ok(nodes);
                }
                Some(Token::Key(name)) => {
                    self.pos += 1;
                    self.budget.take(depth)?;
                    let values = self.values()?;
                    let children = if self.peek() == Some(&Token::Open) {
                        self.pos += 1;
                        self.nodes(depth + 1)?
                    } else {
                        Vec::new()
                    };
                    nodes.push(Node {
                        name,
                        values,
                        children,
                    });
                }
                Some(other) => {
                    return Err(format!("unexpected {other:?} where a node name belongs"));
                }
            }
        }
    }

    /// The values after a node's name, up to the end of its line (a trailing comma continues
    /// the list on the next line).
    fn values(&mut self) -> Result<Vec<Value>, String> {
        let mut values = Vec::new();
        loop {
            match self.peek().cloned() {
                Some(Token::Number(v)) => {
                    self.count_values(1)?;
                    values.push(v);
                    self.pos += 1;
                }
                Some(Token::Str(s)) => {
                    values.push(Value::Str(s));
                    self.pos += 1;
                }
                Some(Token::Word(w)) => {
                    values.push(Value::Str(w));
                    self.pos += 1;
                }
                Some(Token::Star(_)) => {
                    self.pos += 1;
                    values.push(self.array()?);
                    return Ok(values);
                }
                Some(Token::Comma) => {
                    self.pos += 1;
                    self.skip_newlines();
                    continue;
                }
                _ => return Ok(values),
            }
            // After a value: a comma continues the list, anything else ends it.
            if self.peek() == Some(&Token::Comma) {
                self.pos += 1;
                self.skip_newlines();
            } else {
                return Ok(values);
            }
        }
    }

    /// `{ a: 1,2,3 }` after `*N`.
    fn array(&mut self) -> Result<Value, String> {
        self.skip_newlines();
        if self.peek() != Some(&Token::Open) {
            return Err("an array's '{' is missing".into());
        }
        self.pos += 1;
        self.skip_newlines();
        let mut numbers = Vec::new();
        if let Some(Token::Key(_)) = self.peek() {
            self.pos += 1;
            numbers = self.values()?;
        }
        self.skip_newlines();
        if self.peek() != Some(&Token::Close) {
            return Err("an array's '}' is missing".into());
        }
        self.pos += 1;
        if numbers.iter().all(|v| matches!(v, Value::I64(_))) {
            Ok(Value::I64s(numbers.iter().filter_map(Value::int).collect()))
        } else {
            Ok(Value::F64s(
                numbers.iter().filter_map(Value::float).collect(),
            ))
        }
    }

    fn count_values(&mut self, n: usize) -> Result<(), String> {
        self.values_left = self
            .values_left
            .checked_sub(n)
            .ok_or("more numbers than the limit")?;
        Ok(())
    }
}
