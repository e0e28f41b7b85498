//! A parsed document as units, and the text handed out of it: one unit or all, each after a
//! marker (`--- page 2 ---`), cut at `max_chars` with the cut said.

use crate::format::{Format, UnitKind};
use crate::DocumentError;
use serde::{Deserialize, Serialize};

/// The most characters returned when the caller does not say.
pub const DEFAULT_MAX_CHARS: usize = 40_000;

/// The most names listed when a unit is not found.
const NAMES_LISTED: usize = 20;

/// One page, slide or sheet (a file without such units is one unit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// 1-based.
    pub number: usize,
    /// The sheet's name or the slide's title.
    pub name: Option<String>,
    pub text: String,
}

impl Unit {
    pub(crate) fn numbered(number: usize, text: String) -> Unit {
        Unit {
            number,
            name: None,
            text,
        }
    }
}

/// A document read whole, or the units asked of a document that can be read in part (a PDF's
/// pages).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Document {
    pub format: Format,
    /// The units read, in order, each with its number in the document.
    pub units: Vec<Unit>,
    /// How many units the document has (more than `units` when only some were read).
    pub unit_count: usize,
}

/// Text taken out of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Extract {
    pub format: Format,
    pub unit_kind: UnitKind,
    /// How many units the document has.
    pub unit_count: usize,
    /// The numbers of the units in `text` (the last one partly when `truncated`).
    pub units_returned: Vec<usize>,
    /// Units among those returned that have no text (a page that is only an image).
    pub units_without_text: Vec<usize>,
    pub text: String,
    /// Characters in `text`.
    pub chars: usize,
    /// Whether `max_chars` cut the text short.
    pub truncated: bool,
}

impl Document {
    /// A document all of whose units were read.
    pub fn whole(format: Format, units: Vec<Unit>) -> Document {
        let unit_count = units.len();
        Document {
            format,
            units,
            unit_count,
        }
    }

    pub fn unit_kind(&self) -> UnitKind {
        self.format.unit_kind()
    }

    /// The text of `unit` (a number, `first-last`, or a sheet name / slide title; `None`: all
    /// units), at most `max_chars` characters.
    pub fn extract(&self, unit: Option<&str>, max_chars: usize) -> Result<Extract, DocumentError> {
        let chosen = match unit {
            Some(asked) => self.select(asked)?,
            None => self.units.iter().collect(),
        };
        let kind = self.unit_kind();
        let marked = kind != UnitKind::Document;
        let mut text = String::new();
        let mut chars = 0;
        let mut truncated = false;
        let mut units_returned = Vec::new();
        let mut units_without_text = Vec::new();
        for unit in chosen {
            let mut piece = String::new();
            if marked {
                if !text.is_empty() {
                    piece.push('\n');
                }
                piece.push_str(&marker(kind, unit));
            }
            piece.push_str(&unit.text);
            if !piece.ends_with('\n') && marked {
                piece.push('\n');
            }
            let count = piece.chars().count();
            units_returned.push(unit.number);
            if unit.text.trim().is_empty() {
                units_without_text.push(unit.number);
            }
            if chars + count > max_chars {
                let room = max_chars - chars;
                text.extend(piece.chars().take(room));
                chars += room;
                truncated = true;
                break;
            }
            text.push_str(&piece);
            chars += count;
        }
        Ok(Extract {
            format: self.format,
            unit_kind: kind,
            unit_count: self.unit_count,
            units_returned,
            units_without_text,
            text,
            chars,
            truncated,
        })
    }

    fn select(&self, asked: &str) -> Result<Vec<&Unit>, DocumentError> {
        if let Some((first, last)) = numbered(asked) {
            return self.by_number(first, last, asked);
        }
        let wanted = asked.trim();
        let lower = wanted.to_lowercase();
        let named = |exact: bool| -> Vec<&Unit> {
            self.units
                .iter()
                .filter(|u| {
                    u.name.as_deref().is_some_and(|n| {
                        let n = n.to_lowercase();
                        if exact {
                            n == lower
                        } else {
                            n.contains(&lower)
                        }
                    })
                })
                .collect()
        };
        let exact = named(true);
        if !exact.is_empty() {
            return Ok(exact.into_iter().take(1).collect());
        }
        match named(false).as_slice() {
            [one] => Ok(vec![*one]),
            _ => Err(self.not_found(asked)),
        }
    }

