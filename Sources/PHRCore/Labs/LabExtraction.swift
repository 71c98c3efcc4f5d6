import Foundation
import GRDB

/// What `phr lab extract` proposes from one document: the rows the reader found, the
/// collection date, and where they came from. Nothing is saved until a person (or `--yes`)
/// accepts it with `LabStore.accept`.
public struct LabExtraction: Codable, Sendable {
    public var documentID: String
    /// YYYY-MM-DD: the collection date printed in the report, else the document's date.
    public var collected: String?
    public var rows: [LabReportReader.Row]

    enum CodingKeys: String, CodingKey {
        case documentID = "document_id"
        case collected, rows
    }

    public init(documentID: String, collected: String?, rows: [LabReportReader.Row]) {
        self.documentID = documentID
        self.collected = collected
        self.rows = rows
    }

    /// Reads the pages of a document (words with their boxes, by page from 1). `documentDate`
    /// is the date phr guessed or the user set for the document, used when the report prints
    /// no collection date.
    /// `patient` chooses among ranges printed per sex or age.
    public static func read(documentID: String, pages: [(page: Int, words: [LabReportReader.Word])], documentDate: String?,
                            patient: LabPatient? = nil) -> LabExtraction {
        let day = documentDate.flatMap { CalendarDate(String($0.prefix(10))) }
        var rows = LabReportReader.rows(pages: pages, sex: patient?.sex, age: patient?.age(on: day))
        let text = pages.map { page in
            LabReportReader.cellLines(page.words).map { $0.map(\.text).joined(separator: " ") }.joined(separator: "\n")
        }.joined(separator: "\n")
        // Decimal commas say the report is European, whose dates are day-first.
        let dayFirst = rows.filter { row in row.range?.text?.contains(",") == true }.count > rows.count / 3
        let printed = LabReportReader.collectionDate(text, dayFirst: dayFirst)
        // Ranges by age are chosen for the age on the day the sample was taken, which the
        // report prints (a document's own date may be another: the date of birth on it).
        if let printed, printed != day, let patient, patient.born != nil, rows.contains(where: { $0.range?.text?.contains(";") == true }) {
            rows = LabReportReader.rows(pages: pages, sex: patient.sex, age: patient.age(on: printed))
        }
        let collected = printed?.description ?? day?.description
        return LabExtraction(documentID: documentID, collected: collected, rows: rows)
    }

    /// Of two readings of one scanned document, the one with more rows the reader is sure of
    /// (then more rows, then more flags read; then the first), checked against the other: a sure
    /// row whose value, unit or flag the other reading read differently is marked unsure, since
    /// OCR misread one of them ("41" read "4" in one reading of a JPEG scan). A flag only one
    /// reading has is not a difference: the automatic layout drops a flag column's lone letters.
    public static func better(_ first: LabExtraction, _ second: LabExtraction) -> LabExtraction {
        func rank(_ extraction: LabExtraction) -> (Int, Int, Int) {
            (extraction.rows.filter { $0.unsure == nil }.count, extraction.rows.count, extraction.rows.filter { $0.flag != nil }.count)
        }
        var (chosen, other) = rank(second) > rank(first) ? (second, first) : (first, second)
        var others: [String: LabReportReader.Row] = [:]
        for index in other.rows.indices { others[other.place(of: index)] = other.rows[index] }
        for index in chosen.rows.indices where chosen.rows[index].unsure == nil {
            guard let twin = others[chosen.place(of: index)] else { continue }
            if let difference = Self.difference(chosen.rows[index], twin) {
                chosen.rows[index].unsure = "two readings of the scan differ: \(difference)"
                chosen.rows[index].confidence = min(chosen.rows[index].confidence, 0.5)
            }
        }
        return chosen
    }

    /// How `row` and `twin` (the same row read twice) differ, or nil.
    static func difference(_ row: LabReportReader.Row, _ twin: LabReportReader.Row) -> String? {
        let value = row.valueNumber.map(Observation.number) ?? row.valueText ?? ""
        let twinValue = twin.valueNumber.map(Observation.number) ?? twin.valueText ?? ""
        if value != twinValue { return "the result reads '\(value)' or '\(twinValue)'" }
        // The same unit written two ways ("X10E6/uL", "x10E6/uL") is no difference.
        if let unit = row.unit, let twinUnit = twin.unit, (LabUnits.ucum(unit) ?? unit) != (LabUnits.ucum(twinUnit) ?? twinUnit) {
            return "the unit reads '\(unit)' or '\(twinUnit)'"
        }
        if let flag = row.flag, let twinFlag = twin.flag, flag != twinFlag {
            return "the flag reads \(flag.rawValue) or \(twinFlag.rawValue)"
        }
        return nil
    }

    /// Where row `index` stands: its page, its name, and which of the rows of that name on the
    /// page it is ("p2:glucose", then "p2:glucose#2"). The same row in another reading of the
    /// document stands at the same place.
    func place(of index: Int) -> String {
        let row = rows[index]
        let name = AnalyteCatalog.normalized(row.name)
        let occurrence = rows[..<index].filter { $0.page == row.page && AnalyteCatalog.normalized($0.name) == name }.count
        return "p\(row.page):\(name)" + (occurrence > 0 ? "#\(occurrence + 1)" : "")
    }

