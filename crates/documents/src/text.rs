//! Plain text files decoded (byte order mark, UTF-8, else GB18030), and the tidying every
//! extracted text gets: no spaces wedged between Chinese or Japanese characters, no trailing
//! blanks.

use crate::format::Format;
use crate::DocumentError;
use encoding_rs::{Encoding, GB18030, UTF_8};
use hearth_protocol::{is_cjk, is_hangul};

/// Decodes a text file: a byte order mark wins, then UTF-8, then GB18030 (a superset of GBK).
pub(crate) fn decode(bytes: &[u8]) -> String {
    if let Some((encoding, skip)) = Encoding::for_bom(bytes) {
        return encoding
            .decode_without_bom_handling(&bytes[skip..])
            .0
            .into_owned();
    }
    let (text, malformed) = UTF_8.decode_without_bom_handling(bytes);
    if !malformed {
        return text.into_owned();
    }
    let (text, malformed) = GB18030.decode_without_bom_handling(bytes);
    if malformed {
        UTF_8.decode_without_bom_handling(bytes).0.into_owned()
    } else {
        text.into_owned()
    }
}

/// How much of a text file's start is looked at for binary content.
const SNIFFED_BYTES: usize = 8192;

/// Refuses a "text" file that is binary data: a NUL byte in its start (outside UTF-16, which
/// has a byte order mark), naming an executable when its signature says so.
pub(crate) fn refuse_binary(bytes: &[u8], format: Format) -> Result<(), DocumentError> {
    if Encoding::for_bom(bytes).is_some_and(|(encoding, _)| encoding != UTF_8) {
        return Ok(());
    }
    let head = &bytes[..bytes.len().min(SNIFFED_BYTES)];
    if !head.contains(&0) {
        return Ok(());
    }
    let what = match head {
        [0x7F, b'E', b'L', b'F', ..] => "it is a program (an ELF executable), not text",
        [b'M', b'Z', ..] => "it is a program (a Windows executable), not text",
        _ => "it is binary data, not text",
    };
    Err(DocumentError::corrupt(format.as_str(), what))
}

/// Whether `c` is written without spaces around it: CJK, except Hangul (Korean puts spaces
/// between words, so a space beside Hangul is real; beside the others it is an artefact).
fn unspaced(c: char) -> bool {
    is_cjk(c) && !is_hangul(c)
}

/// Line ends as `\n`, no trailing blanks, at most one empty line in a row, and no single
/// space between two CJK characters (PDF text runs often put one there).
pub(crate) fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0;
    for line in text.replace("\r\n", "\n").replace('\r', "\n").split('\n') {
        let line = line.trim_end();
        if line.is_empty() {
            blank_run += 1;
            if blank_run > 1 || out.is_empty() {
                continue;
            }
        } else {
            blank_run = 0;
        }
        join_cjk(line, &mut out);
        out.push('\n');
    }
    while out.ends_with("\n\n") || (out.ends_with('\n') && out.trim().is_empty()) {
        out.pop();
    }
    out
}

fn join_cjk(line: &str, out: &mut String) {
    let chars: Vec<char> = line.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let between_cjk = c == ' '
            && i > 0
            && chars.get(i + 1).is_some_and(|&next| unspaced(next))
            && unspaced(chars[i - 1]);
        if !between_cjk {
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_between_chinese_characters_go_and_others_stay() {
        assert_eq!(
            tidy("季 度 报 告 Q3 report\r\n\n\n\n下一行  "),
            "季度报告 Q3 report\n\n下一行\n"
        );
    }

    #[test]
    fn spaces_between_kana_go_and_those_between_korean_words_stay() {
        assert_eq!(tidy("こ ん に ち は 、 世 界"), "こんにちは、世界\n");
        assert_eq!(tidy("안녕 하세요 세계"), "안녕 하세요 세계\n");
    }

    #[test]
    fn gbk_text_is_decoded_when_it_is_not_utf8() {
        let (gbk, _, _) = GB18030.encode("你好，世界");
        assert_eq!(decode(&gbk), "你好，世界");
        assert_eq!(decode("héllo".as_bytes()), "héllo");
        assert_eq!(decode(b"\xEF\xBB\xBFbom"), "bom");
    }
}
