//! Installing from a folder, a .zip and a .tar.gz, and refusing hostile archives (zip-slip and
//! absolute paths, a link to /etc, a 2 GiB zip bomb, 100,000 entries) and malformed
//! skills with clear errors, leaving nothing installed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use hearth_skills::{install, Format, SkillError};
use std::io::{Read, Write};
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

/// Bits packed least significant first, as deflate reads them.
#[derive(Default)]
struct Bits {
    bytes: Vec<u8>,
    acc: u64,
    count: u32,
}

impl Bits {
    /// `count` bits of `value`, low bit first.
    fn put(&mut self, value: u64, count: u32) {
        self.acc |= value << self.count;
        self.count += count;
        while self.count >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.count -= 8;
        }
    }

    /// A Huffman code: its bits most significant first.
    fn code(&mut self, code: u64, count: u32) {
        let reversed = (0..count).fold(0, |r, i| r | ((code >> i) & 1) << (count - 1 - i));
        self.put(reversed, count);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.count > 0 {
            self.bytes.push(self.acc as u8);
        }
        self.bytes
    }
}

/// A raw deflate stream of `size` zero bytes in one fixed-Huffman block: a literal 0, then
/// copies of 258 bytes at distance 1 (13 bits each).
fn deflated_zeros(size: u64) -> Vec<u8> {
    let mut bits = Bits::default();
    bits.put(1, 1); // the final block
    bits.put(1, 2); // fixed Huffman codes
    bits.code(0b0011_0000, 8); // literal 0
    let mut left = size - 1;
    while left > 0 {
        let length = left.min(258);
        // Lengths 258 (code 285) and 3..=10 (codes 257..=264) have no extra bits; others never
        // occur here but the remainder, which is below 258.
        let symbol = match length {
            258 => 285,
            3..=10 => 254 + length,
            _ => panic!("remainder {length} needs extra bits"),
        };
        if symbol < 280 {
            bits.code(symbol - 256, 7);
        } else {
            bits.code(0b1100_0000 + symbol - 280, 8);
        }
        bits.code(0, 5); // distance 1
        left -= length;
    }
    bits.code(0, 7); // end of block
    bits.finish()
}

/// A zip holding `SKILL.md` (stored) and `zeros.bin`, `size` zero bytes deflated. Its CRC is not
/// that of the zeros: nothing reads it to the end.
fn zip_bomb(path: &Path, skill_md: &[u8], size: u64) {
    let deflated = deflated_zeros(size);
    let entries: [(&str, u16, &[u8], u32, u32); 2] = [
        (
            "SKILL.md",
            0,
            skill_md,
            crc32(skill_md),
            skill_md.len() as u32,
        ),
        ("zeros.bin", 8, &deflated, 0, u32::try_from(size).unwrap()),
    ];
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, method, data, crc, unpacked) in entries {
        let offset = out.len() as u32;
        let common = |buf: &mut Vec<u8>| {
            buf.extend_from_slice(&20u16.to_le_bytes()); // version needed
            buf.extend_from_slice(&0u16.to_le_bytes()); // flags
            buf.extend_from_slice(&method.to_le_bytes());
            buf.extend_from_slice(&[0; 4]); // time, date
            buf.extend_from_slice(&crc.to_le_bytes());
            buf.extend_from_slice(&(data.len() as u32).to_le_bytes());
            buf.extend_from_slice(&unpacked.to_le_bytes());
            buf.extend_from_slice(&(name.len() as u16).to_le_bytes());
            buf.extend_from_slice(&0u16.to_le_bytes()); // extra length
        };
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        common(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes()); // version made by
        common(&mut central);
        central.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let central_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]); // disk numbers
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&central_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // comment length
    std::fs::write(path, out).unwrap();
}

/// CRC-32 (IEEE), bit by bit: only for the few bytes of `SKILL.md`.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in data {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
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

    // The bomb's stream inflates to exactly the zeros it claims.
    let mut inflated = Vec::new();
    flate2::read::DeflateDecoder::new(&deflated_zeros(99_854)[..])
        .read_to_end(&mut inflated)
        .unwrap();
    assert_eq!(inflated, vec![0u8; 99_854]);
    // A 2 GiB zip bomb (13 MiB on disk): refused once the cap is reached, long before its end.
    let bomb = data.path().join("bomb.zip");
    zip_bomb(&bomb, good, 2 << 30);
    assert!(std::fs::metadata(&bomb).unwrap().len() < 16 * 1024 * 1024);
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

/// A `.tar.gz` at `path` holding `SKILL.md` (of skill `evil`) and then `entries` (path, folder?).
fn tar_gz_with(path: &Path, entries: impl Iterator<Item = (String, bool)>) {
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        std::fs::File::create(path).unwrap(),
        flate2::Compression::default(),
    ));
    let good = b"---\nname: evil\ndescription: d\n---\n";
    let mut header = tar::Header::new_gnu();
    header.set_size(good.len() as u64);
    header.set_mode(0o644);
    tar.append_data(&mut header, "SKILL.md", &good[..]).unwrap();
    for (name, folder) in entries {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(if folder {
            tar::EntryType::Directory
        } else {
            tar::EntryType::Regular
        });
        header.set_size(0);
        header.set_mode(0o755);
        tar.append_data(&mut header, name, std::io::empty())
            .unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap();
}

#[test]
fn folders_count_toward_the_entry_cap() {
    let data = tempfile::tempdir().unwrap();
    let root = data.path().join("skills");
    let archive = data.path().join("folders.tar.gz");
    tar_gz_with(&archive, (0..200_000).map(|i| (format!("d{i}/"), true)));
    assert!(std::fs::metadata(&archive).unwrap().len() < 2 * 1024 * 1024);
    let message = refused(install(&root, &archive, None, None));
    assert_eq!(message, "the skill has more than 10000 files and folders");
    assert_eq!(tree(&root), Vec::<String>::new(), "nothing left behind");

    // Under the cap, folders install (and count with the files).
    let some = data.path().join("evil.tar.gz");
    tar_gz_with(&some, (0..50).map(|i| (format!("d{i}/"), true)));
    let skill = install(&root, &some, None, None).unwrap();
    assert!(skill.dir.join("d49").is_dir());
}

#[test]
fn a_failure_to_write_an_entry_is_short_and_names_the_entry() {
    let data = tempfile::tempdir().unwrap();
    let root = data.path().join("skills");
    // 24 folders of 250 characters: 6,000 characters, past what a path may hold.
    let long: String = (0..24)
        .map(|i| format!("{}/", char::from(b'a' + i).to_string().repeat(250)))
        .collect();
    let archive = data.path().join("evil.tar.gz");
    tar_gz_with(
        &archive,
        std::iter::once((format!("{long}file.txt"), false)),
    );
    let message = refused(install(&root, &archive, None, None));
    assert!(message.len() < 300, "{} bytes: {message}", message.len());
    assert!(message.starts_with("cannot unpack `aaaa"), "{message}");
    assert!(message.contains("…"), "{message}");
    assert!(
        message.ends_with("file.txt`: File name too long (os error 36)"),
        "{message}"
    );
    assert!(!message.contains(".install-"), "no staging path: {message}");
    assert_eq!(tree(&root), Vec::<String>::new(), "nothing left behind");
}
