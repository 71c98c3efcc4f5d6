#!/usr/bin/python3
"""Writes phr's OCR accuracy corpus: page images whose text is known, degraded as real scans and
phone photos are, and a manifest.json saying what each file holds.

    /usr/bin/python3 Tools/ScanCorpus/make_scans.py OUTDIR [--set full|bench|test] [--seed N]

Needs Debian's python3-pil, fonts-dejavu-core, fonts-noto-core and (for the HEIC photo) heif-enc
from libheif-examples; the Makefile's TEST_PACKAGES installs them. Deterministic: the same seed
and set give the same pages, truths and manifest (the HEIC file is encoded by x265, whose bytes
are stable for a given libheif version). See docs/development.md ("The OCR accuracy corpus") for the classes and the manifest.

The pages are drawn here, from documents.py, rather than rasterised from the Samples' PDFs, so
that the ground truth is exactly the text drawn, line by line in reading order.
"""
import argparse
import io
import json
import math
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import zlib

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from documents import PAGES  # noqa: E402

MANIFEST_VERSION = 1
PAGE_INCHES = (8.5, 11.0)
MARGIN_INCHES = 1.0
TOP_INCHES = 0.8
PAPER = 248   # a scanner's white
INK = 28      # toner black

DOCUMENTS = list(PAGES)  # referral-letter, prescription, discharge-note, lab-table, small-print, stamp-header, two-columns

# Degradation classes, each applied to three documents of the full set (the documents rotate
# through the classes so that every layout meets several degradations). The DPI is what the
# page is scanned at; photos have no DPI of their own.
DEGRADED = ["skew", "rot90", "rot180", "rot270", "jpeg50", "noise", "blur", "lighting", "photo"]


def item(doc, cls, dpi):
    return {"document": doc, "class": cls, "dpi": dpi}


def plan(set_name):
    """The (document, class, dpi) of every file of a set."""
    items = []
    if set_name in ("full", "bench"):
        for doc in DOCUMENTS:
            items.append(item(doc, "clean", 300))
            items.append(item(doc, "clean", 200))
        for k, cls in enumerate(DEGRADED):
            for j in range(3 if set_name == "full" else 2):
                doc = DOCUMENTS[(3 * k + j) % len(DOCUMENTS)]
                dpi = None if cls == "photo" else (200 if j == 1 else 300)
                items.append(item(doc, cls, dpi))
        items.append(item("prescription", "exif-jpeg", None))
        items.append(item("referral-letter", "heic", None))
        items.append(item("two-columns", "webp", 200))
        items.append({"document": ["referral-letter", "prescription", "discharge-note"], "class": "fax-tiff", "dpi": 200})
    elif set_name == "test":
        # What Tests/PHRCLITests/OCRAccuracyTests.swift needs, small enough for a test run:
        # every rotation, a table, the photos, and "Thornbury" on one page only (the referral
        # letter). The lab table photographed is in the bench set, not here: the tesseract CLI
        # misreads it badly (42% as HEIC), a target for phr rather than a test fixture.
        items += [
            item("referral-letter", "clean", 300),
            item("lab-table", "clean", 300),
            item("discharge-note", "clean", 200),
            item("small-print", "skew", 300),
            item("prescription", "rot90", 300),
            item("stamp-header", "rot180", 300),
            item("two-columns", "rot270", 200),
            item("prescription", "noise", 300),
            item("stamp-header", "lighting", 300),
            item("lab-table", "jpeg50", 200),
            item("prescription", "exif-jpeg", None),
            item("discharge-note", "heic", None),
        ]
    else:
        raise SystemExit(f"make_scans.py: error: unknown set {set_name!r}\nmake_scans.py: hint: use full, bench or test")
    return items


# MARK: Drawing a page


class Fonts:
    def __init__(self, files, size_pt, dpi):
        self.px = lambda pt: max(1, round(pt * dpi / 72))
        regular, bold = files
        self.body = ImageFont.truetype(regular, self.px(size_pt))
        self.bold = ImageFont.truetype(bold, self.px(size_pt + 1))
        self.title = ImageFont.truetype(bold, self.px(size_pt + 7))
        self.size_pt = size_pt
        self.regular_file, self.bold_file = regular, bold