    fn by_number(
        &self,
        first: usize,
        last: usize,
        asked: &str,
    ) -> Result<Vec<&Unit>, DocumentError> {
        let chosen: Vec<&Unit> = self
            .units
            .iter()
            .filter(|u| (first..=last).contains(&u.number))
            .collect();
        if chosen.is_empty() || first == 0 {
            return Err(self.not_found(asked));
        }
        Ok(chosen)
    }

    fn not_found(&self, asked: &str) -> DocumentError {
        let names: Vec<String> = self
            .units
            .iter()
            .filter_map(|u| u.name.as_ref().map(|n| format!("{} = {n}", u.number)))
            .take(NAMES_LISTED)
            .collect();
        DocumentError::NoSuchUnit {
            kind: self.unit_kind().as_str(),
            asked: asked.to_string(),
            count: self.unit_count,
            names: if names.is_empty() {
                format!(", numbered 1 to {}", self.unit_count)
            } else {
                format!(": {}", names.join(", "))
            },
        }
    }
}

/// The first and last unit numbers `asked` names (`3`, `2-4`), when it names numbers.
pub(crate) fn numbered(asked: &str) -> Option<(usize, usize)> {
    let wanted = asked.trim();
    if let Ok(number) = wanted.parse::<usize>() {
        return Some((number, number));
    }
    let (first, last) = wanted.split_once('-')?;
    Some((first.trim().parse().ok()?, last.trim().parse().ok()?))
}

fn marker(kind: UnitKind, unit: &Unit) -> String {
    match &unit.name {
        Some(name) => format!("--- {} {}: {name} ---\n", kind.as_str(), unit.number),
        None => format!("--- {} {} ---\n", kind.as_str(), unit.number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck() -> Document {
        let mut units: Vec<Unit> = ["一二三", "four five", ""]
            .iter()
            .enumerate()
            .map(|(i, t)| Unit::numbered(i + 1, t.to_string()))
            .collect();
        units[0].name = Some("预算 Budget".into());
        units[1].name = Some("Plan".into());
        Document::whole(Format::Pptx, units)
    }

    #[test]
    fn all_units_come_with_markers_and_empty_ones_are_named() {
        let extract = deck().extract(None, 1000).unwrap();
        assert_eq!(
            extract.text,
            "--- slide 1: 预算 Budget ---\n一二三\n\n--- slide 2: Plan ---\nfour five\n\n--- slide 3 ---\n"
        );
        assert_eq!(extract.units_returned, vec![1, 2, 3]);
        assert_eq!(extract.units_without_text, vec![3]);
        assert!(!extract.truncated);
        assert_eq!(extract.chars, extract.text.chars().count());
    }

    #[test]
    fn units_are_picked_by_number_range_or_name() {
        let d = deck();
        assert_eq!(d.extract(Some("2"), 100).unwrap().units_returned, vec![2]);
        assert_eq!(
            d.extract(Some("2-3"), 100).unwrap().units_returned,
            vec![2, 3]
        );
        assert_eq!(
            d.extract(Some("plan"), 100).unwrap().units_returned,
            vec![2]
        );
        assert_eq!(
            d.extract(Some("预算"), 100).unwrap().units_returned,
            vec![1]
        );
        let missing = d.extract(Some("9"), 100).unwrap_err().to_string();
        assert_eq!(
            missing,
            "there is no slide `9`: the document has 3 slide(s): 1 = 预算 Budget, 2 = Plan"
        );
    }

    #[test]
    fn the_cut_is_counted_in_characters_and_said() {
        let extract = deck().extract(None, 40).unwrap();
        assert!(extract.truncated);
        assert_eq!(extract.chars, 40);
        assert_eq!(extract.text.chars().count(), 40);
        assert_eq!(extract.units_returned, vec![1, 2]);
    }
}
