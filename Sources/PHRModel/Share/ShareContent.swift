import Foundation

/// Everything a bundle (and its IPS file) shows, read from the vault in one transaction so the
/// summary, the manifest and the FHIR file describe the same moment. Codable: it is what the
/// drawing worker receives.
package struct ShareContent: Codable {
    package var profile: Profile
    package var medicalID: MedicalID?
    /// Taken now, or starting later.
    package var currentMedications: [Medication]
    /// Stopped or ended within the last twelve months, most recent first.
    package var recentlyStoppedMedications: [Medication]
    /// Active ones first, the most dangerous first.
    package var allergies: [Allergy]
    /// Current ones first.
    package var conditions: [Condition]
    /// Newest first, undated ones last.
    package var procedures: [Procedure]
    /// Nearest relatives first.
    package var familyHistory: [FamilyHistory]
    /// Newest first.
    package var immunizations: [Immunization]
    /// The latest observation of each test or measurement, newest first.
    package var results: [Observation]
    /// For each lab result in `results` with several numeric values: its history in one unit,
    /// for the small trend chart beside the Results table. nil in content from before trends.
    package var resultTrends: [ResultTrend]?
    /// Not over yet and not cancelled, soonest first.
    package var appointments: [Appointment]
    package var emergencyContacts: [Contact]
    package var documents: [Document]
    package var skippedDocuments: [ShareResult.SkippedDocument]

    /// The content with the records of sections not in `sections` removed: what the drawing
    /// worker receives, so a process that parses documents never holds records the user left
    /// out of the bundle. The medical ID stays (the cover names the patient); the documents
    /// stay (they are embedded whether or not their manifest is printed).
    package func limited(to sections: [ShareSection]) -> ShareContent {
        var content = self
        let kept = Set(sections)
        if !kept.contains(.medications) {
            content.currentMedications = []
            content.recentlyStoppedMedications = []
        }
        if !kept.contains(.allergies) { content.allergies = [] }
        if !kept.contains(.conditions) { content.conditions = [] }
        if !kept.contains(.immunizations) { content.immunizations = [] }
        if !kept.contains(.procedures) { content.procedures = [] }
        if !kept.contains(.familyHistory) { content.familyHistory = [] }
        if !kept.contains(.results) {
            content.results = []
            content.resultTrends = nil
        }
        if !kept.contains(.appointments) { content.appointments = [] }
        if !kept.contains(.contacts) { content.emergencyContacts = [] }
        return content
    }

    /// The name printed for the patient: the medical ID's, else the profile's.
    ///
    /// A clinician must never read "me" (the name `phr init` gives the first profile) as the
    /// patient's name: without a name in the medical ID, that profile is "Name not recorded".
    package var patientName: String {
        if let name = medicalID?.name { return name }
        return hasName ? profile.name : Self.nameNotRecorded
    }

    /// Whether the patient's name is known (the medical ID's, or a profile named by the user).
    package var hasName: Bool {
        medicalID?.name != nil || profile.name.caseInsensitiveCompare(Profile.initialName) != .orderedSame
    }

    package static let nameNotRecorded = "Name not recorded"

    /// The day a medication that is no longer taken was last taken: when it was stopped, else
    /// when its course ended (a stopped one imported without a stop day: its end).
    package static func lastDay(of medication: Medication) -> CalendarDate? {
        if medication.status == .stopped { return medication.stoppedOn?.adding(days: -1) ?? medication.end?.lastDay }
        return medication.end?.lastDay
    }

    /// One observation per test: the newest of those sharing a code (any coding) or, uncoded,
    /// a name.
    package static func latestResults(_ observations: [Observation]) -> [Observation] {
        // Entered-in-error results are never stored (the FHIR import skips them).
        let newestFirst = observations.sorted { ($0.effective ?? "", $0.updatedAt, $1.id) > ($1.effective ?? "", $1.updatedAt, $0.id) }
        var seen = Set<String>()
        var latest: [Observation] = []
        for observation in newestFirst {
            let keys = observation.codes.isEmpty
                ? ["name:" + observation.name.lowercased()]
                : observation.codes.map { "code:\($0.system ?? "")|\($0.code)" }
            if keys.contains(where: seen.contains) { continue }
            seen.formUnion(keys)
            latest.append(observation)
        }
        return latest
    }

    package init(
        profile: Profile,
        medicalID: MedicalID? = nil,
        currentMedications: [Medication],
        recentlyStoppedMedications: [Medication],
        allergies: [Allergy],
        conditions: [Condition],
        procedures: [Procedure] = [],
        familyHistory: [FamilyHistory] = [],
        immunizations: [Immunization],
        results: [Observation],
        resultTrends: [ResultTrend]? = nil,
        appointments: [Appointment],
        emergencyContacts: [Contact],
        documents: [Document],
        skippedDocuments: [ShareResult.SkippedDocument]
    ) {
        self.profile = profile
        self.medicalID = medicalID
        self.currentMedications = currentMedications
        self.recentlyStoppedMedications = recentlyStoppedMedications
        self.allergies = allergies
        self.conditions = conditions
        self.procedures = procedures
        self.familyHistory = familyHistory
        self.immunizations = immunizations
        self.results = results
        self.resultTrends = resultTrends
        self.appointments = appointments
        self.emergencyContacts = emergencyContacts
        self.documents = documents
        self.skippedDocuments = skippedDocuments
    }
}

