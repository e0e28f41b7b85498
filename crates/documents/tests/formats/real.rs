//! Manuals from Debian packages, written by pdfTeX (Texinfo and LaTeX) and Apache FOP: each
//! page gives the words `pdftotext` gives, in the same order but for table rows that poppler
//! reads column by column. The tests fail, never skip, when a package is missing.

use flate2::read::GzDecoder;
use std::io::Read;

/// (package, path; gzipped when it ends in `.gz`)
const MANUALS: [(&str, &str); 3] = [
    ("libtasn1-doc", "/usr/share/doc/libtasn1-doc/libtasn1.pdf"),
    (
        "shared-mime-info",
        "/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf",
    ),
    ("xorg-docs", "/usr/share/doc/xorg-docs/icccm/icccm.pdf.gz"),
];

fn bytes_of(package: &str, path: &str) -> Vec<u8> {
    let raw =
        std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e} (apt-get install {package})"));
    if !path.ends_with(".gz") {
        return raw;
    }
    let mut pdf = Vec::new();
    GzDecoder::new(raw.as_slice())
        .read_to_end(&mut pdf)
        .unwrap();
    pdf
}

/// Lower-case words, the typographic ligatures spelled out.
fn words(text: &str) -> Vec<String> {
    let spelled = text
        .replace('\u{FB00}', "ff")
        .replace('\u{FB01}', "fi")
        .replace('\u{FB02}', "fl")
        .replace('\u{FB03}', "ffi")
        .replace('\u{FB04}', "ffl");
    spelled
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// How many words `a` and `b` share in the same order (their longest common subsequence).
fn in_order(a: &[String], b: &[String]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// How many of `theirs` are in `ours`, counting repeats.
fn found(theirs: &[String], ours: &[String]) -> usize {
    let mut left: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for w in ours {
        *left.entry(w).or_default() += 1;
    }
    theirs
        .iter()
        .filter(|w| {
            left.get_mut(w.as_str())
                .filter(|n| **n > 0)
                .map(|n| *n -= 1)
                .is_some()
        })
        .count()
}

#[test]
fn real_manuals_give_pdftotexts_words_in_its_order() {
    for (package, path) in MANUALS {
        let bytes = bytes_of(package, path);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("manual.pdf");
        std::fs::write(&file, &bytes).unwrap();
        let poppler = std::process::Command::new("pdftotext")
            .arg(&file)
            .arg("-")
            .output()
            .expect("pdftotext (apt-get install poppler-utils)");
        let theirs = String::from_utf8_lossy(&poppler.stdout).into_owned();
        let doc = super::parse(&bytes, "manual.pdf", &super::Limits::default()).unwrap();
        let (mut total, mut same, mut ordered) = (0, 0, 0);
        for (page, unit) in theirs.split('\u{c}').zip(&doc.units) {
            let (theirs, ours) = (words(page), words(&unit.text));
            total += theirs.len();
            same += found(&theirs, &ours);
            ordered += in_order(&theirs, &ours);
        }
        let share = |n: usize| n as f64 / total as f64;
        assert!(total > 1000, "{path}: pdftotext gave {total} words");
        assert!(
            share(same) >= 0.998,
            "{path}: {:.2}% found",
            share(same) * 100.0
        );
        assert!(
            share(ordered) >= 0.98,
            "{path}: {:.2}% in order",
            share(ordered) * 100.0
        );
    }
}
