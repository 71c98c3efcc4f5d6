import Foundation
import GRDB

extension HealthReport {
    /// Gathers the report of `profile` over the last `days` days (today included).
    /// `analytes`: names, codes or synonyms of lab analytes to include (`phr report --analyte`);
    /// one with no result on record is an error (RecordError.notFound). `labUnits`: the units
    /// their results are shown in (as printed unless asked otherwise).
    public static func build(vault: Vault, profile: Profile, time: TimeContext, days: Int, analytes: [String] = [],
                             labUnits: LabUnitChoice = .printed) throws -> HealthReport {
        let period = try StatsPeriod.last(days, endingOn: time.today())
        let summary = try HealthStats(vault: vault, profile: profile, time: time).summary(period)
        let id = try MedicalIDStore(vault: vault, profile: profile, time: time).get()
        let medications = try MedicationStore(vault: vault, profile: profile, time: time).withLogs(all: true)
        let adherence = medications.filter { medication, _ in
            medication.schedule.isScheduled && (medication.isActive(on: period.to) || medication.isActive(on: period.from))
        }.map { medication, log in
            MedicationAdherence(medicationID: medication.id, name: medication.displayName, schedule: medication.schedule.summary,
                                adherence: Adherence.compute(medication, log: log, time: time, days: days))
        }.sorted { ($0.name.lowercased(), $0.medicationID) < ($1.name.lowercased(), $1.medicationID) }
        let appointments = try AppointmentStore(vault: vault, profile: profile, time: time).list(.upcoming)
            .filter { $0.status != .cancelled }.prefix(maximumAppointments)
        let bmi = try? BodyMassIndex.forProfile(vault: vault, profile: profile, time: time, weight: nil, height: nil)
        let labStore = LabStore(vault: vault, profile: profile, time: time)
        var labs: [LabSection] = []
        var seen: Set<String> = []
        for trend in try labStore.trends(analytes, choice: labUnits) {
            let key = trend.analyte?.key ?? AnalyteCatalog.normalized(trend.displayName)
            guard seen.insert(key).inserted else { continue }
            labs.append(LabSection(trend, period: period, limit: maximumLabResults))
        }
        return HealthReport(profile: profile.name, patientName: id?.name ?? profile.name, dateOfBirth: id?.dateOfBirth,
                            generatedAt: Timestamp.string(time.now), timeZone: time.zone.identifier, period: period,
                            settings: summary.settings, habits: summary.habits,
                            measurements: summary.measurements.filter { $0.readings > 0 }, adherence: adherence,
                            appointments: Array(appointments), bmi: bmi, labs: labs)
    }
}

extension HealthReport.LabSection {
    package init(_ trend: LabTrend, period: StatsPeriod, limit: Int) {
        var shown = trend
        shown.points = Array(trend.points.suffix(limit))
        self.init(
            name: trend.displayName,
            loinc: trend.analyte?.loinc.first,
            unit: trend.unit.map(LabUnits.display),
            rows: shown.points.map { point in
                Row(date: point.day?.description, value: LabTrend.valueText(point, unit: trend.unit),
                    range: point.range.map(\.display), flag: point.flag,
                    source: point.observation.labSourceText,
                    inPeriod: point.day.map { $0 >= period.from && $0 <= period.to } ?? false)
            },
            earlier: trend.points.count - shown.points.count,
            chart: ResultTrend(shown, uid: trend.latest?.observation.uid ?? "")
        )
    }
}
