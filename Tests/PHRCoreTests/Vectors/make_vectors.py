#!/usr/bin/env python3
"""Known-answer vectors for phr's page cipher and blob stream, computed with an independent
implementation (pyca/cryptography) from the format in Schemas/vault-format-v1.md.

Run: /usr/bin/python3 Tests/PHRCoreTests/Vectors/make_vectors.py
The printed hex strings are pasted into PageCipherTests.swift and BlobStreamTests.swift.
"""
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives import hashes

KEY = bytes(range(32))
NONCE = bytes(range(0xA0, 0xAC))
PAGE = 4096
CONTENT_END = PAGE - 32


def pattern(page_number):
    """The test plaintext: byte i of page n is (i * 7 + n) mod 251, reserve bytes zero."""
    body = bytearray((i * 7 + page_number) % 251 for i in range(PAGE))
    body[CONTENT_END:] = bytes(32)
    return body


def page_vector(page_number, kind):
    plain = pattern(page_number)
    clear = b""
    start = 0
    if page_number == 1:
        plain[0:16] = b"SQLite format 3\x00"
        plain[16:18] = (4096).to_bytes(2, "big")
        plain[18:20] = b"\x01\x01"
        plain[20] = 32
        plain[21:24] = b"\x40\x20\x20"
        clear = b"phr db format 1\x00" + bytes(plain[16:24])
        start = 24
    aad = kind.encode() + page_number.to_bytes(4, "big") + clear
    sealed = AESGCM(KEY).encrypt(NONCE, bytes(plain[start:CONTENT_END]), aad)
    ciphertext, tag = sealed[:-16], sealed[-16:]
    raw = clear + ciphertext + NONCE + tag + bytes(4)
    assert len(raw) == PAGE
    return raw


def blob_vector(plaintext, blob_nonce):
    payload_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=blob_nonce,
                       info=b"phr/v1/blob-payload").derive(KEY)
    out = b"phrblob\x01" + blob_nonce
    chunks = [plaintext[i:i + 65536] for i in range(0, len(plaintext), 65536)] or [b""]
    for index, chunk in enumerate(chunks):
        final = index == len(chunks) - 1
        nonce = index.to_bytes(11, "big") + (b"\x01" if final else b"\x00")
        out += AESGCM(payload_key).encrypt(nonce, chunk, None)
    return out


if __name__ == "__main__":
    for number, kind in [(2, "D"), (1, "D"), (7, "J")]:
        raw = page_vector(number, kind)
        print(f"page {number} {kind}: first16={raw[:16].hex()} at24={raw[24:40].hex()} tag={raw[4076:4092].hex()}")
    blob_nonce = bytes(range(0x10, 0x20))
    small = blob_vector(b"phr blob stream test vector", blob_nonce)
    print("blob small:", small.hex())
    large = blob_vector(bytes(i % 256 for i in range(65536 + 5)), blob_nonce)
    print("blob 64KiB+5 tags:", large[24 + 65536:24 + 65552].hex(), large[-16:].hex(), "size", len(large))
    empty = blob_vector(b"", blob_nonce)
    print("blob empty:", empty.hex())
