//! The command lines that open a cited file at its place, without running any of them.

use super::*;

fn line(launch: &Launch) -> Vec<String> {
    std::iter::once(launch.program.display().to_string())
        .chain(launch.args.iter().map(|a| a.to_string_lossy().into_owned()))
        .collect()
}

fn at(viewer: Viewer, place: Place) -> Vec<String> {
    let program = PathBuf::from(format!("/bin/{viewer:?}"));
    line(&viewer.launch(&program, Path::new("/k/年报 2024.pdf"), place))
}

#[test]
fn each_pdf_viewer_is_told_the_page() {
    let page = Place::Page(7);
    assert_eq!(
        at(Viewer::Evince, page),
        ["/bin/Evince", "--page-index=7", "/k/年报 2024.pdf"]
    );
    assert_eq!(
        at(Viewer::Okular, page),
        ["/bin/Okular", "--page", "7", "/k/年报 2024.pdf"]
    );
    assert_eq!(
        at(Viewer::Zathura, page),
        ["/bin/Zathura", "--page=7", "/k/年报 2024.pdf"]
    );
    assert_eq!(
        at(Viewer::Mupdf, page),
        ["/bin/Mupdf", "/k/年报 2024.pdf", "7"]
    );
    assert_eq!(
        at(Viewer::SumatraPdf, page),
        [
            "/bin/SumatraPdf",
            "-reuse-instance",
            "-page",
            "7",
            "/k/年报 2024.pdf"
        ]
    );
    // Skim through osascript, the path and page as arguments (never spliced into the script).
    let skim = at(Viewer::Skim, page);
    assert_eq!(skim[0], "/usr/bin/osascript");
    assert_eq!(&skim[skim.len() - 2..], ["/k/年报 2024.pdf", "7"]);
    assert!(skim
        .iter()
        .all(|arg| !arg.contains("年报") || arg == "/k/年报 2024.pdf"));
    assert!(
        skim.contains(&"go document 1 to page (item 2 of argv as integer) of document 1".into())
    );
}

#[test]
fn each_editor_is_told_the_line() {
    let file = Path::new("/k/notes.md");
    let run = |viewer: Viewer| line(&viewer.launch(Path::new("/bin/x"), file, Place::Line(12)));
    assert_eq!(run(Viewer::VsCode), ["/bin/x", "-g", "/k/notes.md:12"]);
    assert_eq!(run(Viewer::VsCodium), ["/bin/x", "-g", "/k/notes.md:12"]);
    assert_eq!(run(Viewer::SublimeText), ["/bin/x", "/k/notes.md:12"]);
    assert_eq!(run(Viewer::Kate), ["/bin/x", "--line", "12", "/k/notes.md"]);
    assert_eq!(run(Viewer::Gedit), ["/bin/x", "+12", "/k/notes.md"]);
    assert_eq!(
        run(Viewer::NotepadPlusPlus),
        ["/bin/x", "-n12", "/k/notes.md"]
    );
}

#[test]
fn only_pdf_pages_and_lines_are_places() {
    assert_eq!(
        Place::of(Path::new("/k/a.PDF"), "page", 3),
        Some(Place::Page(3))
    );
    assert_eq!(
        Place::of(Path::new("/k/a.md"), "line", 0),
        Some(Place::Line(1))
    );
    assert_eq!(
        Place::of(Path::new("/k/a.CSV"), "line", 4),
        Some(Place::Line(4))
    );
    // Lines of extracted text are not the file's lines.
    assert_eq!(Place::of(Path::new("/k/a.html"), "line", 4), None);
    assert_eq!(Place::of(Path::new("/k/a.docx"), "line", 4), None);
    assert_eq!(Place::of(Path::new("/k/a.docx"), "page", 3), None);
    assert_eq!(Place::of(Path::new("/k/a.pptx"), "slide", 2), None);
    assert_eq!(Place::of(Path::new("/k/a.xlsx"), "sheet", 1), None);
}