    /// The key that makes accepting the same row of the same document again a no-op: the
    /// document's content (its SHA-256) when known, so that a report removed and added again
    /// (a new ID) is still the same report; else, as rows saved before keys had content, its ID.
    func sourceKey(of index: Int, content sha256: String? = nil) -> String {
        if let sha256 { return "document-content:\(sha256.prefix(32)):\(place(of: index))" }
        return "document:\(documentID):\(place(of: index))"
    }
}

/// Whose report is read: a report that prints a range per sex or age ("Male: 13.5 - 17.5",
/// "Female: 12.0 - 15.5") is read with the one for this person (the profile's medical ID).
public struct LabPatient: Sendable, Equatable {
    public var sex: MedicalID.Sex?
    public var born: CalendarDate?

    public init(sex: MedicalID.Sex?, born: CalendarDate?) {
        self.sex = sex
        self.born = born
    }

    public init?(_ id: MedicalID?) {
        guard let id, id.sex != nil || id.dateOfBirth != nil else { return nil }
        self.init(sex: id.sex, born: id.dateOfBirth)
    }

    /// Age in years on `day` (today when nil).
    public func age(on day: CalendarDate?) -> Double? {
        guard let born else { return nil }
        let on = day ?? CalendarDate(Date())
        let days = on.dayNumber - born.dayNumber
        return days >= 0 ? Double(days) / 365.2425 : nil
    }
}

extension LabStore {
    /// What accepting an extraction did.
    public struct Accepted: Sendable {
        public var added: [Observation] = []
        /// Rows accepted before (the same document, page and analyte): left alone.
        public var alreadyThere: [String] = []
    }

    /// Saves the rows at `indices` of `extraction` (all when nil) as reviewed results that keep
    /// their document and page. Rows saved before from the same document are not added twice.
    /// With `requireDocument`, nothing is saved when the document is no longer in the vault
    /// (removed by another phr process while its results were read or reviewed).
    public func accept(_ extraction: LabExtraction, indices: [Int]? = nil, requireDocument: Bool = false) throws -> Accepted {
        guard let collected = extraction.collected, let day = CalendarDate(collected) else {
            throw RecordError.invalidOption(option: Field.date, reason: "document \(extraction.documentID) names no collection date",
                                            hint: "give the date the sample was taken with \(Field.date) YYYY-MM-DD")
        }
        // A date read from the page ahead of today is a misreading (2150 for 2015): it would
        // become every trend's latest value.
        if day > time.today() {
            throw RecordError.invalidOption(option: Field.date, reason: "the collection date read from document \(extraction.documentID), \(day), is in the future",
                                            hint: "give the date the sample was taken with \(Field.date) YYYY-MM-DD")
        }
        let chosen = indices ?? Array(extraction.rows.indices)
        let now = Timestamp.string(time.now)
        return try vault.database.write { db in
            var accepted = Accepted()
            // The report may have been removed (`phr doc rm`, another process) while its results
            // were read or reviewed: then nothing is saved.
            let content = try Data.fetchOne(db, sql: "SELECT sha256 FROM document WHERE id = ? AND profile_id = ?",
                                            arguments: [extraction.documentID, profile.id]).map { Array($0).hex }
            if requireDocument && content == nil { throw RecordError.removedMeanwhile(kind: "document", id: extraction.documentID) }
            for index in chosen where extraction.rows.indices.contains(index) {
                let row = extraction.rows[index]
                let key = extraction.sourceKey(of: index, content: content)
                let table = ObservationStore.table
                if let existing = try RecordRows.existing(db, table: table, profileID: profile.id, uid: nil, sourceKey: key)
                    ?? RecordRows.existing(db, table: table, profileID: profile.id, uid: nil, sourceKey: extraction.sourceKey(of: index)) {
                    // Saved before, perhaps from a copy of this report removed since: it now
                    // names this document as its source.
                    try db.execute(sql: "UPDATE observation SET lab_document_id = ?, updated_at = ? WHERE id = ? AND lab_document_id IS NOT ?",
                                   arguments: [extraction.documentID, now, existing, extraction.documentID])
                    accepted.alreadyThere.append(row.name)
                    continue
                }
                let name = try RecordFields.text(row.name, field: Field.path("rows[\(index)].name"), limit: RecordFields.maximumNameLength)
                let analyte = row.analyte.flatMap(AnalyteCatalog.entry(key:))
                guard !row.resultUnread else {
                    let reason = row.valueText.map { "'\($0)' is not a result; correct it first" } ?? "has no value"
                    throw RecordError.invalidField(field: Field.path("rows[\(index)]"), reason: Message(reason))
                }
                var observation = Observation(
                    id: "", uid: "", name: name, category: "laboratory", status: .final, effective: day.description,
                    valueNumber: row.valueNumber, valueUnit: row.unit, valueText: row.valueNumber == nil ? row.valueText : nil, valueCodes: nil,
                    components: [], notes: nil,
                    codes: analyte.map { [Coding(system: Coding.System.loinc, code: $0.loinc[0], display: $0.name)] } ?? [],
                    source: RecordSource(key: key),
                    lab: LabDetails(analyte: analyte?.key, unitUCUM: row.unit.flatMap(LabUnits.ucum), range: row.range, flag: row.flag,
                                    panel: row.panel, origin: .document, documentID: extraction.documentID, page: row.page,
                                    confidence: row.confidence, reviewed: true),
                    createdAt: now, updatedAt: now)
                (observation.id, observation.uid) = try RecordRows.newIdentity(db, table: ObservationStore.table)
                try ObservationStore.insert(db, observation, profileID: profile.id)
                accepted.added.append(observation)
            }
            return accepted
        }
    }
}
