#!/usr/bin/env python3
"""Real PDFs read by `hearth-cli documents read` against Debian's `pdftotext`, side by side.

Every file comes from an installed Debian package (nothing is downloaded): manuals written by
pdfTeX, dblatex, Apache FOP, LibreOffice, cairo and Acrobat Distiller, a chapter of a packaged
HTML manual printed to PDF by Chromium, pages of a packaged manual rendered to images and
OCR'd by Tesseract (a scanned PDF with a text layer), and the fpdf2 English + Chinese file of
the crate's benchmark. For each file: median wall time of each reader (hyperfine), peak RSS
(GNU time; Hearth's is its largest process, the parse worker), and how many of pdftotext's
words Hearth gives (found) and in the same order (in order), page by page. Then one page of
the longest file on its own.

Usage: python3 scripts/perf/pdf_corpus.py [--cli target/release/hearth-cli] [--runs 5]
Needs: apt-get install hyperfine time poppler-utils tesseract-ocr tesseract-ocr-eng chromium
       gnuplot-doc r-doc-pdf developers-reference debian-reference-en xorg-docs
       fonts-sil-padauk fonts-sil-abyssinica fonts-sil-charis
and scripts/setup.sh (the fpdf2 venv in target/doc-fixtures).
"""

import argparse, collections, difflib, glob, gzip, json, os, re, shutil, subprocess, sys, unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORK = os.path.join(ROOT, "target", "pdf-corpus")

# (file name, Debian package, packaged path (gzipped when it ends in .gz), producer)
PACKAGED = [
    ("gnuplot.pdf", "gnuplot-doc", "/usr/share/doc/gnuplot/gnuplot.pdf", "pdfTeX (LaTeX)"),
    ("R-intro.pdf", "r-doc-pdf", "/usr/share/R/doc/manual/R-intro.pdf", "pdfTeX (Texinfo)"),
    ("R-exts.pdf", "r-doc-pdf", "/usr/share/R/doc/manual/R-exts.pdf", "pdfTeX (Texinfo)"),
    ("developers-reference.pdf", "developers-reference",
     "/usr/share/developers-reference/developers-reference.pdf", "pdfTeX (Sphinx)"),
    ("debian-reference.en.pdf", "debian-reference-en",
     "/usr/share/debian-reference/debian-reference.en.pdf", "dblatex + xdvipdfmx"),
    ("icccm.pdf", "xorg-docs", "/usr/share/doc/xorg-docs/icccm/icccm.pdf.gz", "Apache FOP 2.5"),
    ("xlfd.pdf", "xorg-docs", "/usr/share/doc/xorg-docs/xlfd/xlfd.pdf.gz", "Apache FOP 2.5"),
    ("Padauk-features.pdf", "fonts-sil-padauk",
     "/usr/share/doc/fonts-sil-padauk/documentation/Padauk-features.pdf.gz", "LibreOffice 7.1 Writer"),
    ("AbyssinicaSILFontFeatures.pdf", "fonts-sil-abyssinica",
     "/usr/share/doc/fonts-sil-abyssinica/documentation/AbyssinicaSILFontFeatures.pdf.gz",
     "LibreOffice 7.1 Writer"),
    ("AbyssinicaSILTypeSample.pdf", "fonts-sil-abyssinica",
     "/usr/share/doc/fonts-sil-abyssinica/documentation/AbyssinicaSILTypeSample.pdf.gz",
     "Acrobat Distiller 21 (Windows PScript5)"),
    ("charis-features.pdf", "fonts-sil-charis",
     "/usr/share/doc/fonts-sil-charis/documentation/pdf/features.pdf.gz", "cairo 1.16"),
]
CHROMIUM_SOURCE = ("debian-reference-en", "/usr/share/debian-reference/ch02.en.html")
SCAN_SOURCE = ("r-doc-pdf", "/usr/share/R/doc/manual/R-intro.pdf", 10, 12)
FPDF2_PAGES = 200
# One page read on its own: of the longest file, and its number.
ONE_PAGE = ("gnuplot.pdf", 100)

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
WORD = re.compile(rf"[{CJK}]|[^\W{CJK}]+")
MARKER = re.compile(r"^--- page (\d+) ---$", re.M)


def run(command, **kwargs):
    try:
        return subprocess.run(command, check=True, **kwargs)
    except subprocess.CalledProcessError as failed:
        sys.exit(f"pdf_corpus: {' '.join(command)} failed ({failed.returncode}): {failed.stderr}")


def need(tool, package):
    if shutil.which(tool) is None:
        sys.exit(f"pdf_corpus: `{tool}` is missing: apt-get install {package}")


def installed(package):
    return subprocess.run(["dpkg", "-s", package], capture_output=True).returncode == 0


def prepare():
    """Copies (or unpacks, or makes) every file into WORK; returns [(path, package, producer)]."""
    os.makedirs(WORK, exist_ok=True)
    corpus, missing = [], set()
    for name, package, source, producer in PACKAGED:
        if not installed(package) or not os.path.exists(source):
            missing.add(package)
            continue
        target = os.path.join(WORK, name)
        if not os.path.exists(target):
            opener = gzip.open if source.endswith(".gz") else open
            with opener(source, "rb") as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
        corpus.append((target, package, producer))
    corpus += made("chromium-print.pdf", CHROMIUM_SOURCE[0], "Chromium print (Skia/PDF)", chromium_print, missing)
    corpus += made("tesseract-scan.pdf", SCAN_SOURCE[0], "Tesseract 5.3 OCR of page images", ocr_scan, missing)
    corpus += made("fpdf2-en-zh.pdf", "(scripts/setup.sh)", "fpdf2 (English + Chinese)", fpdf2, missing)
    if missing:
        print(f"skipped, not installed: {' '.join(sorted(missing))}", file=sys.stderr)
    return corpus


