//! Hostile PDFs, written here: nesting deep enough to overflow the parser's stack, a file cut
//! in half, and a page whose content is a decompression bomb. Each must be a clear error.

use flate2::write::ZlibEncoder;
use flate2::Compression;
use hearth_documents::{parse, DocumentError, Limits};
use std::io::Write;

/// A PDF of `objects` (numbered from 1; object 1 is the catalog) with a correct xref table.
fn pdf(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (index, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", index + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

fn stream(dictionary: &str, data: &[u8]) -> Vec<u8> {
    let mut body = format!("<< {dictionary} /Length {} >>\nstream\n", data.len()).into_bytes();
    body.extend_from_slice(data);
    body.extend_from_slice(b"\nendstream");
    body
}

/// A PDF whose pages have these content streams (already encoded, with their filter).
fn with_pages(contents: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let count = contents.len();
    let kids: Vec<String> = (0..count).map(|i| format!("{} 0 R", 4 + 2 * i)).collect();
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!(
            "<< /Type /Pages /Kids [{}] /Count {count} >>",
            kids.join(" ")
        )
        .into_bytes(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ];
    for (i, (filter, data)) in contents.iter().enumerate() {
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
                 /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
                5 + 2 * i
            )
            .into_bytes(),
        );
        objects.push(stream(filter, data));
    }
    pdf(&objects)
}

fn page_text(number: usize) -> Vec<u8> {
    format!("BT /F1 12 Tf 72 700 Td (Page {number} says hello to the reader) Tj ET").into_bytes()
}

fn read(bytes: &[u8]) -> Result<Vec<String>, DocumentError> {
    parse(bytes, "hostile.pdf", &Limits::default())
        .map(|doc| doc.units.into_iter().map(|unit| unit.text).collect())
}

#[test]
fn the_written_pdf_reads_so_the_hostile_ones_test_the_reader() {
    let pages: Vec<(&str, Vec<u8>)> = (1..=4).map(|n| ("", page_text(n))).collect();
    let text = read(&with_pages(&pages)).unwrap();
    assert_eq!(text.len(), 4);
    assert!(text[2].contains("Page 3 says hello"), "{text:?}");
}

#[test]
fn five_thousand_nested_arrays_are_refused_not_a_stack_overflow() {
    let deep = format!("[{}{}]", "[".repeat(5_000), "]".repeat(5_000));
    let bytes = pdf(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids [] /Count 0 /Deep {deep} >>").into_bytes(),
    ]);
    assert!(bytes.len() < 12_000);
    match read(&bytes) {
        Err(DocumentError::Corrupt {
            format: "pdf",
            reason,
        }) => {
            assert!(reason.contains("nest more than 64 levels"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // Nesting inside strings and stream data is no nesting.
    let pages = [(
        "",
        format!("BT /F1 12 Tf 72 700 Td ({}) Tj ET", "[".repeat(500)).into_bytes(),
    )];
    assert!(read(&with_pages(&pages)).unwrap()[0].contains("[[[["));
}

#[test]
fn a_pdf_cut_in_half_says_it_is_cut_short() {
    let pages: Vec<(&str, Vec<u8>)> = (1..=6).map(|n| ("", page_text(n))).collect();
    let whole = with_pages(&pages);
    match read(&whole[..whole.len() / 2]) {
        Err(DocumentError::Corrupt {
            format: "pdf",
            reason,
        }) => {
            assert!(reason.contains("cut short"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_decompression_bomb_is_called_one_not_a_scanned_page() {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::best());
    let zeros = vec![0u8; 1024 * 1024];
    for _ in 0..40 {
        encoder.write_all(&zeros).unwrap();
    }
    let bomb = encoder.finish().unwrap();
    let bytes = with_pages(&[("/Filter /FlateDecode", bomb)]);
    assert!(bytes.len() < 200_000);
    match read(&bytes) {
        Err(DocumentError::ZipBomb {
            format: "pdf",
            unpacked,
            limit,
        }) => {
            assert!(unpacked > limit, "{unpacked} <= {limit}");
            assert!(limit < 40 * 1024 * 1024, "{limit}");
        }
        other => panic!("{other:?}"),
    }
}
