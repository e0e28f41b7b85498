//! Installing from a folder, a .zip and a .tar.gz, and refusing hostile archives (zip-slip and
//! absolute paths, a link to /etc, a bomb past the size cap, 100,000 entries) and malformed
//! skills with clear errors, leaving nothing installed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use hearth_skills::{install, Format, SkillError, MAX_BYTES};
use std::io::Write;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Everything under `root`, relative, sorted (hidden staging folders included).
fn tree(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            out.push(path.strip_prefix(root).unwrap().display().to_string());
            if path.is_dir() {
                pending.push(path);
            }
        }
    }
    out.sort();
    out
}

fn refused(result: Result<hearth_skills::Skill, SkillError>) -> String {
    match result {
        Ok(skill) => panic!("installed {}", skill.name),
        Err(error) => error.to_string(),
    }
}

#[test]
fn a_folder_installs_byte_for_byte() {
    let data = tempfile::tempdir().unwrap();
    let root = data.path().join("skills");
    let skill = install(&root, &fixture("daily-report"), None, None).unwrap();
    assert_eq!(skill.name, "daily-report");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let notes = install(&root, &fixture("release-notes"), None, None).unwrap();
        let mode = std::fs::metadata(notes.dir.join("scripts/where.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_ne!(mode & 0o111, 0, "the executable bit is kept");
    }
    assert_eq!(skill.format, Format::Ceecore);
    for file in [
        "manifest.json",
        "prompt.md",
        "tools.json",
        "templates/report.md",
    ] {
        assert_eq!(
            std::fs::read(root.join("daily-report").join(file)).unwrap(),
            std::fs::read(fixture("daily-report").join(file)).unwrap(),
            "{file}"
        );
    }
    let again = refused(install(&root, &fixture("daily-report"), None, None));
    assert!(again.contains("already installed"), "{again}");
    assert!(
        tree(&root).iter().all(|p| !p.starts_with('.')),
        "{:?}",
        tree(&root)
    );
}

fn zip_with(path: &Path, entries: &[(&str, &[u8])]) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for (name, bytes) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
}

#[test]
fn a_zip_and_a_tar_gz_install_with_their_wrapping_folder() {
    let data = tempfile::tempdir().unwrap();
    let root = data.path().join("skills");
    let skill_md = std::fs::read(fixture("release-notes/SKILL.md")).unwrap();
    let script = std::fs::read(fixture("release-notes/scripts/where.sh")).unwrap();
    let archive = data.path().join("download.zip");
    zip_with(
        &archive,
        &[
            ("release-notes/SKILL.md", &skill_md),
            ("release-notes/scripts/where.sh", &script),
        ],
    );
    let skill = install(&root, &archive, None, None).unwrap();
    assert_eq!(skill.name, "release-notes");
    assert_eq!(
        std::fs::read(root.join("release-notes/scripts/where.sh")).unwrap(),
        script
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let folder = install(&root, &fixture("release-notes"), Some("copied"), None);
        assert!(folder.is_err(), "the name must match SKILL.md");
        let mode = std::fs::metadata(root.join("release-notes/scripts/where.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0, "the zip entry had no mode");
    }

    let tarball = data.path().join("pico-weather.tar.gz");
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        std::fs::File::create(&tarball).unwrap(),
        flate2::Compression::default(),
    ));
    tar.append_path_with_name(fixture("pico-weather/SKILL.md"), "SKILL.md")
        .unwrap();
    tar.into_inner().unwrap().finish().unwrap();
    let skill = install(&root, &tarball, None, None).unwrap();
    assert_eq!(skill.name, "pico-weather", "named after the archive");
}

