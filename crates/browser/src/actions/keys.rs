//! Key presses through `Input.dispatchKeyEvent`: named keys, single characters (any script)
//! and modifier combinations such as `Control+A`.

use crate::cdp::call;
use crate::error;
use chromiumoxide::Page;
use hearth_tools::ToolError;
use serde_json::json;

/// A key's DOM `key`, `code`, Windows virtual key code and the text it types.
#[derive(Debug)]
struct Key {
    key: String,
    code: String,
    key_code: i64,
    text: Option<String>,
}

const NAMED: &[(&str, &str, i64, Option<&str>)] = &[
    ("Enter", "Enter", 13, Some("\r")),
    ("Tab", "Tab", 9, None),
    ("Escape", "Escape", 27, None),
    ("Backspace", "Backspace", 8, None),
    ("Delete", "Delete", 46, None),
    ("ArrowUp", "ArrowUp", 38, None),
    ("ArrowDown", "ArrowDown", 40, None),
    ("ArrowLeft", "ArrowLeft", 37, None),
    ("ArrowRight", "ArrowRight", 39, None),
    ("Home", "Home", 36, None),
    ("End", "End", 35, None),
    ("PageUp", "PageUp", 33, None),
    ("PageDown", "PageDown", 34, None),
    ("Space", "Space", 32, Some(" ")),
    ("Insert", "Insert", 45, None),
    ("F5", "F5", 116, None),
];

/// Modifier names and their CDP bit.
const MODIFIERS: &[(&str, i64)] = &[
    ("alt", 1),
    ("control", 2),
    ("ctrl", 2),
    ("meta", 4),
    ("cmd", 4),
    ("command", 4),
    ("shift", 8),
];

fn named(name: &str) -> Option<Key> {
    let lower = name.to_lowercase();
    let alias = match lower.as_str() {
        "return" => "enter",
        "esc" => "escape",
        "up" => "arrowup",
        "down" => "arrowdown",
        "left" => "arrowleft",
        "right" => "arrowright",
        " " => "space",
        other => other,
    };
    NAMED
        .iter()
        .find(|(key, ..)| key.to_lowercase() == alias)
        .map(|(key, code, key_code, text)| Key {
            key: if *key == "Space" {
                " ".into()
            } else {
                key.to_string()
            },
            code: code.to_string(),
            key_code: *key_code,
            text: text.map(str::to_string),
        })
}

fn character(name: &str) -> Option<Key> {
    let mut chars = name.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    let (code, key_code) = if c.is_ascii_alphabetic() {
        (
            format!("Key{}", c.to_ascii_uppercase()),
            c.to_ascii_uppercase() as i64,
        )
    } else if c.is_ascii_digit() {
        (format!("Digit{c}"), c as i64)
    } else {
        (String::new(), 0)
    };
    Some(Key {
        key: c.to_string(),
        code,
        key_code,
        text: Some(c.to_string()),
    })
}

/// Parses `Control+Shift+a` into modifiers and the key.
fn parse(spec: &str) -> Result<(i64, Key), ToolError> {
    let parts: Vec<&str> = if spec == "+" {
        vec!["+"]
    } else {
        spec.split('+').collect()
    };
    let (last, mods) = parts
        .split_last()
        .ok_or_else(|| ToolError::invalid("key", "give a key name such as Enter"))?;
    let mut modifiers = 0;
    for m in mods {
        let bit = MODIFIERS
            .iter()
            .find(|(name, _)| *name == m.to_lowercase())
            .map(|(_, bit)| *bit)
            .ok_or_else(|| {
                ToolError::invalid(
                    "key",
                    format!("`{m}` is not a modifier (Control, Shift, Alt, Meta)"),
                )
            })?;
        modifiers |= bit;
    }
    let key = named(last).or_else(|| character(last)).ok_or_else(|| {
        ToolError::invalid(
            "key",
            format!(
                "`{last}` is not a key; use a character or one of {}",
                NAMED.iter().map(|k| k.0).collect::<Vec<_>>().join(", ")
            ),
        )
    })?;
    Ok((modifiers, key))
}

/// Checks a key spec without pressing it.
pub fn check(spec: &str) -> Result<(), ToolError> {
    parse(spec).map(|_| ())
}

/// Presses and releases `spec` on the focused element.
pub async fn press(page: &Page, spec: &str) -> Result<(), ToolError> {
    let (modifiers, key) = parse(spec)?;
    // With Control/Alt/Meta held a character is a shortcut, not text.
    let text = key.text.filter(|_| modifiers & 7 == 0);
    let down = json!({
        "type": if text.is_some() { "keyDown" } else { "rawKeyDown" },
        "modifiers": modifiers,
        "key": key.key,
        "code": key.code,
        "windowsVirtualKeyCode": key.key_code,
        "text": text.clone().unwrap_or_default(),
        "unmodifiedText": text.unwrap_or_default(),
    });
    call(page, "Input.dispatchKeyEvent", down)
        .await
        .map_err(error::cdp)?;
    let up = json!({
        "type": "keyUp",
        "modifiers": modifiers,
        "key": key.key,
        "code": key.code,
        "windowsVirtualKeyCode": key.key_code,
    });
    call(page, "Input.dispatchKeyEvent", up)
        .await
        .map_err(error::cdp)?;
    Ok(())
}

/// Types `text` at the caret as one committed input (any language).
pub async fn insert_text(page: &Page, text: &str) -> Result<(), ToolError> {
    call(page, "Input.insertText", json!({"text": text}))
        .await
        .map(|_| ())
        .map_err(error::cdp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_with_modifiers_and_bad_ones_are_named() {
        let (mods, key) = parse("Control+A").unwrap();
        assert_eq!((mods, key.code.as_str(), key.key_code), (2, "KeyA", 65));
        let (_, enter) = parse("enter").unwrap();
        assert_eq!(enter.text.as_deref(), Some("\r"));
        assert_eq!(parse("中").unwrap().1.text.as_deref(), Some("中"));
        let error = parse("Hyper+Q").unwrap_err();
        assert!(error.message.contains("Hyper"), "{error:?}");
        assert!(parse("NotAKey").unwrap_err().message.contains("not a key"));
    }
}
