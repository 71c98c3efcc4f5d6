import Foundation
import Testing

/// Fails when the corpus is required (CI) but missing, so its tests cannot vanish unnoticed.
@Suite struct CorpusPresenceTests {
    @Test func theCorpusIsThereWhenRequired() {
        #expect(CorpusData.isPresent || !CorpusData.isRequired,
                "PHR_REQUIRE_TEST_DATA=1 but there is no corpus at \(CorpusData.root) (set PHR_TEST_DATA)")
    }
}