#[test]
fn hostile_archives_are_refused_and_leave_nothing() {
    let data = tempfile::tempdir().unwrap();
    let root = data.path().join("skills");
    let good = b"---\nname: evil\ndescription: d\n---\n";

    let slip = data.path().join("evil.zip");
    zip_with(&slip, &[("SKILL.md", good), ("../../escaped.txt", b"x")]);
    let message = refused(install(&root, &slip, None, None));
    assert_eq!(
        message,
        "the archive entry `../../escaped.txt` leads outside the skill folder"
    );
    assert!(!data.path().join("escaped.txt").exists());

    let absolute = data.path().join("abs.zip");
    zip_with(
        &absolute,
        &[("SKILL.md", good), ("/tmp/hearth-abs.txt", b"x")],
    );
    assert!(refused(install(&root, &absolute, Some("evil"), None)).contains("leads outside"));

    let link = data.path().join("evil.tar.gz");
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        std::fs::File::create(&link).unwrap(),
        flate2::Compression::default(),
    ));
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(tar::EntryType::Symlink);
    header.set_size(0);
    tar.append_link(&mut header, "etc", "/etc").unwrap();
    tar.into_inner().unwrap().finish().unwrap();
    let message = refused(install(&root, &link, None, None));
    assert_eq!(
        message,
        "the archive entry `etc` is a link; skills are installed without links"
    );

    // A bomb: one entry of zeros past the size cap (it compresses to a few hundred KiB).
    let bomb = data.path().join("bomb.zip");
    {
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&bomb).unwrap());
        zip.start_file("SKILL.md", zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(good).unwrap();
        zip.start_file(
            "zeros.bin",
            zip::write::SimpleFileOptions::default().large_file(true),
        )
        .unwrap();
        let chunk = vec![0u8; 1024 * 1024];
        for _ in 0..(MAX_BYTES / chunk.len() as u64 + 1) {
            zip.write_all(&chunk).unwrap();
        }
        zip.finish().unwrap();
    }
    assert!(std::fs::metadata(&bomb).unwrap().len() < 5 * 1024 * 1024);
    let message = refused(install(&root, &bomb, Some("evil"), None));
    assert_eq!(message, "the skill's files hold more than 256 MiB");

    let many = data.path().join("many.zip");
    {
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&many).unwrap());
        for i in 0..100_000 {
            zip.start_file(format!("f{i}"), zip::write::SimpleFileOptions::default())
                .unwrap();
        }
        zip.finish().unwrap();
    }
    let message = refused(install(&root, &many, Some("evil"), None));
    assert_eq!(message, "the archive has 100000 entries, more than 10000");

    assert_eq!(tree(&root), Vec::<String>::new(), "nothing left behind");
}

#[test]
fn malformed_skills_are_refused_before_anything_lands() {
    let data = tempfile::tempdir().unwrap();
    let root = data.path().join("skills");
    let cases: [(&str, &str, &str, &str); 4] = [
        (
            "Bad_Name",
            "SKILL.md",
            "---\nname: Bad_Name\ndescription: d\n---\n",
            "SKILL.md, field `name`",
        ),
        (
            "no-desc",
            "SKILL.md",
            "---\nname: no-desc\n---\n",
            "SKILL.md, field `description`: is missing",
        ),
        (
            "perm",
            "manifest.json",
            r#"{"name":"perm","description":"d","permissions":["camera"]}"#,
            "manifest.json, field `permissions`",
        ),
        (
            "yaml",
            "SKILL.md",
            "---\nname: [x\n---\n",
            "SKILL.md: the front matter is not valid YAML",
        ),
    ];
    for (folder, file, text, expected) in cases {
        let source = data.path().join("src").join(folder);
        std::fs::create_dir_all(&source).unwrap();
        std::fs::write(source.join(file), text).unwrap();
        std::fs::write(source.join("prompt.md"), "p").unwrap();
        let message = refused(install(&root, &source, None, None));
        assert!(message.starts_with(expected), "{folder}: {message}");
    }
    #[cfg(unix)]
    {
        let source = data.path().join("src/linked");
        std::fs::create_dir_all(&source).unwrap();
        std::fs::write(
            source.join("SKILL.md"),
            "---\nname: linked\ndescription: d\n---\n",
        )
        .unwrap();
        std::os::unix::fs::symlink("/etc", source.join("etc")).unwrap();
        assert!(refused(install(&root, &source, None, None)).contains("symbolic link"));
    }
    assert_eq!(tree(&root), Vec::<String>::new(), "nothing left behind");
}