def made(name, package, producer, make, missing):
    target = os.path.join(WORK, name)
    if not os.path.exists(target):
        try:
            make(target)
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"{name}: not made ({error})", file=sys.stderr)
            missing.add(package)
            return []
    return [(target, package, producer)]


def chromium_print(target):
    need("chromium", "chromium")
    run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
         f"--print-to-pdf={target}", "file://" + CHROMIUM_SOURCE[1]], capture_output=True)


def ocr_scan(target):
    need("tesseract", "tesseract-ocr tesseract-ocr-eng")
    _, source, first, last = SCAN_SOURCE
    images = os.path.join(WORK, "scan")
    run(["pdftoppm", "-r", "200", "-gray", "-png", "-f", str(first), "-l", str(last), source, images])
    pngs = sorted(glob.glob(images + "-*.png"))
    listing = images + ".txt"
    with open(listing, "w") as f:
        f.write("\n".join(pngs) + "\n")
    run(["tesseract", listing, target[: -len(".pdf")], "-l", "eng", "pdf"], capture_output=True)


def fpdf2(target):
    python = os.path.join(ROOT, "target", "doc-fixtures", "bin", "python")
    out = os.path.join(WORK, "fpdf2")
    run([python, os.path.join(ROOT, "crates", "documents", "tests", "fixtures", "make.py"), out,
         "--pages", str(FPDF2_PAGES)], capture_output=True)
    shutil.move(os.path.join(out, "long.pdf"), target)


def hyperfine(commands, runs):
    """Median seconds of each command, run side by side."""
    report = os.path.join(WORK, "hyperfine.json")
    run(["hyperfine", "-N", "--warmup", "1", "--runs", str(runs), "--export-json", report, *commands],
        capture_output=True)
    with open(report) as f:
        return [result["median"] for result in json.load(f)["results"]]


def peak_rss_kb(command):
    """The largest resident set of the command and of each process it waited for (GNU time)."""
    out = run(["/usr/bin/time", "-f", "%M", *command], capture_output=True, text=True)
    return int(out.stderr.strip().splitlines()[-1])


def words(text):
    return WORD.findall(unicodedata.normalize("NFKC", text).lower())


def hearth_pages(text):
    parts = MARKER.split(text)
    return {int(number): page for number, page in zip(parts[1::2], parts[2::2])}


def agreement(hearth_text, poppler_text):
    """(found, in order): shares of pdftotext's words that Hearth gives on the same page, and
    that it gives in the same order (the longest common subsequence found by difflib)."""
    ours = hearth_pages(hearth_text)
    total = found = ordered = 0
    for number, page in enumerate(poppler_text.split("\f"), start=1):
        theirs, mine = words(page), words(ours.get(number, ""))
        total += len(theirs)
        found += sum((collections.Counter(theirs) & collections.Counter(mine)).values())
        matcher = difflib.SequenceMatcher(None, theirs, mine, autojunk=False)
        ordered += sum(block.size for block in matcher.get_matching_blocks())
    return (found / total, ordered / total) if total else (1.0, 1.0)


def pages_of(path):
    info = run(["pdfinfo", path], capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=os.path.join(ROOT, "target", "release", "hearth-cli"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for tool, package in [("hyperfine", "hyperfine"), ("pdftotext", "poppler-utils")]:
        need(tool, package)
    if not os.path.exists("/usr/bin/time"):
        sys.exit("pdf_corpus: /usr/bin/time is missing: apt-get install time")
    if not os.access(args.cli, os.X_OK):
        sys.exit(f"pdf_corpus: {args.cli} is missing (cargo build --release -p hearth-cli)")
    corpus = prepare()
    print(f"load average before: {open('/proc/loadavg').read().split()[0]}", file=sys.stderr)
    print("| file | package | producer | pages | Hearth | pdftotext | time ratio | RSS ratio | words found | in order |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    ratios, rss_ratios = [], []
    for path, package, producer in corpus:
        hearth = [args.cli, "documents", "read", path]
        poppler = ["pdftotext", path, "-"]
        ours, theirs = hyperfine([" ".join(hearth), " ".join(poppler)], args.runs)
        rss = peak_rss_kb(hearth) / peak_rss_kb(poppler)
        hearth_text = run(hearth, capture_output=True, text=True).stdout
        poppler_text = run(poppler, capture_output=True, text=True).stdout
        found, ordered = agreement(hearth_text, poppler_text)
        ratios.append(ours / theirs)
        rss_ratios.append(rss)
        print(f"| {os.path.basename(path)} | {package} | {producer} | {pages_of(path)} | {ours * 1000:.0f} ms "
              f"| {theirs * 1000:.0f} ms | {ours / theirs:.2f}× | {rss:.2f}× | {found:.1%} | {ordered:.1%} |",
              flush=True)
    ratios.sort()
    print(f"\nmedian time ratio {ratios[len(ratios) // 2]:.2f}× (worst {ratios[-1]:.2f}×), "
          f"worst RSS ratio {max(rss_ratios):.2f}×")
    name, page = ONE_PAGE
    path = os.path.join(WORK, name)
    if os.path.exists(path):
        ours, theirs = hyperfine([f"{args.cli} documents read --unit {page} {path}",
                                  f"pdftotext -f {page} -l {page} {path} -"], args.runs)
        print(f"one page ({name} page {page} of {pages_of(path)}): Hearth {ours * 1000:.0f} ms, "
              f"pdftotext {theirs * 1000:.0f} ms")
    print(f"load average after: {open('/proc/loadavg').read().split()[0]}", file=sys.stderr)


if __name__ == "__main__":
    main()
