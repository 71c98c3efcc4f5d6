"""Character error rate, as phr's tests and benchmark compute it (Tests/PHRCLITests/
OCRAccuracy.swift and Benchmarks/PHRBench/OCRBenchmark.swift implement the same rules):

    CER = Levenshtein distance(normalised OCR text, normalised truth) / length of normalised truth

in Unicode scalars. Normalising: NFKC (folds ligatures such as U+FB01 to "fi"), typographic quotes
and dashes to their ASCII forms (the truth is ASCII, and a reader sees no difference), and every
run of whitespace, line breaks and form feeds included, to one space; leading and trailing
whitespace dropped. Case and punctuation are kept.
"""
import unicodedata

FOLD = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
})


def normalise(text):
    return " ".join(unicodedata.normalize("NFKC", text).translate(FOLD).split())


def distance(a, b):
    """Levenshtein distance (insertions, deletions, substitutions cost 1), by Hyyro's
    bit-parallel form of Myers' algorithm over Python integers: O(len(a) * len(b) / 64)."""
    if len(a) < len(b):
        a, b = b, a
    m = len(b)
    if m == 0:
        return len(a)
    mask = (1 << m) - 1
    high = 1 << (m - 1)
    peq = {}
    for index, char in enumerate(b):
        peq[char] = peq.get(char, 0) | (1 << index)
    pv, mv, score = mask, 0, m
    for char in a:
        eq = peq.get(char, 0)
        xv = eq | mv
        xh = ((((eq & pv) + pv) & mask) ^ pv) | eq
        ph = mv | (~(xh | pv) & mask)
        mh = pv & xh
        if ph & high:
            score += 1
        elif mh & high:
            score -= 1
        ph = ((ph << 1) | 1) & mask
        mh = (mh << 1) & mask
        pv = mh | (~(xv | ph) & mask)
        mv = ph & xv
    return score


def cer(ocr, truth):
    reference = normalise(truth)
    return distance(normalise(ocr), reference) / max(1, len(reference))


def _check():
    import random
    def slow(a, b):
        row = list(range(len(b) + 1))
        for i, x in enumerate(a, 1):
            previous, row[0] = row[0], i
            for j, y in enumerate(b, 1):
                previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
        return row[len(b)]
    rng = random.Random(1)
    for _ in range(2000):
        a = "".join(rng.choice("abc d") for _ in range(rng.randrange(0, 90)))
        b = "".join(rng.choice("abc d") for _ in range(rng.randrange(0, 90)))
        assert distance(a, b) == slow(a, b), (a, b)
    assert distance("kitten", "sitting") == 3
    assert normalise("  a\n\n b\u2014c\tfi\ufb01 ") == "a b-c fifi"
    print("cer.py: ok")


if __name__ == "__main__":
    _check()
