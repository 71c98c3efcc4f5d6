// swift-tools-version:6.1
//
// phr: a personal health records vault. See README.md for the layout and DESIGN notes.

import PackageDescription

// Zero warnings in the project's own code, kept there by the compiler (README, "Warnings"): every
// Swift target treats warnings as errors, in debug and release builds alike. Allowed because phr is
// a root package; nothing depends on it as a package.
let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "phr",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "phr", targets: ["phr"]),
        .executable(name: "phr-render", targets: ["phr-render"]),
        .library(name: "PHRCore", targets: ["PHRCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // `phr serve`'s HTTP server (docs/decisions.md, "The web server"): Hummingbird 2 on
        // swift-nio, without its optional swift-configuration support.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        // Hummingbird's HTTP field types, named directly by the door's checks.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // OpenSSL 3 as a system module: AES-GCM, scrypt, HKDF, HMAC, SHA-256, RNG (libcrypto) and
        // TLS for the drug-information clients (libssl).
        .systemLibrary(
            name: "CPHROpenSSL",
            pkgConfig: "libssl libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // zlib: gzip-compressed HTTP answers.
        .systemLibrary(
            name: "CPHRZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // poppler-glib, cairo and pango: PDF text extraction, page embedding and typesetting.
        .systemLibrary(
            name: "CPHRPoppler",
            pkgConfig: "poppler-glib pangocairo cairo-pdf",
            providers: [.apt(["libpoppler-glib-dev", "libpango1.0-dev", "libcairo2-dev"])]
        ),
        // libqpdf's C API: encrypts share bundles with AES-256 (PDF 2.0 security handler, R6).
        .systemLibrary(
            name: "CPHRQPDF",
            pkgConfig: "libqpdf",
            providers: [.apt(["libqpdf-dev"])]
        ),
        // Tesseract 5 (C API), leptonica and libheif: OCR of scans and photos, in phr-render only.
        .systemLibrary(
            name: "CPHRTesseract",
            pkgConfig: "tesseract lept libheif",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev", "libheif-dev"])]
        ),
        // libxml2: C-CDA and Apple Health exports, parsed in phr-render only.
        .systemLibrary(
            name: "CPHRXML",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // PDF typesetting over cairo, pango and poppler: canvas, text, flowing pages, tables,
        // outlines, embedded PDF pages and images. Used by share bundles and phr-samples.
        .target(name: "PHRTypesetting", dependencies: ["CPHRPoppler"], swiftSettings: strict),
        // The encrypting SQLite VFS and the page cipher, in C over OpenSSL EVP.
        .target(
            name: "CPHRVFS",
            cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])],
            linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("crypto")]
        ),
        // phr-render's workers confine themselves: no new privileges, Landlock, a seccomp-bpf
        // allow-list (SECURITY.md, "The workers' sandbox"). Linked into phr-render only.
        .target(name: "CPHRSandbox", cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]),
        // Linux calls Swift cannot make directly: the kernel keyring (syscall) and prctl.
        .target(name: "CPHRSystem", cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Werror"])]),
        // What the key-holding phr and the sandboxed phr-render share: the record and document
        // value types, the workers' wire protocols and their settings, time and dates. Foundation
        // and Glibc only: no SQLite, GRDB or OpenSSL, so phr-render links none of them.
        .target(name: "PHRModel", swiftSettings: strict),
        .target(
            name: "PHRCore",
            dependencies: [
                "PHRModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CPHRVFS",
                "CPHROpenSSL",
                "CPHRSystem",
                "CPHRZlib",
            ],
            swiftSettings: strict
        ),
        // The one module a front end needs (issue 25): the session (open, unlock, profile, clock)
        // and, as it grows, one typed function per use case. The CLI is its first front end.
        .target(name: "PHRService", dependencies: ["PHRCore", "CPHRSystem"], swiftSettings: strict),
        // `phr serve`: the agent that holds the vault, its door (host, session, CSRF checks) and
        // the web UI's pages, served by Hummingbird on loopback. A front end over PHRService.
        .target(
            name: "PHRWeb",
            dependencies: [
                "PHRService", "PHRCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        // What reads and draws PDFs (poppler, cairo, pango, qpdf), for the phr-render program
        // only: the phr process, which holds the keys, never loads these libraries.
        .target(
            name: "PHRRender",
            dependencies: ["PHRModel", "PHRTypesetting", "CPHRPoppler", "CPHRQPDF", "CPHRSandbox", "CPHRSystem", "CPHRTesseract", "CPHRXML", "CPHRZlib"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "phr",
            dependencies: [
                "PHRModel",
                "PHRCore",
                "PHRService",
                "PHRWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // phr's sandboxed helper: text extraction workers and the drawing worker.
        .executableTarget(
            name: "phr-render",
            dependencies: [
                "PHRModel",
                "PHRRender",
                "CPHRSandbox",
                "CPHRSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // Test support: a process that writes to a vault in a loop, for the SIGKILL crash tests.
        .executableTarget(
            name: "phr-crash-writer",
            dependencies: ["PHRCore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Support/CrashWriter",
            swiftSettings: strict
        ),
        // `make bench`: encrypted versus plain SQLite and the later ingest/search benchmarks.
        .executableTarget(
            name: "phr-bench",
            dependencies: ["PHRCore", "CCDASamples", "ScanCorpusCER", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/PHRBench",
            swiftSettings: strict
        ),
        // `make samples`: draws the synthetic sample PDFs committed under Samples/documents/.
        .executableTarget(name: "phr-samples", dependencies: ["CPHRPoppler", "PHRTypesetting"], path: "Tools/SampleGenerator",
                          swiftSettings: strict),
        // Synthetic C-CDA documents (every section phr imports, R2.1 and R1.1) for the tests and `make bench`.
        .target(name: "CCDASamples", path: "Tools/CCDASamples", swiftSettings: strict),
        // `phr-health-export-sample`: writes a synthetic Apple Health export (export.xml, zipped) with
        // the totals it holds, for the import tests and `make bench`.
        .executableTarget(name: "phr-health-export-sample", dependencies: ["SampleZip"], path: "Tools/HealthExportGenerator",
                          swiftSettings: strict),
        // `phr-fit-takeout-sample`: writes a synthetic Google Takeout of Fit (the zip and the
        // extracted folder) with the totals it holds, for the import tests.
        .executableTarget(name: "phr-fit-takeout-sample", dependencies: ["SampleZip"], path: "Tools/FitTakeoutGenerator",
                          swiftSettings: strict),
        // The OCR character error rate (Tools/ScanCorpus/cer.py's rules), for the accuracy tests and `make bench`.
        .target(name: "ScanCorpusCER", path: "Tools/ScanCorpusCER", swiftSettings: strict),
        // The zip writer the sample generators share.
        .target(name: "SampleZip", dependencies: ["CPHRZlib"], path: "Tools/SampleZip", swiftSettings: strict),
        // What the test targets share: the third-party corpus's one helper, the package root, the
        // loopback HTTP and TLS servers (and free ports), CRC-32. Foundation and Testing only.
        .target(name: "PHRTestSupport", path: "Tests/Support/PHRTestSupport", swiftSettings: strict),
        .testTarget(
            name: "PHRCoreTests",
            dependencies: ["PHRCore", "PHRModel", "PHRRender", "PHRTestSupport", "CPHRVFS", "CPHROpenSSL", "CPHRPoppler", "PHRTypesetting", "phr-render", "CCDASamples", "SampleZip"],
            exclude: ["Vectors/make_vectors.py"],
            swiftSettings: strict
        ),
        // PHRRender's parsers on their own (zip, CSV, Takeout sessions, the XML subtree reader, the
        // stamp remover, the Health export's prologue), with inputs made by the tests.
        .testTarget(name: "PHRRenderTests", dependencies: ["PHRRender", "PHRModel", "PHRTestSupport", "CPHRTesseract", "SampleZip"],
                    swiftSettings: strict),
        // The web UI's pieces that need no server: chart geometry, forms, paths.
        .testTarget(name: "PHRWebTests", dependencies: ["PHRWeb", "PHRCore", "PHRModel"], swiftSettings: strict),
        .testTarget(
            name: "PHRCLITests",
            dependencies: ["PHRCore", "PHRTestSupport", "phr", "phr-render", "CCDASamples", "phr-health-export-sample", "phr-fit-takeout-sample", "ScanCorpusCER",
                           "SampleZip"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
