//! Skill names as the Agent Skills format writes them: 1–64 characters of `a-z0-9-`, no
//! leading, trailing or doubled hyphen.

/// Why `name` is not a valid skill name, if it is not.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 64 {
        return Err(format!(
            "must be 1 to 64 characters long (is {})",
            name.chars().count()
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Err(format!(
            "may hold only lower-case letters, digits and hyphens (found {bad:?})"
        ));
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        return Err("may not start or end with a hyphen or hold two in a row".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_name;

    #[test]
    fn accepts_the_format_and_refuses_the_rest() {
        assert!(check_name("daily-report2").is_ok());
        for bad in ["", "Daily", "a_b", "-a", "a-", "a--b", &"a".repeat(65)] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