/// One lab result's history for a share bundle's trend chart: numbers in one unit, oldest
/// first, and the reference band.
package struct ResultTrend: Codable, Sendable, Equatable {
    package struct Point: Codable, Sendable, Equatable {
        package var day: String
        package var value: Double
        package var outOfRange: Bool

        package init(day: String, value: Double, outOfRange: Bool) {
            self.day = day
            self.value = value
            self.outOfRange = outOfRange
        }
    }

    /// The uid of the latest result (the row in the Results table).
    package var uid: String
    package var name: String
    package var unit: String?
    package var points: [Point]
    package var low: Double?
    package var high: Double?

    package init(
        uid: String,
        name: String,
        unit: String? = nil,
        points: [Point],
        low: Double? = nil,
        high: Double? = nil
    ) {
        self.uid = uid
        self.name = name
        self.unit = unit
        self.points = points
        self.low = low
        self.high = high
    }
}

/// What `phr share` wrote.
public struct ShareResult: Codable, Sendable, Equatable {
    public struct IncludedDocument: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var type: String
        public var date: String?
        public var pages: Int
        /// The bundle page the document starts on.
        public var firstPage: Int
        public var sha256: String

        enum CodingKeys: String, CodingKey {
            case id, title, type, date, pages
            case firstPage = "first_page"
            case sha256
        }

        package init(
            id: String,
            title: String,
            type: String,
            date: String? = nil,
            pages: Int,
            firstPage: Int,
            sha256: String
        ) {
            self.id = id
            self.title = title
            self.type = type
            self.date = date
            self.pages = pages
            self.firstPage = firstPage
            self.sha256 = sha256
        }
    }

    public struct SkippedDocument: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var reason: String

        package init(id: String, title: String, reason: String) {
            self.id = id
            self.title = title
            self.reason = reason
        }
    }

    public var path: String
    public var recipient: String
    public var pages: Int
    /// Pages before the first document: the cover and the summary sections.
    public var summaryPages: Int
    public var sections: [String]
    public var documents: [IncludedDocument]
    public var skipped: [SkippedDocument]
    public var encrypted: Bool
    public var paper: String
    public var bytes: Int64
    public var fhir: String?
    /// Documents of the profile the default choice (the last 12 months) left out; 0 when the
    /// user chose documents.
    public var documentsLeftOut = 0
    /// The bundle says "Name not recorded": the medical ID has no name.
    public var nameNotRecorded = false

    package enum CodingKeys: String, CodingKey {
        case path, recipient, pages
        case summaryPages = "summary_pages"
        case sections, documents, skipped, encrypted, paper, bytes, fhir
        case documentsLeftOut = "documents_left_out"
        case nameNotRecorded = "name_not_recorded"
    }

    package init(
        path: String,
        recipient: String,
        pages: Int,
        summaryPages: Int,
        sections: [String],
        documents: [IncludedDocument],
        skipped: [SkippedDocument],
        encrypted: Bool,
        paper: String,
        bytes: Int64,
        fhir: String? = nil
    ) {
        self.path = path
        self.recipient = recipient
        self.pages = pages
        self.summaryPages = summaryPages
        self.sections = sections
        self.documents = documents
        self.skipped = skipped
        self.encrypted = encrypted
        self.paper = paper
        self.bytes = bytes
        self.fhir = fhir
    }
}