#[test]
fn the_default_app_is_preferred_then_the_first_viewer_that_takes_the_place() {
    let found = vec![
        (Viewer::VsCode, PathBuf::from("/bin/code")),
        (Viewer::Evince, PathBuf::from("/bin/evince")),
        (Viewer::Okular, PathBuf::from("/bin/okular")),
    ];
    let pdf = Path::new("/k/a.pdf");
    let program = |preferred, place| {
        launch_at(&found, preferred, pdf, place).map(|l| l.program.display().to_string())
    };
    assert_eq!(
        program(Some(Viewer::Okular), Place::Page(2)).as_deref(),
        Some("/bin/okular")
    );
    assert_eq!(
        program(None, Place::Page(2)).as_deref(),
        Some("/bin/evince")
    );
    // A default that does not take pages is passed over.
    assert_eq!(
        program(Some(Viewer::VsCode), Place::Page(2)).as_deref(),
        Some("/bin/evince")
    );
    assert_eq!(
        program(Some(Viewer::Okular), Place::Line(4)).as_deref(),
        Some("/bin/code")
    );
    let only_editor = [(Viewer::Gedit, PathBuf::from("/bin/gedit"))];
    assert_eq!(launch_at(&only_editor, None, pdf, Place::Page(1)), None);
    assert_eq!(launch_at(&[], None, pdf, Place::Line(1)), None);
}

#[test]
fn desktop_entries_name_their_viewer() {
    assert_eq!(
        Viewer::of_desktop_entry("org.gnome.Evince.desktop\n"),
        Some(Viewer::Evince)
    );
    assert_eq!(
        Viewer::of_desktop_entry("okularApplication_pdf.desktop"),
        None
    );
    assert_eq!(
        Viewer::of_desktop_entry("org.kde.okular.desktop"),
        Some(Viewer::Okular)
    );
    assert_eq!(
        Viewer::of_desktop_entry("code.desktop"),
        Some(Viewer::VsCode)
    );
    assert_eq!(
        Viewer::of_desktop_entry("org.pwmt.zathura-pdf-mupdf.desktop"),
        Some(Viewer::Zathura)
    );
    assert_eq!(
        Viewer::of_desktop_entry("sublime_text.desktop"),
        Some(Viewer::SublimeText)
    );
    assert_eq!(Viewer::of_desktop_entry("firefox.desktop"), None);
    assert_eq!(Viewer::of_desktop_entry(""), None);
}

#[test]
fn viewers_are_found_on_path_and_at_known_paths() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let suffix = if cfg!(windows) { ".exe" } else { "" };
    std::fs::write(bin.join(format!("okular{suffix}")), "").unwrap();
    std::fs::create_dir_all(bin.join(format!("evince{suffix}"))).unwrap(); // a folder, not a program
                                                                           // SumatraPDF at its known path under %LOCALAPPDATA% (on Unix the backslashes stay in the
                                                                           // file's name, which is still where the expanded path points).
    let local = dir.path().join("local");
    std::fs::create_dir_all(&local).unwrap();
    let env = |name: &str| (name == "LOCALAPPDATA").then(|| local.clone().into_os_string());
    let sumatra = expand(Viewer::SumatraPdf.known_paths()[0], &env).unwrap();
    std::fs::create_dir_all(sumatra.parent().unwrap()).unwrap();
    std::fs::write(&sumatra, "").unwrap();
    let path = std::env::join_paths([dir.path().join("missing"), bin.clone()]).unwrap();
    let found = find_viewers(Some(&path), env);
    let okular = (Viewer::Okular, bin.join(format!("okular{suffix}")));
    assert_eq!(found, [okular, (Viewer::SumatraPdf, sumatra)]);
}

#[test]
fn known_paths_expand_their_variables() {
    let env = |name: &str| (name == "ProgramFiles").then(|| OsString::from("C:\\PF"));
    assert_eq!(
        expand("%ProgramFiles%\\Notepad++\\notepad++.exe", &env),
        Some(PathBuf::from("C:\\PF\\Notepad++\\notepad++.exe"))
    );
    assert_eq!(expand("%LOCALAPPDATA%\\x", &env), None);
    assert_eq!(
        expand("/Applications/Skim.app", &env),
        Some(PathBuf::from("/Applications/Skim.app"))
    );
}
