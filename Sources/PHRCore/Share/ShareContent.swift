import Foundation
import GRDB

extension ShareContent {
    package static func load(vault: Vault, profile: Profile, request: ShareRequest, time: TimeContext) throws -> ShareContent {
        let today = time.today()
        let yearAgo = ShareDocumentSelection.monthsBefore(today, 12)
        let store = DocumentStore(vault: vault, profile: profile)
        return try vault.database.read { db in
            let id = profile.id
            let medications = try MedicationStore.all(db, profileID: id)
            let current = MedicationStore.ordered(medications.filter { $0.isCurrent(today: today) })
            let stopped = medications.filter { !$0.isCurrent(today: today) }
                .compactMap { medication -> (Medication, CalendarDate)? in
                    guard let last = lastDay(of: medication), last >= yearAgo else { return nil }
                    return (medication, last)
                }
                .sorted { ($0.1, $1.0.name.lowercased()) > ($1.1, $0.0.name.lowercased()) }
                .map(\.0)
            // The same orders as `phr allergy list` and the other listings.
            let allergies = AllergyStore.ordered(try AllergyStore.all(db, profileID: id))
            let conditions = ConditionStore.ordered(try ConditionStore.all(db, profileID: id))
            let immunizations = ImmunizationStore.ordered(try ImmunizationStore.all(db, profileID: id))
            let procedures = ProcedureStore.ordered(try ProcedureStore.all(db, profileID: id))
            let familyHistory = FamilyHistoryStore.ordered(try FamilyHistoryStore.all(db, profileID: id))
            let appointments = try AppointmentStore.allByStart(db, profileID: id)
                .filter { $0.endInstant > time.now && $0.status != .cancelled }
            let contacts = ContactStore.ordered(try ContactStore.all(db, profileID: id).filter(\.emergency))
            let selection = try ShareDocumentSelection.select(db, store: store, request: request, today: today)
            let observations = try ObservationStore.all(db, profileID: id)
            let latest = latestResults(observations)
            return ShareContent(
                profile: profile, medicalID: try MedicalIDStore.fetch(db, profileID: id),
                currentMedications: current, recentlyStoppedMedications: stopped, allergies: allergies,
                conditions: conditions, procedures: procedures, familyHistory: familyHistory, immunizations: immunizations,
                results: latest, resultTrends: ResultTrend.trends(for: latest, among: observations), appointments: appointments,
                emergencyContacts: contacts, documents: selection.documents, skippedDocuments: selection.skipped)
        }
    }
}

extension ResultTrend {
    /// Trends for the lab results among `latest` that have at least two numbers, in the unit the
    /// latest result was printed in (the unit the bundle's table shows beside it).
    package static func trends(for latest: [Observation], among all: [Observation]) -> [ResultTrend] {
        let labs = all.filter(\.isLabResult)
        return latest.filter(\.isLabResult).compactMap { result in
            let key = AnalyteMatcher.groupKey(result)
            let series = labs.filter { AnalyteMatcher.groupKey($0) == key }
            return ResultTrend(LabTrend(results: series, choice: .printed), uid: result.uid)
        }
    }

    /// The chart of `trend`'s numbers with a date; nil when fewer than two.
    package init?(_ trend: LabTrend, uid: String) {
        let numeric = trend.points.filter { $0.value != nil && $0.day != nil }
        guard numeric.count >= 2 else { return nil }
        let band = trend.band
        self.init(uid: uid, name: trend.displayName, unit: trend.unit.map(LabUnits.display),
                  points: numeric.map { point in
                      Point(day: point.day!.description, value: point.value!, outOfRange: point.flag.map { $0 != .normal } ?? false)
                  },
                  low: band?.low, high: band?.high)
    }
}
