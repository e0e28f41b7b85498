//! Hearth's helper executables (the document and model workers), installed beside the program that starts them.

use std::path::PathBuf;

/// Where the helper executable `name` is installed: in the folder of the running executable
/// (where the installers and `cargo build` put it), with this platform's suffix (`.exe` on
/// Windows). `None` only when the running executable's path is unknown.
pub fn helper_beside_this_program(name: &str) -> Option<PathBuf> {
    let this = std::env::current_exe().ok()?;
    Some(this.with_file_name(format!("{name}{}", std::env::consts::EXE_SUFFIX)))
}

#[cfg(test)]
mod tests {
    use super::helper_beside_this_program;

    #[test]
    fn a_helper_is_looked_for_beside_this_program() {
        let this = std::env::current_exe().unwrap();
        let name = this.file_stem().unwrap().to_str().unwrap();
        assert_eq!(
            helper_beside_this_program(name).as_deref(),
            Some(this.as_path())
        );
        let other = helper_beside_this_program("hearth-other-helper").unwrap();
        assert_eq!(other.parent(), this.parent());
        assert!(!other.exists());
    }
}
