import Foundation
import GRDB
import Testing
@testable import PHRCore

/// Shipped migrations cannot be edited by accident. A vault remembers which migrations it ran by
/// identifier only, so an edited migration would never reach the vaults that already ran it: the
/// schema would silently differ between old and new vaults. Each shipped migration's SQL is pinned
/// here by its SHA-256; a change to the schema is a new migration appended to `Schema.migrations`.
@Suite struct MigrationHistoryTests {
    /// Every migration, oldest first, with the SHA-256 of its SQL (UTF-8). When you append a
    /// migration, append its line here too; never change a line.
    static let shipped: [(identifier: String, sha256: String)] = [
        ("v1-foundation", "f160afb480bd6d50ed98a704eeedaf1165c894106cce1547ff786371c1ec9342"),
        ("v1-profiles", "e6ed5664d962443bac2112a38650e96151b898332dc831169b9ee6ca00724074"),
        ("v1-documents", "88bc3f20db32022778b47063881ea182d567f8e253b8855809647adc9afc215d"),
        ("v1-search", "72d3f2521e213a4cef25b2f55c4e27087498f71f1ddfc74b8baf15e6b519b38d"),
        ("v1-search-cjk-vocab", "6bead861ee5d9a95fbee1b0ef8a153c341cf829cd94802b966451e99b1053950"),
        ("v1-records", "791f23c21a02b461e8f3a229de06bfdd444e74d048f78ad6442dc929d670c7c9"),
        ("v1-medapi-cache", "bda1b7e08ee0ebc4819cb78b465e4015cf89d1282dbdfa39b0040b5ce516205f"),
        ("v1-medapi-class-key-first", "558b7c2b6b61325b2af973038518fcd42a830de07cd6384bdf0479c0daf7f632"),
        ("v1-health-log", "924bc4727f3fa4bcde30c199614787e110b1a1c707e56f3867246914ccfbe8ac"),
        ("v2-document-per-profile", "5b4f9d1afdd115ecd71595116d101b81a2bda9cf34987be05830c92ccf487583"),
        ("v2-document-page-staging", "fbc3e87da97494b00e76d72184329594d81629c13db4678c614da80518be9c52"),
        ("v3-document-ocr", "2767c21849dbab78d07c1c81beb9e9965348cf6daa30adffa9d36d55be6743ab"),
        ("v3-lab-results", "9fd8a1b704b962818f5234843e330553493a4403467759954541df2f9d65ef12"),
        ("v3-reminder-channels", "1a46267a8797abe6a58852a3a57b65fee6a49c1d5d32da8e11e6f40823be3b7e"),
        ("v4-change-journal", "547d9155e31f3d70bf9a25c42329eeae2af7d6dc6a168f539e846b49cc1605d1"),
        ("v5-document-list-order", "8ffae599c1613e94b873eed67db6837fa6c9be162a074e01e4dfa06a9076ff3e"),
        ("v6-procedures-family-history", "5c4d0028ade20e0146c9f02a0c9d8579a655ca1b6933564f334c9419faee3f7c"),
        ("v7-undated-immunizations", "64d44db1787640a1ebad65ffbeb9afbd0dda00680a4480a5030c3faf9235086c"),
        ("v8-assistant-access-log", "e29f33abdb4297054c1106fd357c0a661dfc7fc1cd7bebfc69312144726ba6bc"),
        ("v9-sync", "0baf0440eaeec5ac68fd75ff6c55de95787e559cd27bca2ae58df8fb0c92cc47"),
    ]

    static func sha256(_ text: String) throws -> String {
        try SHA256Hasher.hash(Array(text.utf8)).hex
    }

    @Test func noShippedMigrationWasEdited() throws {
        let current = Dictionary(Schema.migrations.map { ($0.identifier, $0.sql) }, uniquingKeysWith: { first, _ in first })
        for (identifier, pinned) in Self.shipped {
            guard let sql = current[identifier] else { continue }  // reported by the order test
            #expect(try Self.sha256(sql) == pinned, """
                migration "\(identifier)" was edited after it shipped; vaults that already ran it will never \
                run the new SQL. Revert the edit and add a new migration at the end of Schema.migrations \
                (Sources/PHRCore/Storage/Schema.swift) instead.
                """)
        }
    }

    @Test func shippedMigrationsKeepTheirNamesAndOrder() {
        let identifiers = Schema.migrations.map(\.identifier)
        #expect(Array(identifiers.prefix(Self.shipped.count)) == Self.shipped.map(\.identifier), """
            shipped migrations are never renamed, reordered or removed; add new ones at the end of \
            Schema.migrations (Sources/PHRCore/Storage/Schema.swift).
            """)
        #expect(Set(identifiers).count == identifiers.count, "two migrations share an identifier")
    }

    @Test func everyMigrationIsPinned() throws {
        for migration in Schema.migrations.dropFirst(Self.shipped.count) {
            Issue.record("""
                new migration "\(migration.identifier)": append ("\(migration.identifier)", \
                "\(try Self.sha256(migration.sql))") to MigrationHistoryTests.shipped, so it cannot \
                change once it ships.
                """)
        }
    }

    @Test func aNewVaultRunsExactlyTheListedMigrationsInOrder() throws {
        let (vault, _, directory) = try TestSupport.makeVault("migrations")
        defer { TestSupport.remove(directory) }
        let applied = try vault.database.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
        #expect(applied == Schema.migrations.map(\.identifier))
    }
}
