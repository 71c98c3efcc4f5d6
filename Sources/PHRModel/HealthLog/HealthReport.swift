import Foundation

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

        package init(medicationID: String, name: String, schedule: String, adherence: Adherence) {
            self.medicationID = medicationID
            self.name = name
            self.schedule = schedule
            self.adherence = adherence
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

            package init(
                date: String? = nil,
                value: String,
                range: String? = nil,
                flag: LabFlag? = nil,
                source: String,
                inPeriod: Bool
            ) {
                self.date = date
                self.value = value
                self.range = range
                self.flag = flag
                self.source = source
                self.inPeriod = inPeriod
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

        package init(
            name: String,
            loinc: String? = nil,
            unit: String? = nil,
            rows: [Row],
            earlier: Int,
            chart: ResultTrend? = nil
        ) {
            self.name = name
            self.loinc = loinc
            self.unit = unit
            self.rows = rows
            self.earlier = earlier
            self.chart = chart
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

    package init(
        profile: String,
        patientName: String,
        dateOfBirth: CalendarDate? = nil,
        generatedAt: String,
        timeZone: String,
        period: StatsPeriod,
        settings: HealthSettings,
        habits: [HabitStats],
        measurements: [MeasurementStats],
        adherence: [MedicationAdherence],
        appointments: [Appointment],
        bmi: BodyMassIndex? = nil,
        labs: [LabSection] = []
    ) {
        self.profile = profile
        self.patientName = patientName
        self.dateOfBirth = dateOfBirth
        self.generatedAt = generatedAt
        self.timeZone = timeZone
        self.period = period
        self.settings = settings
        self.habits = habits
        self.measurements = measurements
        self.adherence = adherence
        self.appointments = appointments
        self.bmi = bmi
        self.labs = labs
    }
}