def wrap(text, font, width):
    lines, line = [], ""
    for word in text.split():
        candidate = word if not line else line + " " + word
        if font.getlength(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


class Layout:
    """Draws blocks top to bottom into a column; collects the truth lines in reading order."""

    def __init__(self, draw, fonts, dpi, x, width, y):
        self.draw, self.fonts, self.dpi = draw, fonts, dpi
        self.x, self.width, self.y = x, width, y
        self.truth = []
        self.stamps = []

    def line(self, text, font):
        self.draw.text((self.x, self.y), text, font=font, fill=INK)
        self.truth.append(text)
        self.y += round(font.size * 1.32)

    def gap(self, points):
        self.y += self.fonts.px(points)

    def blocks(self, blocks):
        for block in blocks:
            kind = block[0]
            if kind == "title":
                self.line(block[1], self.fonts.title)
            elif kind == "heading":
                self.gap(3)
                self.line(block[1], self.fonts.bold)
                self.gap(2)
            elif kind == "lines":
                for text in block[1]:
                    self.line(text, self.fonts.body)
            elif kind == "para":
                for text in wrap(block[1], self.fonts.body, self.width):
                    self.line(text, self.fonts.body)
                self.gap(self.fonts.size_pt * 0.6)
            elif kind == "space":
                self.gap(block[1])
            elif kind == "table":
                self.table(block[1], block[2])
            elif kind == "columns":
                self.columns(block[1], block[2])
            elif kind == "stamp":
                self.stamps.append(block[1])
            else:
                raise ValueError(kind)

    def table(self, header, rows):
        px = self.fonts.px
        fractions = [0.36, 0.14, 0.08, 0.24, 0.18]
        lefts = [self.x]
        for f in fractions[:-1]:
            lefts.append(lefts[-1] + round(self.width * f))
        right = self.x + self.width
        row_height = round(self.fonts.body.size * 1.9)
        rule = max(1, px(0.75))
        top = self.y
        for index, cells in enumerate([header] + rows):
            y0 = top + index * row_height
            if index == 0:
                self.draw.rectangle([self.x, y0, right, y0 + row_height], fill=200)
            elif index % 2 == 0:
                self.draw.rectangle([self.x, y0, right, y0 + row_height], fill=222)
            font = self.fonts.bold if index == 0 else self.fonts.body
            baseline_offset = (row_height - font.size) // 2 - round(font.size * 0.1)
            for left, cell in zip(lefts, cells):
                if cell:
                    self.draw.text((left + px(4), y0 + baseline_offset), cell, font=font, fill=INK)
            self.truth.append(" ".join(cell for cell in cells if cell))
        bottom = top + (len(rows) + 1) * row_height
        for index in range(len(rows) + 2):
            y = top + index * row_height
            self.draw.rectangle([self.x, y, right, y + rule - 1], fill=INK)
        for x in lefts + [right]:
            self.draw.rectangle([x, top, x + rule - 1, bottom + rule - 1], fill=INK)
        self.y = bottom + px(8)

    def columns(self, left_blocks, right_blocks):
        gap = round(0.35 * self.dpi)
        width = (self.width - gap) // 2
        left = Layout(self.draw, self.fonts, self.dpi, self.x, width, self.y)
        left.blocks(left_blocks)
        right = Layout(self.draw, self.fonts, self.dpi, self.x + width + gap, width, self.y)
        right.blocks(right_blocks)
        self.truth += left.truth + right.truth
        self.y = max(left.y, right.y)


def draw_stamp(page, lines, dpi, rng):
    """A rubber stamp (a framed block of bold capitals, turned a little) over the top right of the
    page: ink that multiplies with what is under it, mid grey as a red or blue stamp scans."""
    size = round(15 * dpi / 72)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", size)
    width = max(font.getlength(line) for line in lines) + 2 * size
    height = len(lines) * round(size * 1.3) + size
    stamp = Image.new("L", (round(width), round(height)), 255)
    draw = ImageDraw.Draw(stamp)
    border = max(2, round(size * 0.12))
    draw.rounded_rectangle([0, 0, stamp.width - 1, stamp.height - 1], radius=size // 2, outline=120, width=border)
    y = size // 2
    for line in lines:
        draw.text(((stamp.width - font.getlength(line)) / 2, y), line, font=font, fill=120)
        y += round(size * 1.3)
    angle = rng.uniform(8, 14)
    stamp = stamp.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)
    x = round(page.width * 0.42)
    y = round(TOP_INCHES * dpi * 0.55)
    region = page.crop((x, y, x + stamp.width, y + stamp.height))
    page.paste(ImageChops.multiply(region, stamp), (x, y))


def render(doc, dpi, rng):
    files, size_pt, blocks = PAGES[doc]
    width, height = round(PAGE_INCHES[0] * dpi), round(PAGE_INCHES[1] * dpi)
    page = Image.new("L", (width, height), PAPER)
    draw = ImageDraw.Draw(page)
    fonts = Fonts(files, size_pt, dpi)
    margin = round(MARGIN_INCHES * dpi)
    layout = Layout(draw, fonts, dpi, margin, width - 2 * margin, round(TOP_INCHES * dpi))
    layout.blocks(blocks)
    if layout.y > height - round(0.5 * dpi):
        raise SystemExit(f"make_scans.py: error: {doc} does not fit on one page")
    for lines in layout.stamps:
        draw_stamp(page, lines, dpi, rng)
    return page, "\n".join(layout.truth)


# MARK: Degradations


def gaussian_table(sigma):
    """A lookup table from uniform bytes to Gaussian offsets around 128 (inverse normal CDF)."""
    table = []
    for value in range(256):
        p = (value + 0.5) / 256
        # Acklam's rational approximation is more than this needs; the logit approximation
        # of the probit (scale 0.5513 = sqrt(3)/pi) is within a few per cent.
        z = 0.5513 * math.log(p / (1 - p))
        table.append(max(0, min(255, round(128 + sigma * z))))
    return table


def add_noise(image, rng, sigma):
    noise = Image.frombytes("L", image.size, rng.randbytes(image.width * image.height)).point(gaussian_table(sigma))
    return ImageChops.add(image, noise, 1.0, -128)


def add_specks(image, rng, count):
    draw = ImageDraw.Draw(image)
    for _ in range(count):
        x, y = rng.randrange(image.width), rng.randrange(image.height)
        r = rng.choice([1, 1, 2, 3])
        draw.ellipse([x, y, x + r, y + r], fill=rng.choice([INK, 60, 90]))
    return image


def light_field(size, rng, darkest):
    """Uneven lighting: a vignette around an off-centre bright spot, times a shadow falling off
    across the page, as from a desk lamp and a hand holding the phone. 255 is full light."""
    w, h = size
    radial = Image.radial_gradient("L").resize((w * 2, h * 2), Image.BILINEAR)
    cx, cy = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.6)
    radial = radial.crop((round(w * (1 - cx)), round(h * (1 - cy)), round(w * (1 - cx)) + w, round(h * (1 - cy)) + h))
    # A gradient on a square wider than the page's diagonal, turned, then the page's middle:
    # no corner of the page falls outside it.
    side = math.ceil(math.hypot(w, h))
    linear = Image.linear_gradient("L").resize((side, side), Image.BILINEAR)
    linear = linear.rotate(rng.choice([0, 90, 180, 270]) + rng.uniform(-20, 20), resample=Image.BILINEAR)
    linear = linear.crop(((side - w) // 2, (side - h) // 2, (side - w) // 2 + w, (side - h) // 2 + h))
    # radial: 0 at the spot, 255 far out -> light 255 .. darkest; linear: a shadow to 70% on one side.
    vignette = radial.point(lambda v: round(255 - (255 - darkest) * min(1.0, v / 255) ** 1.6))
    shadow = linear.point(lambda v: round(255 - 0.30 * v))
    return ImageChops.multiply(vignette, shadow)


def solve(matrix, vector):
    """Gaussian elimination with partial pivoting (8 x 8: the perspective coefficients)."""
    n = len(vector)
    rows = [list(matrix[i]) + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                for c in range(col, n + 1):
                    rows[r][c] -= factor * rows[col][c]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def perspective_coefficients(destination, source):
    """PIL's PERSPECTIVE data mapping each destination (photo) point to its source (page) point."""
    matrix, vector = [], []
    for (x, y), (u, v) in zip(destination, source):
        matrix.append([x, y, 1, 0, 0, 0, -x * u, -y * u])
        vector.append(u)
        matrix.append([0, 0, 0, x, y, 1, -x * v, -y * v])
        vector.append(v)
    return solve(matrix, vector)


PHOTO_SIZE = (2448, 3264)  # an 8-megapixel phone camera, portrait


def phone_photo(page, rng):
    """The page photographed from above at a slight tilt: the page's corners land on a
    quadrilateral (top edge shorter, as when the phone leans back), on a darker desk, under
    uneven light, with sensor noise, a little softness, and the camera's JPEG colour image."""
    w, h = PHOTO_SIZE
    inset_x, inset_y = 0.07 * w, 0.06 * h
    lean = rng.uniform(0.03, 0.06) * w   # the top edge narrower by twice this
    jitter = lambda: rng.uniform(-0.012, 0.012) * w
    corners = [
        (inset_x + lean + jitter(), inset_y + jitter()),
        (w - inset_x - lean + jitter(), inset_y + jitter()),
        (w - inset_x + jitter(), h - inset_y + jitter()),
        (inset_x + jitter(), h - inset_y + jitter()),
    ]
    source = [(0, 0), (page.width, 0), (page.width, page.height), (0, page.height)]
    coefficients = perspective_coefficients(corners, source)
    warped = page.transform((w, h), Image.PERSPECTIVE, coefficients, resample=Image.BICUBIC, fillcolor=0)
    mask = Image.new("L", page.size, 255).transform((w, h), Image.PERSPECTIVE, coefficients, resample=Image.BILINEAR, fillcolor=0)
    desk = Image.frombytes("L", (24, 32), rng.randbytes(24 * 32)).point(lambda v: 70 + v // 6).resize((w, h), Image.BICUBIC)
    photo = Image.composite(warped, desk, mask)
    photo = ImageChops.multiply(photo, light_field((w, h), rng, darkest=120))
    photo = photo.filter(ImageFilter.GaussianBlur(0.9))
    photo = add_noise(photo, rng, 7)
    # A warm indoor white balance: the colour channels differ a little, as a camera's do.
    return Image.merge("RGB", (photo.point(lambda v: min(255, round(v * 1.04))), photo,
                               photo.point(lambda v: round(v * 0.90))))


def degrade(page, cls, rng):
    """Returns (image, extra manifest fields)."""
    if cls in ("clean", "webp", "exif-jpeg", "heic", "fax-tiff"):
        return page, {}
    if cls == "skew":
        angle = rng.choice([-1, 1]) * rng.uniform(1.0, 3.0)
        return page.rotate(angle, resample=Image.BICUBIC, fillcolor=PAPER), {"skew_degrees": round(angle, 2)}
    if cls in ("rot90", "rot180", "rot270"):
        degrees = int(cls[3:])
        # PIL's ROTATE_n turns counter-clockwise; the manifest says how far the content is
        # turned clockwise, so ROTATE_270 is rot90.
        transpose = {90: Image.ROTATE_270, 180: Image.ROTATE_180, 270: Image.ROTATE_90}[degrees]
        return page.transpose(transpose), {"rotation": degrees}
    if cls == "jpeg50":
        return page, {}
    if cls == "noise":
        return add_specks(add_noise(page, rng, 24), rng, 1000), {}
    if cls == "blur":
        return page.filter(ImageFilter.GaussianBlur(1.7 * page.width / 2550)), {}
    if cls == "lighting":
        return ImageChops.multiply(page, light_field(page.size, rng, darkest=95)), {}
    if cls == "photo":
        return phone_photo(page, rng), {}
    raise ValueError(cls)


# MARK: Writing files


def seed_for(seed, *parts):
    return zlib.crc32("/".join(str(p) for p in parts).encode()) ^ (seed * 0x9E3779B1 & 0xFFFFFFFF)


def write_heic(image, path, scratch):
    heif_enc = shutil.which("heif-enc")
    if heif_enc is None:
        raise SystemExit("make_scans.py: error: heif-enc not found (needed for the HEIC photo)\n"
                         "make_scans.py: hint: install Debian's libheif-examples (make deps)")
    png = os.path.join(scratch, "." + os.path.basename(path) + ".png")
    image.save(png, compress_level=1)
    subprocess.run([heif_enc, "-q", "55", "-p", "preset=ultrafast", "--no-alpha", png, "-o", path], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.remove(png)


def make_file(job):
    """Writes one file of the corpus; returns its manifest entry."""
    outdir, seed, spec = job
    cls, dpi = spec["class"], spec["dpi"]
    docs = spec["document"] if isinstance(spec["document"], list) else [spec["document"]]
    rng = random.Random(seed_for(seed, "+".join(docs), cls, dpi))
    render_dpi = dpi or 300
    pages = []
    for doc in docs:
        image, truth = render(doc, render_dpi, rng)
        image, extra = degrade(image, cls, rng)
        page = {"document": doc, "truth": truth, "rotation": 0}
        # The tables printed on the page, cell by cell: what a lab-results reader should find.
        tables = [{"header": block[1], "rows": block[2]} for block in PAGES[doc][2] if block[0] == "table"]
        if tables:
            page["tables"] = tables
        pages.append((image, dict(page, **extra)))
    stem = f"{docs[0] if len(docs) == 1 else 'fax'}--{cls}" + (f"-{dpi}" if dpi else "")
    entry = {"class": cls, "dpi": dpi, "dpi_in_file": dpi is not None}
    image = pages[0][0]
    if cls in ("clean", "skew", "rot90", "rot180", "rot270", "noise", "blur", "lighting"):
        name = stem + ".png"
        image.save(os.path.join(outdir, name), dpi=(dpi, dpi), compress_level=1)
    elif cls == "jpeg50":
        name = stem + ".jpg"
        image.save(os.path.join(outdir, name), quality=50, dpi=(dpi, dpi))
    elif cls == "photo":
        name = stem + ".jpg"
        # Phones write 72 DPI into their JPEGs whatever the subject: it says nothing about the page.
        image.save(os.path.join(outdir, name), quality=85, dpi=(72, 72))
        entry["dpi_in_file"] = False
    elif cls == "exif-jpeg":
        # A portrait phone photo stored as the sensor reads it: pixels turned 90 degrees
        # counter-clockwise, EXIF Orientation 6 (turn 90 degrees clockwise to view).
        photo = phone_photo(image, rng)
        stored = photo.transpose(Image.ROTATE_90)
        exif = Image.Exif()
        exif[0x0112] = 6
        exif[0x010F] = "Sample Phone Co."
        name = stem + ".jpg"
        stored.save(os.path.join(outdir, name), quality=85, exif=exif.tobytes(), dpi=(72, 72))
        entry.update({"exif_orientation": 6, "dpi_in_file": False})
        pages[0][1]["rotation"] = 270
    elif cls == "heic":
        name = stem + ".heic"
        write_heic(phone_photo(image, rng), os.path.join(outdir, name), outdir)
        entry["dpi_in_file"] = False
    elif cls == "webp":
        name = stem + ".webp"
        image.save(os.path.join(outdir, name), quality=70, method=4)
        entry["dpi_in_file"] = False
    elif cls == "fax-tiff":
        # A clinic's fax: 1-bit, 200 DPI, CCITT Group 4, one page per sheet.
        bilevel = []
        for page_image, _ in pages:
            speckled = add_noise(page_image, rng, 18)
            bilevel.append(speckled.point(lambda v: 255 if v > 150 else 0).convert("1"))
        name = stem + ".tif"
        bilevel[0].save(os.path.join(outdir, name), compression="group4", dpi=(dpi, dpi),
                        save_all=True, append_images=bilevel[1:])
    else:
        raise ValueError(cls)
    entry["file"] = name
    entry["pages"] = [info for _, info in pages]
    return entry


def generate(outdir, set_name, seed):
    os.makedirs(outdir, exist_ok=True)
    jobs = [(outdir, seed, spec) for spec in plan(set_name)]
    # One process per core: each file depends only on its own seed, so the order of work does
    # not change a byte. The workers are told to finish (close, join), never terminated: a
    # parent that starts this with signals blocked (Foundation's Process under Swift Testing
    # did) passes the mask on, SIGTERM never arrives, and terminate() waited for ever.
    pool = multiprocessing.Pool(os.cpu_count())
    try:
        entries = pool.map(make_file, jobs, chunksize=1)
    finally:
        pool.close()
        pool.join()
    manifest = {
        "version": MANIFEST_VERSION,
        "generator": "Tools/ScanCorpus/make_scans.py",
        "set": set_name,
        "seed": seed,
        "rotation": "degrees the page's content is turned clockwise in the stored pixels (EXIF not applied)",
        "files": [dict(sorted(e.items())) for e in entries],
    }
    with open(os.path.join(outdir, "manifest.json"), "w", encoding="utf-8") as out:
        json.dump(manifest, out, indent=1, ensure_ascii=False)
        out.write("\n")
    return manifest


def main():
    # Signals blocked by whoever started us (see generate) are unblocked for us and our workers.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parser = argparse.ArgumentParser(description="Writes phr's OCR accuracy corpus.")
    parser.add_argument("outdir")
    parser.add_argument("--set", default="full", choices=["full", "bench", "test"])
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    manifest = generate(args.outdir, args.set, args.seed)
    pages = sum(len(f["pages"]) for f in manifest["files"])
    print(f"make_scans.py: {len(manifest['files'])} files, {pages} pages in {args.outdir}", file=sys.stderr)


if __name__ == "__main__":
    main()
