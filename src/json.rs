//! Just enough JSON writing for the tools' output (analysis lines, match
//! summaries), by hand: the crate takes no serialisation dependency. Strings
//! are escaped as RFC 8259 asks, so error messages that quote user input stay
//! valid JSON.

use std::fmt::Write;

/// `s` as a JSON string literal, quotes included.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON array of already-written values.
pub fn array<I: IntoIterator<Item = String>>(values: I) -> String {
    let items: Vec<String> = values.into_iter().collect();
    format!("[{}]", items.join(","))
}

/// A JSON array of strings.
pub fn string_array<I: IntoIterator<Item = S>, S: AsRef<str>>(values: I) -> String {
    array(values.into_iter().map(|s| string(s.as_ref())))
}

/// A JSON object built field by field, in the order the fields are added.
#[derive(Default)]
pub struct Object {
    body: String,
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    /// Adds a field whose value is already JSON text.
    pub fn raw(mut self, key: &str, json: &str) -> Object {
        if !self.body.is_empty() {
            self.body.push(',');
        }
        self.body.push_str(&string(key));
        self.body.push(':');
        self.body.push_str(json);
        self
    }

    /// Adds a string field.
    pub fn str(self, key: &str, value: &str) -> Object {
        self.raw(key, &string(value))
    }

    /// Adds a number (or boolean: anything whose `Display` is valid JSON).
    pub fn num(self, key: &str, value: impl std::fmt::Display) -> Object {
        self.raw(key, &value.to_string())
    }

    /// The object's text.
    pub fn finish(self) -> String {
        format!("{{{}}}", self.body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(string("a\"b\\c\nd\u{1}é"), r#""a\"b\\c\nd\u0001é""#);
    }

    #[test]
    fn objects() {
        let o = Object::new()
            .num("line", 3)
            .str("error", "x")
            .raw("pv", &string_array(["a", "b"]))
            .num("ok", true)
            .finish();
        assert_eq!(o, r#"{"line":3,"error":"x","pv":["a","b"],"ok":true}"#);
        assert_eq!(Object::new().finish(), "{}");
    }
}
