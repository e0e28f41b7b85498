//! Opening a cited file at its place: the command line of each PDF viewer that takes a page and
//! each editor that takes a line, the pick among the programs found on this machine, and the
//! search for them (PATH and known install paths). No viewer found means the OS's default app.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Text formats whose cited lines are the file's own lines (an HTML or DOCX citation counts lines
/// of the extracted text, which an editor would not find at that number).
const LINE_FORMATS: &[&str] = &["md", "markdown", "txt", "text", "log", "csv", "tsv"];

/// Where in its file a citation points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A PDF page, from 1.
    Page(u64),
    /// A line of a text file, from 1.
    Line(u64),
}

impl Place {
    /// The place of a citation (its unit and first unit): pages of PDFs and lines of plain text
    /// files ([`LINE_FORMATS`]); slides and sheets have no viewer that takes them.
    pub fn of(file: &Path, unit: &str, first: u64) -> Option<Place> {
        let extension = file
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        match unit {
            "page" if extension == "pdf" => Some(Place::Page(first.max(1))),
            "line" if LINE_FORMATS.contains(&extension.as_str()) => Some(Place::Line(first.max(1))),
            _ => None,
        }
    }
}

/// A program that opens a file at a page or a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    Evince,
    Okular,
    Zathura,
    Mupdf,
    SumatraPdf,
    /// Skim on macOS, driven through `osascript` (Preview cannot be told a page).
    Skim,
    VsCode,
    VsCodium,
    SublimeText,
    Kate,
    Gedit,
    NotepadPlusPlus,
}

/// A command line: the program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

/// Skim's AppleScript: open the file (argument 1) and go to the page (argument 2).
const SKIM_SCRIPT: [&str; 7] = [
    "on run argv",
    "tell application \"Skim\"",
    "activate",
    "open (POSIX file (item 1 of argv))",
    "go document 1 to page (item 2 of argv as integer) of document 1",
    "end tell",
    "end run",
];

impl Viewer {
    /// Every viewer, in the order they are preferred when the OS's default app is none of them.
    pub const ALL: [Viewer; 12] = [
        Viewer::Evince,
        Viewer::Okular,
        Viewer::Zathura,
        Viewer::Mupdf,
        Viewer::SumatraPdf,
        Viewer::Skim,
        Viewer::VsCode,
        Viewer::VsCodium,
        Viewer::SublimeText,
        Viewer::Kate,
        Viewer::Gedit,
        Viewer::NotepadPlusPlus,
    ];

    /// Whether it opens PDFs at a page (else text files at a line).
    pub fn takes_pages(self) -> bool {
        matches!(
            self,
            Viewer::Evince
                | Viewer::Okular
                | Viewer::Zathura
                | Viewer::Mupdf
                | Viewer::SumatraPdf
                | Viewer::Skim
        )
    }

    fn takes(self, place: Place) -> bool {
        self.takes_pages() == matches!(place, Place::Page(_))
    }

