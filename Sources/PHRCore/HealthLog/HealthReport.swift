import Foundation
import GRDB

/// The content of `phr report`: the health analysis the seed app planned, over the last N days.
/// Per habit the statistics `phr stats` shows; per measurement its average, range and trend;
/// medication adherence from the dose log; and the appointments ahead. HealthReportComposer
/// lays it out as a PDF.
public struct HealthReport: Codable, Sendable {
    /// One medication's adherence over the period.
    public struct MedicationAdherence: Codable, Sendable {
        public var medicationID: String
        public var name: String
        public var schedule: String
        public var adherence: Adherence

        enum CodingKeys: String, CodingKey {
            case medicationID = "medication_id"
            case name, schedule, adherence
        }
    }

    public var profile: String
    /// The name on the medical ID, else the profile's name.
    public var patientName: String
    public var dateOfBirth: CalendarDate?
    public var generatedAt: String
    /// The user's zone, in which "today" and the period's days are.
    public var timeZone: String
    public var period: StatsPeriod
    public var settings: HealthSettings
    public var habits: [HabitStats]
    /// Measurements with readings in the period.
    public var measurements: [MeasurementStats]
    /// Scheduled medications current during the period.
    public var adherence: [MedicationAdherence]
    /// Upcoming appointments, soonest first (at most `maximumAppointments`).
    public var appointments: [Appointment]
    public var bmi: BodyMassIndex?
    /// The analytes asked for with `phr report --analyte`, in the order asked.
    public var labs: [LabSection] = []

    /// One analyte's lab results for the report: the latest `maximumLabResults` of them
    /// whatever the report's period (lab tests are weeks or months apart, so a 30-day report
    /// would rarely hold two), oldest first, in one unit, with the chart's series.
    public struct LabSection: Codable, Sendable {
        public struct Row: Codable, Sendable {
            public var date: String?
            public var value: String
            public var range: String?
            public var flag: LabFlag?
            public var source: String
            /// Taken within the report's period.
            public var inPeriod: Bool

            enum CodingKeys: String, CodingKey {
                case date, value, range, flag, source
                case inPeriod = "in_period"
            }
        }

        public var name: String
        public var loinc: String?
        public var unit: String?
        public var rows: [Row]
        /// Results before the ones shown, left out.
        public var earlier: Int
        package var chart: ResultTrend?

        enum CodingKeys: String, CodingKey {
            case name, loinc, unit, rows, earlier, chart
        }

        package init(_ trend: LabTrend, period: StatsPeriod, limit: Int) {
            var shown = trend
            shown.points = Array(trend.points.suffix(limit))
            name = trend.displayName
            loinc = trend.analyte?.loinc.first
            unit = trend.unit.map(LabUnits.display)
            earlier = trend.points.count - shown.points.count
            rows = shown.points.map { point in
                Row(date: point.day?.description, value: LabTrend.valueText(point, unit: trend.unit),
                    range: point.range.map(\.display), flag: point.flag,
                    source: point.observation.labSourceText,
                    inPeriod: point.day.map { $0 >= period.from && $0 <= period.to } ?? false)
            }
            chart = ResultTrend(shown, uid: trend.latest?.observation.uid ?? "")
        }
    }

    /// Longest report period: ten years.
    public static let maximumDays = StatsPeriod.maximumDays
    public static let maximumAppointments = 12

    enum CodingKeys: String, CodingKey {
        case profile
        case patientName = "patient_name"
        case dateOfBirth = "date_of_birth"
        case generatedAt = "generated_at"
        case timeZone = "time_zone"
        case period, settings, habits, measurements, adherence, appointments, bmi, labs
    }

    /// At most this many results of each analyte, the latest.
    public static let maximumLabResults = 24

    /// Gathers the report of `profile` over the last `days` days (today included).
    /// `analytes`: names, codes or synonyms of lab analytes to include (`phr report --analyte`);
    /// one with no result on record is an error (RecordError.notFound).
    public static func build(vault: Vault, profile: Profile, time: TimeContext, days: Int, analytes: [String] = []) throws -> HealthReport {
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
        for trend in try labStore.trends(analytes, units: summary.settings.units) {
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
