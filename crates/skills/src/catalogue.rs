//! Progressive disclosure: the compact catalogue of skills the system prompt carries (name and
//! description, each entry capped, the whole within a budget); the model loads a skill's body
//! with `skill_view` / `get_skill`.

use crate::skill::Skill;

/// The most tokens one entry takes (its description is cut to fit).
pub const ENTRY_TOKEN_CAP: usize = 100;

/// The most tokens the catalogue takes; skills past it are counted, not listed.
pub const CATALOGUE_TOKEN_BUDGET: usize = 1500;

/// A token estimate: one per four bytes, rounded up.
fn tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// The catalogue text of the skills switched on, or `None` when there are none (a turn with
/// none pays nothing).
pub fn prompt_catalogue(skills: &[Skill]) -> Option<String> {
    let skills: Vec<&Skill> = skills.iter().filter(|s| s.enabled).collect();
    if skills.is_empty() {
        return None;
    }
    let mut text = String::from(
        "Skills (instructions for particular tasks; load one with skill_view before using it):",
    );
    let mut used = tokens(&text);
    for (listed, skill) in skills.iter().enumerate() {
        let entry = entry(skill);
        let remaining = skills.len() - listed;
        // Keep room for the closing line while more skills follow.
        let closing = if remaining > 1 { 25 } else { 0 };
        if used + tokens(&entry) + closing > CATALOGUE_TOKEN_BUDGET {
            text.push_str(&format!(
                "\n… and {remaining} more skills: skills_list lists them all."
            ));
            return Some(text);
        }
        used += tokens(&entry);
        text.push_str(&entry);
    }
    Some(text)
}

/// `\n- name: description`, cut at a character boundary to [`ENTRY_TOKEN_CAP`].
fn entry(skill: &Skill) -> String {
    let description = skill
        .description
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut entry = format!("\n- {}: {description}", skill.name);
    let cap = ENTRY_TOKEN_CAP * 4;
    if entry.len() > cap {
        let mut end = cap - '…'.len_utf8();
        while !entry.is_char_boundary(end) {
            end -= 1;
        }
        entry.truncate(end);
        entry.push('…');
    }
    entry
}
