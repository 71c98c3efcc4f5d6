#!/usr/bin/python3
"""Runs the peers phr's OCR is judged against over a corpus from make_scans.py and prints the
character error rate per degradation class and pages per second:

  - the tesseract CLI, one process per image file, one after the other, as a shell loop would
    (`tesseract FILE stdout`; a multi-page TIFF is one process for its pages);
  - OCRmyPDF (`ocrmypdf --jobs 2 -O0`) on every page in one PDF made by img2pdf.

    /usr/bin/python3 Tools/ScanCorpus/run_peers.py CORPUS_DIR [--json OUT] [--skip-ocrmypdf]

Neither peer reads HEIC, so the HEIC photo is converted to PNG with heif-convert first, outside
the timing (a script would have to do the same). Neither applies EXIF orientation, nor does
anything else a script would not ask for: these are the tools as people run them.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cer  # noqa: E402


def run(arguments, **kwargs):
    """Runs a command; returns (seconds, peak RSS in MB of the process itself, stdout)."""
    start = time.monotonic()
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, **kwargs)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"run_peers.py: error: {' '.join(arguments)} exited {process.returncode}")
    return seconds, usage.ru_maxrss / 1024, output.decode("utf-8", "replace")


def readable_copy(corpus, entry, scratch):
    """The path a peer can open: the file itself, or a PNG of the HEIC photo."""
    path = os.path.join(corpus, entry["file"])
    if entry["file"].endswith(".heic"):
        png = os.path.join(scratch, entry["file"] + ".png")
        subprocess.run(["heif-convert", path, png], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return png
    return path


def split_pages(text, count):
    pages = text.split("\f")
    # Tesseract and OCRmyPDF end the last page with a form feed too.
    if len(pages) == count + 1 and not pages[-1].strip():
        pages = pages[:-1]
    if len(pages) != count:
        raise SystemExit(f"run_peers.py: error: expected {count} pages of text, got {len(pages)}")
    return pages


class Tally:
    def __init__(self):
        self.classes = {}

    def add(self, cls, ocr, truth, seconds=0.0):
        errors = cer.distance(cer.normalise(ocr), cer.normalise(truth))
        row = self.classes.setdefault(cls, {"pages": 0, "errors": 0, "chars": 0, "seconds": 0.0, "worst": 0.0})
        row["pages"] += 1
        row["errors"] += errors
        row["chars"] += len(cer.normalise(truth))
        row["seconds"] += seconds
        row["worst"] = max(row["worst"], errors / max(1, len(cer.normalise(truth))))

    def summary(self):
        out = {}
        for cls, row in sorted(self.classes.items()):
            out[cls] = dict(row, cer=row["errors"] / max(1, row["chars"]))
        return out


def class_key(entry):
    """The class a page is reported under: clean pages by their DPI."""
    return f"clean-{entry['dpi']}" if entry["class"] == "clean" else entry["class"]


def tesseract_pass(corpus, manifest, scratch, omp_threads):
    environment = dict(os.environ)
    if omp_threads:
        environment["OMP_THREAD_LIMIT"] = str(omp_threads)
    tally = Tally()
    total, peak = 0.0, 0.0
    for entry in manifest["files"]:
        path = readable_copy(corpus, entry, scratch)
        seconds, rss, text = run(["tesseract", path, "stdout"], env=environment)
        total += seconds
        peak = max(peak, rss)
        pages = split_pages(text, len(entry["pages"]))
        for ocr, page in zip(pages, entry["pages"]):
            tally.add(class_key(entry), ocr, page["truth"], seconds / len(entry["pages"]))
    return tally, total, peak


def ocrmypdf_pass(corpus, manifest, scratch, jobs):
    images = [readable_copy(corpus, entry, scratch) for entry in manifest["files"]]
    pdf = os.path.join(scratch, "all.pdf")
    # Images that carry no resolution (photos say 72 DPI or nothing) are placed as 300 DPI,
    # which is what OCRmyPDF would assume for them anyway; the pixels are the same.
    subprocess.run(["img2pdf", "--imgsize", "300dpi", "-o", pdf] + images, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sidecar = os.path.join(scratch, "all.txt")
    seconds, _, _ = run(["ocrmypdf", "--jobs", str(jobs), "-O0", "--sidecar", sidecar, pdf, os.path.join(scratch, "out.pdf")])
    with open(sidecar, encoding="utf-8") as handle:
        text = handle.read()
    count = sum(len(entry["pages"]) for entry in manifest["files"])
    pages = iter(split_pages(text, count))
    tally = Tally()
    for entry in manifest["files"]:
        for page in entry["pages"]:
            tally.add(class_key(entry), next(pages), page["truth"])
    return tally, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus")
    parser.add_argument("--json")
    parser.add_argument("--skip-ocrmypdf", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--omp-threads", type=int, help="OMP_THREAD_LIMIT for the tesseract CLI (default: as the environment says)")
    args = parser.parse_args()
    with open(os.path.join(args.corpus, "manifest.json"), encoding="utf-8") as handle:
        manifest = json.load(handle)
    count = sum(len(entry["pages"]) for entry in manifest["files"])
    result = {"pages": count}
    with tempfile.TemporaryDirectory(prefix="phr-ocr-peers-") as scratch:
        tesseract, seconds, peak = tesseract_pass(args.corpus, manifest, scratch, args.omp_threads)
        result["tesseract"] = {"seconds": seconds, "pages_per_second": count / seconds, "peak_rss_mb": peak,
                               "classes": tesseract.summary()}
        if not args.skip_ocrmypdf:
            ocrmypdf, seconds = ocrmypdf_pass(args.corpus, manifest, scratch, args.jobs)
            result["ocrmypdf"] = {"seconds": seconds, "pages_per_second": count / seconds, "classes": ocrmypdf.summary()}
    print(f"{count} pages; tesseract CLI one process per file: {result['tesseract']['seconds']:.1f} s, "
          f"{result['tesseract']['pages_per_second']:.2f} pages/s, peak RSS {peak:.0f} MB")
    if "ocrmypdf" in result:
        print(f"ocrmypdf --jobs {args.jobs} -O0, one PDF: {result['ocrmypdf']['seconds']:.1f} s, "
              f"{result['ocrmypdf']['pages_per_second']:.2f} pages/s")
    print(f"{'class':<12} {'pages':>5} {'tess CER':>9} {'worst':>7} {'s/page':>7} {'ocrmypdf CER':>13} {'worst':>7}")
    for cls, row in result["tesseract"]["classes"].items():
        other = result.get("ocrmypdf", {}).get("classes", {}).get(cls)
        tail = f" {100 * other['cer']:>12.2f}% {100 * other['worst']:>6.1f}%" if other else ""
        print(f"{cls:<12} {row['pages']:>5} {100 * row['cer']:>8.2f}% {100 * row['worst']:>6.1f}% "
              f"{row['seconds'] / row['pages']:>7.2f}{tail}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=1)


if __name__ == "__main__":
    main()