    /// Its program names on PATH (with `.exe` or `.cmd` on Windows).
    fn names(self) -> &'static [&'static str] {
        match self {
            Viewer::Evince => &["evince"],
            Viewer::Okular => &["okular"],
            Viewer::Zathura => &["zathura"],
            Viewer::Mupdf => &["mupdf"],
            Viewer::SumatraPdf => &["SumatraPDF"],
            Viewer::Skim => &[],
            Viewer::VsCode => &["code"],
            Viewer::VsCodium => &["codium"],
            Viewer::SublimeText => &["subl"],
            Viewer::Kate => &["kate"],
            Viewer::Gedit => &["gedit"],
            Viewer::NotepadPlusPlus => &["notepad++"],
        }
    }

    /// Where its installer puts it when it is not on PATH (`%LOCALAPPDATA%` and
    /// `%ProgramFiles%` expanded by [`find_viewers`]); for Skim, the app whose presence is
    /// checked.
    fn known_paths(self) -> &'static [&'static str] {
        match self {
            Viewer::SumatraPdf => &[
                "%LOCALAPPDATA%\\SumatraPDF\\SumatraPDF.exe",
                "%ProgramFiles%\\SumatraPDF\\SumatraPDF.exe",
            ],
            Viewer::Skim => &["/Applications/Skim.app"],
            Viewer::VsCode => &[
                "/Applications/Visual Studio Code.app/Contents/Resources/app/bin/code",
                "%LOCALAPPDATA%\\Programs\\Microsoft VS Code\\bin\\code.cmd",
            ],
            Viewer::VsCodium => &["/Applications/VSCodium.app/Contents/Resources/app/bin/codium"],
            Viewer::SublimeText => {
                &["/Applications/Sublime Text.app/Contents/SharedSupport/bin/subl"]
            }
            Viewer::NotepadPlusPlus => &["%ProgramFiles%\\Notepad++\\notepad++.exe"],
            _ => &[],
        }
    }

    /// The viewer a desktop entry or app id names (`org.gnome.Evince.desktop`, `code.desktop`,
    /// what `xdg-mime query default` prints), if it is one of these.
    pub fn of_desktop_entry(entry: &str) -> Option<Viewer> {
        let entry = entry.trim().to_ascii_lowercase();
        let stem = entry.strip_suffix(".desktop").unwrap_or(&entry);
        let last = stem.rsplit('.').next().unwrap_or(stem);
        let names: [(&str, Viewer); 10] = [
            ("evince", Viewer::Evince),
            ("okular", Viewer::Okular),
            ("zathura", Viewer::Zathura),
            ("mupdf", Viewer::Mupdf),
            ("code", Viewer::VsCode),
            ("codium", Viewer::VsCodium),
            ("sublime_text", Viewer::SublimeText),
            ("kate", Viewer::Kate),
            ("gedit", Viewer::Gedit),
            ("notepad++", Viewer::NotepadPlusPlus),
        ];
        names
            .iter()
            .find(|(name, _)| last == *name || last.starts_with(&format!("{name}-")))
            .map(|(_, viewer)| *viewer)
    }

    /// The command line that opens `file` at `place` with this viewer at `program` (for Skim,
    /// the app; the command is `osascript`).
    pub fn launch(self, program: &Path, file: &Path, place: Place) -> Launch {
        let n = match place {
            Place::Page(n) | Place::Line(n) => n,
        };
        let file = file.as_os_str().to_os_string();
        let number = OsString::from(n.to_string());
        let joined = |prefix: &str, tail: &OsStr| {
            let mut arg = OsString::from(prefix);
            arg.push(tail);
            arg
        };
        let with_line = {
            let mut arg = file.clone();
            arg.push(format!(":{n}"));
            arg
        };
        let args = match self {
            Viewer::Evince => vec![joined("--page-index=", &number), file],
            Viewer::Okular => vec!["--page".into(), number, file],
            Viewer::Zathura => vec![joined("--page=", &number), file],
            Viewer::Mupdf => vec![file, number],
            Viewer::SumatraPdf => vec!["-reuse-instance".into(), "-page".into(), number, file],
            Viewer::Skim => {
                let mut args: Vec<OsString> = SKIM_SCRIPT
                    .iter()
                    .flat_map(|line| [OsString::from("-e"), OsString::from(line)])
                    .collect();
                args.extend([file, number]);
                return Launch {
                    program: PathBuf::from("/usr/bin/osascript"),
                    args,
                };
            }
            Viewer::VsCode | Viewer::VsCodium => vec!["-g".into(), with_line],
            Viewer::SublimeText => vec![with_line],
            Viewer::Kate => vec!["--line".into(), number, file],
            Viewer::Gedit => vec![format!("+{n}").into(), file],
            Viewer::NotepadPlusPlus => vec![format!("-n{n}").into(), file],
        };
        Launch {
            program: program.to_path_buf(),
            args,
        }
    }
}

/// The command that opens `file` at `place` with one of the viewers `found`: `preferred` (the
/// OS's default app for the file, when it is one of them), else the first that takes the place;
/// `None` when none does (open it in the default app, not at its place).
pub fn launch_at(
    found: &[(Viewer, PathBuf)],
    preferred: Option<Viewer>,
    file: &Path,
    place: Place,
) -> Option<Launch> {
    let usable = |viewer: &Viewer| viewer.takes(place);
    found
        .iter()
        .find(|(viewer, _)| Some(*viewer) == preferred && usable(viewer))
        .or_else(|| found.iter().find(|(viewer, _)| usable(viewer)))
        .map(|(viewer, program)| viewer.launch(program, file, place))
}

/// The viewers installed: on `path` (a `PATH` value) or at their known install paths, with
/// `env` giving the variables those paths use; in [`Viewer::ALL`] order.
pub fn find_viewers(
    path: Option<&OsStr>,
    env: impl Fn(&str) -> Option<OsString>,
) -> Vec<(Viewer, PathBuf)> {
    let dirs: Vec<PathBuf> = path
        .map(|p| std::env::split_paths(p).collect())
        .unwrap_or_default();
    let suffixes: &[&str] = if cfg!(windows) {
        &[".exe", ".cmd"]
    } else {
        &[""]
    };
    Viewer::ALL
        .into_iter()
        .filter_map(|viewer| {
            let on_path = viewer.names().iter().find_map(|name| {
                dirs.iter().find_map(|dir| {
                    suffixes
                        .iter()
                        .map(|suffix| dir.join(format!("{name}{suffix}")))
                        .find(|candidate| candidate.is_file())
                })
            });
            let known = || {
                viewer
                    .known_paths()
                    .iter()
                    .filter_map(|known| expand(known, &env))
                    .find(|candidate| candidate.exists())
            };
            on_path.or_else(known).map(|program| (viewer, program))
        })
        .collect()
}

/// `template` with its `%NAME%` variables from `env`; `None` when one is unset.
fn expand(template: &str, env: &impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let mut out = OsString::new();
    let mut parts = template.split('%');
    out.push(parts.next().unwrap_or_default());
    while let Some(name) = parts.next() {
        out.push(env(name)?);
        out.push(parts.next().unwrap_or_default());
    }
    Some(PathBuf::from(out))
}

#[cfg(test)]
#[path = "open_tests.rs"]
mod tests;
