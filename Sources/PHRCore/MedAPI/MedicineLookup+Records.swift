import Foundation

// The lookups run over a profile's own records: what `phr med check`, `recalls` and `resolve`
// decide beyond a single lookup (which records, what counts as the same one, when to stop).

extension MedicineLookup {
    /// Checks the active medications and allergies in `records` plus `extraMedicines` and
    /// `extraAllergies` named by the user (could I take it?). A medicine or an allergy named
    /// twice, in any letter case, is checked once. Nil when there is no medicine to check.
    public func checkRecords(_ records: MedicationListSource, extraMedicines: [String] = [],
                             extraAllergies: [String] = []) throws -> InteractionReport? {
        let medicines = Self.once(try records.activeMedications() + extraMedicines.map { MedicineEntry(name: $0) }) { $0.name }
        let allergies = Self.once(try records.activeAllergies() + extraAllergies.map { AllergyEntry(substance: $0) }) { $0.substance }
        guard !medicines.isEmpty else { return nil }
        return try check(medicines: medicines, allergies: allergies)
    }

    /// `items` without later ones whose `key` equals an earlier one's, ignoring case.
    static func once<Item>(_ items: [Item], key: (Item) -> String) -> [Item] {
        var seen = Set<String>()
        return items.filter { seen.insert(key($0).lowercased()).inserted }
    }

    /// Recalls of `medicines` (the active medications when empty), at most `limit` per
    /// medicine, only those published on or after `since` (YYYY-MM-DD). Nil when there is
    /// nothing to look up.
    public func recalls(_ records: MedicationListSource, medicines: [String], limit: Int, since: String?) throws -> RecallsReport? {
        let entries = medicines.isEmpty ? try records.activeMedications() : medicines.map { MedicineEntry(name: $0) }
        guard !entries.isEmpty else { return nil }
        return try recalls(for: entries).limited(to: limit, since: since)
    }

    /// What `resolveStored` did for one medication.
    public struct Resolution: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var rxcui: String?
        public var resolvedName: String?
        public var ingredients: [String]
        /// Why it was not resolved (no such medicine in RxNorm).
        public var problem: String?
    }

    /// Looks up every medication stored without an RxCUI and records what RxNorm says. A name
    /// RxNorm does not know is that medication's outcome; being offline, unreachable or rate
    /// limited stops the loop (the rest would fail alike) and is returned with what was done.
    public func resolveStored(_ records: MedicationListSource & MedicationResolutionStore,
                              notices: ([String]) -> Void = { _ in }) throws -> (resolutions: [Resolution], stoppedBy: MedAPIError?) {
        var resolutions: [Resolution] = []
        for entry in try records.unresolvedMedications() {
            guard let id = entry.id else { continue }
            do {
                let resolved = try resolve(entry.name)
                try records.recordResolution(resolved, forMedication: id)
                resolutions.append(Resolution(id: id, name: entry.name, rxcui: resolved.concept.rxcui, resolvedName: resolved.concept.name,
                                              ingredients: resolved.ingredients.map(\.name), problem: nil))
                notices(resolved.notices)
            } catch let error as MedAPIError {
                guard case .noSuchMedicine = error else { return (resolutions, error) }
                resolutions.append(Resolution(id: id, name: entry.name, rxcui: nil, resolvedName: nil, ingredients: [],
                                              problem: error.localizedDescription))
            }
        }
        return (resolutions, nil)
    }
}

extension InteractionReport {
    /// The findings between medicines grouped by the pair they concern, the pairs in the order
    /// of their most serious finding (the findings are sorted most serious first).
    public var findingsByPair: [[InteractionFinding]] {
        var pairs: [(key: Set<String>, findings: [InteractionFinding])] = []
        for finding in findings {
            let key = Set(finding.medicines)
            if let index = pairs.firstIndex(where: { $0.key == key }) {
                pairs[index].findings.append(finding)
            } else {
                pairs.append((key, [finding]))
            }
        }
        return pairs.map(\.findings)
    }
}

extension RecallsReport {
    /// At most `limit` reports per medicine, only those published on or after `since`.
    public func limited(to limit: Int, since: String?) -> RecallsReport {
        var report = self
        for index in report.medicines.indices {
            report.medicines[index].recalls = Array(report.medicines[index].recalls.filter { entry in
                since.map { (entry.recall.reportDate ?? "") >= $0 } ?? true
            }.prefix(limit))
        }
        return report
    }
}
