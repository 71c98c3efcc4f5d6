import Foundation
import GRDB

/// Imports what phr-render's C-CDA reader found in a document into one profile, inside the
/// caller's transaction, the way `FHIRImporter` imports a bundle: the same checks
/// (`RecordValidation`), the same merge (a second import adds nothing), the same report.
///
/// Everything the worker sent is treated as untrusted input: HL7 times are parsed and bounded
/// here, numbers must be finite, texts are held to the limits typed input has. An entry that
/// fails is refused and named in the report; the rest is imported and the command exits 65.
///
/// Medications (with RxNorm codes), allergies, problems, immunizations (CVX), results and vital
/// signs (observations with LOINC codes) and encounters (past appointments); the patient fills
/// the medical ID's empty fields. Reference ranges and interpretation flags of results are kept
/// in the observation's notes until observations hold them as fields.
struct CCDAImporter {
    let path: String
    let profileID: Int64
    let time: TimeContext
    /// Vital signs and results seen so far that can fill the medical ID (height, weight, blood type).
    private var measured = FHIRImporter.MeasuredFacts()
    /// Devices and advance directives seen so far: lines for the medical ID's notes.
    private var noteLines: [String] = []

    init(path: String, profileID: Int64, time: TimeContext) {
        self.path = path
        self.profileID = profileID
        self.time = time
    }

    /// "C-CDA R2.1 Continuity of Care Document (CCD)", from the document's templates.
    static func format(_ document: CCDADocument) -> String {
        let roots = document.templates.map { String($0.split(separator: ":").first ?? "") }
        let release = document.templates.contains { $0.hasPrefix("2.16.840.1.113883.10.20.22.1.1:") } ? "R2.1"
            : roots.contains("2.16.840.1.113883.10.20.22.1.1") ? "R1.1" : nil
        let kinds = ["2.16.840.1.113883.10.20.22.1.2": "Continuity of Care Document (CCD)",
                     "2.16.840.1.113883.10.20.22.1.8": "Discharge Summary", "2.16.840.1.113883.10.20.22.1.14": "Referral Note",
                     "2.16.840.1.113883.10.20.22.1.4": "Consultation Note", "2.16.840.1.113883.10.20.22.1.9": "Progress Note",
                     "2.16.840.1.113883.10.20.22.1.3": "History and Physical", "2.16.840.1.113883.10.20.22.1.7": "Operative Note",
                     "2.16.840.1.113883.10.20.22.1.13": "Transfer Summary", "2.16.840.1.113883.10.20.22.1.15": "Care Plan"]
        let kind = roots.lazy.compactMap { kinds[$0] }.first ?? "document"
        return ["C-CDA", release, kind].compactMap { $0 }.joined(separator: " ")
    }

    /// Imports a document read whole: its entries, then what `finish` does.
    mutating func run(_ document: CCDADocument, _ db: Database, report: inout ImportReport) throws {
        let firstSkip = report.skipped.count
        for entry in document.entries { try take(entry, db, &report) }
        var rest = document
        rest.entries = []
        try finish(rest, db, report: &report, skipsAt: firstSkip)
    }

    /// After the last entry: the entries the result itself holds, what the reader left out
    /// (reported before the entries, at `skipsAt`, as the document has it), and the patient.
    mutating func finish(_ document: CCDADocument, _ db: Database, report: inout ImportReport, skipsAt firstSkip: Int) throws {
        for entry in document.entries { try take(entry, db, &report) }
        let skipped = document.skipped.map { ImportReport.Skip(entry: $0.location, type: $0.type, reason: Message($0.reason)) }
        report.skipped.insert(contentsOf: skipped, at: min(firstSkip, report.skipped.count))
        let facts = patient(document, &report)
        try ImportedRecords.fillMedicalID(db, profileID: profileID, time: time, facts: facts, measured: measured,
                                          source: "the document", noteLines: noteLines, report: &report)
    }

    /// Imports one entry the reader sent, or reports why it was left out or refused.
    mutating func take(_ entry: CCDAEntry, _ db: Database, _ report: inout ImportReport) throws {
        do {
            if let reason = entry.skip {
                report.skip(entry.location, type: entry.type, Message(reason))
                return
            }
            let repairs = ImportRepairs()
            switch entry.kind {
            case .medication:
                try take(try medication(entry, repairs), entry, repairs, kind: "medications", check: RecordValidation.check, db, &report)
            case .allergy:
                try take(try allergy(entry, repairs), entry, repairs, kind: "allergies", check: RecordValidation.check, db, &report)
            case .problem:
                try take(try problem(entry, repairs), entry, repairs, kind: "conditions", check: RecordValidation.check, db, &report)
            case .immunization:
                try take(try immunization(entry, repairs), entry, repairs, kind: "immunizations", check: RecordValidation.check, db, &report)
            case .result, .vitalSign:
                if let observation = try take(try observation(entry, repairs), entry, repairs, kind: "observations", check: RecordValidation.check, db, &report) {
                    measured.note(observation)
                }
            case .encounter:
                try take(try appointment(entry, repairs), entry, repairs, kind: "appointments", check: RecordValidation.check, db, &report)
            case .procedure:
                try take(try procedure(entry, repairs), entry, repairs, kind: "procedures", check: RecordValidation.check, db, &report)
            case .familyHistory:
                try take(try familyHistory(entry, repairs), entry, repairs, kind: "family_history", check: RecordValidation.check, db, &report)
            case .socialHistory:
                try take(try socialHistory(entry, repairs), entry, repairs, kind: "observations", check: RecordValidation.check, db, &report)
            case .device, .advanceDirective:
                switch try noteLine(entry) {
                case .skip(let reason): report.skip(entry.location, type: entry.type, Message(reason))
                case .record(let line): noteLines.append(line)
                }
            }
        } catch let error as FHIRFieldError {
            report.reject(entry.location, type: entry.type, "\(error.field): \(error.reason)")
        }
    }

    /// Stores a mapped entry; what was left out or mended to keep it is reported once it is kept.
    @discardableResult
    private func take<R: StoredRecord>(_ mapped: FHIRMapper.Mapped<R>, _ entry: CCDAEntry, _ repairs: ImportRepairs, kind: String,
                                       check: (inout R) throws -> Void, _ db: Database, _ report: inout ImportReport) throws -> R? {
        let kept = try ImportedRecords.take(mapped, location: entry.location, type: entry.type, kind: kind, formerKey: nil,
                                            check: check, profileID: profileID, now: time.now, db, &report)
        if kept != nil && !repairs.notes.isEmpty {
            report.repair(entry.location, type: entry.type, repairs.notes.joined(separator: "; "))
        }
        return kept
    }

    private var now: String { Timestamp.string(time.now) }

    // MARK: Identity

    /// The key that recognises an entry on a second import: its first id (root and extension)
    /// with what the entry is, else what it is alone. What it is: its kind, its code and the
    /// time it started or happened (and for an observation its value), never a status, an end
    /// or a note, which change when the record is updated.
    func source(_ entry: CCDAEntry, _ concept: FHIRElements.Concept?) -> RecordSource {
        var identity = [entry.kind.rawValue]
        identity += (concept?.codings ?? []).map { "\($0.system ?? "")|\($0.code)" }
        identity.append(concept?.text ?? "")
        identity.append(entry.time?.start ?? "")
        if entry.kind == .familyHistory {
            // Two relatives with the same condition are two entries.
            identity.append([entry.relation?.code, entry.relation?.display, entry.relation?.originalText, entry.age?.value, entry.age?.unit]
                .map { $0 ?? "" }.joined(separator: "|"))
        }
        if entry.kind == .result || entry.kind == .vitalSign || entry.kind == .socialHistory, let value = entry.value {
            identity.append([value.quantity?.value, value.quantity?.unit, value.code?.code, value.text].map { $0 ?? "" }.joined(separator: "|"))
        }
        let digest = (try? SHA256Hasher.hash(Array(identity.joined(separator: "\n").utf8)).hex) ?? ""
        let identifiers = entry.ids.prefix(100).map { SourceIdentifier(system: "urn:oid:\($0.root)", value: $0.extension ?? $0.root) }
        if let id = entry.ids.first {
            return RecordSource(key: "ccda:\(entry.kind.rawValue):id:\(id.root)|\(id.extension ?? "")#\(digest.prefix(16))", identifiers: identifiers)
        }
        return RecordSource(key: "ccda:\(entry.kind.rawValue):sha256:\(digest)", identifiers: identifiers)
    }

    // MARK: Records

    func medication(_ entry: CCDAEntry, _ repairs: ImportRepairs = ImportRepairs()) throws -> FHIRMapper.Mapped<Medication> {
        if entry.status == "nullified" { return .skip("entered in error (statusCode nullified)") }
        if entry.negated { return .skip("recorded as not taken (negationInd)") }
        guard let concept = Self.concept(entry.code, name: entry.name), let name = concept.name(preferring: [Coding.System.rxNorm]) else {
            if entry.code?.nullFlavor != nil { return .skip("names no medication (nullFlavor \(entry.code?.nullFlavor ?? ""))") }
            throw FHIRFieldError(field: "consumable.manufacturedProduct.manufacturedMaterial.code", reason: "missing; a medication activity names its drug")
        }
        let stopped = ["completed", "aborted", "cancelled"].contains(entry.status ?? "")
        let start = try repairs.time(entry.time?.start, field: "effectiveTime.low", zone: time.zone)?.date
        var end = try repairs.time(entry.time?.high, field: "effectiveTime.high", zone: time.zone)?.date
        if let s = start, let e = end, e.lastDay < s.firstDay {
            repairs.note("effectiveTime.high: \(e) is before the start, \(s); left out")
            end = nil
        }
        var schedule: MedicationSchedule = entry.asNeeded ? .asNeeded : .unscheduled
        var words: [String] = []
        if let period = entry.period, case .unscheduled = schedule {
            let amount = try repairs.optional { try Self.number(period.value, field: "effectiveTime.period") }
            if let amount, amount > 0, amount <= 1_000_000 {
                switch period.unit {
                case "h": schedule = .interval(minutes: max(1, Int((amount * 60).rounded())))
                case "min": schedule = .interval(minutes: max(1, Int(amount.rounded())))
                case "d": words.append(amount == 1 ? "once a day" : "every \(Observation.number(amount)) days")
                case "wk": words.append(amount == 1 ? "once a week" : "every \(Observation.number(amount)) weeks")
                default: words.append("every \(Observation.number(amount)) \(period.unit ?? "")")
                }
            }
        }
        if case .interval(let minutes) = schedule, minutes > 31 * 24 * 60 {
            schedule = .unscheduled
            words.append("every \(minutes / 1440) days")
        }
        if let route = entry.route.flatMap({ Self.concept($0, name: nil)?.name() }) { words.append(route.lowercased()) }
        if let text = entry.instructions { words.append(text) }
        if !entry.reasons.isEmpty {
            let reasons = entry.reasons.compactMap { Self.concept($0, name: nil)?.name(preferring: [Coding.System.snomed]) }
            if !reasons.isEmpty { words.append("for \(reasons.joined(separator: ", "))") }
        }
        let dose = try repairs.optional { try entry.dose.flatMap { try Self.doseText($0, field: "doseQuantity") } }
        let stoppedOn = stopped ? end.map { $0.lastDay.adding(days: 1) } : nil
        return .record(Medication(
            id: "", uid: "", name: name, dose: dose, form: nil, schedule: schedule, timeZone: nil, minIntervalMinutes: nil,
            maxPerDay: nil, start: start, end: end, status: stopped ? .stopped : .active, stoppedOn: stoppedOn,
            prescriber: entry.performer, pharmacy: nil, refills: nil, documentID: nil,
            instructions: words.isEmpty ? nil : words.joined(separator: "; "), notes: nil, codes: concept.codings,
            source: source(entry, concept), createdAt: now, updatedAt: now))
    }

    /// SNOMED CT codes of "no known allergy" statements, beside FHIR's list.
    static let noKnownAllergyCodes = FHIRMapper.noKnownAllergyCodes.union(["716186003", "409137002"])

    func allergy(_ entry: CCDAEntry, _ repairs: ImportRepairs = ImportRepairs()) throws -> FHIRMapper.Mapped<Allergy> {
        if entry.status == "nullified" { return .skip("entered in error (statusCode nullified)") }
        let typeCodes = [entry.allergyType?.code].compactMap { $0 } + (entry.allergyType?.translations.compactMap(\.code) ?? [])
        if entry.negated || typeCodes.contains(where: Self.noKnownAllergyCodes.contains) {
            return .skip("states that there is no known allergy, which is not an allergy to list")
        }
        // The substance is the participant's; some documents name it only in the observation
        // value's original text ("Allergy to substance", original text "Shellfish").
        let named = Self.concept(entry.code, name: entry.name)
            ?? entry.allergyType?.originalText.flatMap { $0 == entry.allergyType?.display ? nil : FHIRElements.Concept(text: $0, codings: []) }
        guard let concept = named, let substance = concept.name(preferring: [Coding.System.rxNorm, Coding.System.snomed]) else {
            return .skip("names no substance (participant playingEntity code)")
        }
        if substance.lowercased().hasPrefix("no known") { return .skip("states that there is no known allergy, which is not an allergy to list") }
        var reactions: [String] = []
        for reaction in entry.reactions {
            if let name = Self.concept(reaction, name: nil)?.name(preferring: [Coding.System.snomed]), !reactions.contains(name) {
                reactions.append(name)
            }
        }
        let severity = entry.severity.flatMap(Self.severity)
        let criticality: Allergy.Criticality? = switch entry.criticality?.code {
        case "CRITH": .high
        case "CRITL": .low
        case "CRITU": .unableToAssess
        default: nil
        }
        let category: Allergy.Category? = switch entry.allergyType?.code {
        case "416098002", "419511003", "59037007", "419101002": .medication
        case "414285001", "418471000", "235719002": .food
        case "426232007", "232347008": .environment
        default: nil
        }
        let status = Allergy.Status(rawValue: Self.clinicalStatus(entry, resolvedWhenEnded: entry.time?.high != nil)) ?? .active
        let since = try repairs.time(entry.time?.start, field: "effectiveTime.low", zone: time.zone)?.date
        return .record(Allergy(id: "", uid: "", substance: substance, reaction: reactions.isEmpty ? nil : reactions.joined(separator: ", "),
                               severity: severity, criticality: criticality, category: category, status: status, since: since,
                               notes: nil, codes: concept.codings, source: source(entry, concept), createdAt: now, updatedAt: now))
    }

    func problem(_ entry: CCDAEntry, _ repairs: ImportRepairs = ImportRepairs()) throws -> FHIRMapper.Mapped<Condition> {
        if entry.status == "nullified" { return .skip("entered in error (statusCode nullified)") }
        if entry.negated { return .skip("records the problem as absent (negationInd)") }
        guard let concept = Self.concept(entry.code, name: nil),
              let name = concept.name(preferring: [Coding.System.snomed, Coding.System.icd10CM, Coding.System.icd10]) else {
            return .skip("names no problem (value\(entry.code?.nullFlavor.map { " nullFlavor \($0)" } ?? ""))")
        }
        let since = try repairs.time(entry.time?.start, field: "effectiveTime.low", zone: time.zone)?.date
        var resolved = try repairs.time(entry.time?.high, field: "effectiveTime.high", zone: time.zone)?.date
        if let s = since, let r = resolved, r.lastDay < s.firstDay {
            repairs.note("effectiveTime.high: \(r) is before the onset, \(s); left out")
            resolved = nil
        }
        let status = Condition.Status(rawValue: Self.clinicalStatus(entry, resolvedWhenEnded: resolved != nil)) ?? .active
        return .record(Condition(id: "", uid: "", name: name, status: status, since: since, resolved: status == .active ? nil : resolved,
                                 notes: nil, codes: concept.codings, source: source(entry, concept), createdAt: now, updatedAt: now))
    }

    func immunization(_ entry: CCDAEntry, _ repairs: ImportRepairs = ImportRepairs()) throws -> FHIRMapper.Mapped<Immunization> {
        if entry.status == "nullified" { return .skip("entered in error (statusCode nullified)") }
        if entry.negated { return .skip("not given (negationInd)") }
        if entry.status == "cancelled" || entry.status == "aborted" { return .skip("not given (statusCode \(entry.status!))") }
        if entry.moodCode == "INT" { return .skip("planned, not given (moodCode INT)") }
        guard let concept = Self.concept(entry.code, name: entry.name), let vaccine = concept.name(preferring: [Coding.System.cvx]) else {
            return .skip("names no vaccine (manufacturedMaterial code)")
        }
        // Without a date (or with one phr cannot read) it is kept undated, and the report says so.
        let date = try repairs.optional { try Self.knownTime(entry.time?.start, field: "effectiveTime", zone: time.zone, repairs: repairs)?.date }
        if date == nil && entry.time?.start == nil { repairs.note("effectiveTime: none given; kept undated") }
        return .record(Immunization(id: "", uid: "", vaccine: vaccine, date: date, doseNumber: nil, lot: entry.lot, notes: nil,
                                    codes: concept.codings, source: source(entry, concept), createdAt: now, updatedAt: now))
    }

    func observation(_ entry: CCDAEntry, _ repairs: ImportRepairs = ImportRepairs()) throws -> FHIRMapper.Mapped<Observation> {
        let status: Observation.Status
        switch entry.status ?? "completed" {
        case "nullified": return .skip("entered in error (statusCode nullified)")
        case "cancelled", "aborted": return .skip("not done (statusCode \(entry.status!))")
        case "completed": status = .final
        case "active", "new", "held", "suspended": status = .preliminary
        default: status = .unknown
        }
        guard let concept = Self.concept(entry.code, name: nil), let name = concept.name(preferring: [Coding.System.loinc, Coding.System.snomed]) else {
            return .skip("says nothing about what was measured (code\(entry.code?.nullFlavor.map { " nullFlavor \($0)" } ?? ""))")
        }
        guard let value = entry.value, value.nullFlavor == nil else { return .skip("has no value") }
        var number: Double?
        var unit: String?
        // The UCUM unit as written, "1" (dimensionless: an INR, a specific gravity) included,
        // though a value shows none.
        var ucum: String?
        var text: String?
        var codes: [Coding]?
        switch value.type {
        case "PQ", "INT", "REAL", "MO":
            guard let quantity = value.quantity, let parsed = try Self.number(quantity.value, field: "value") else { return .skip("has no value") }
            number = parsed
            unit = quantity.unit == "1" ? nil : quantity.unit
            ucum = quantity.unit
        case "IVL_PQ", "IVL_INT", "IVL_REAL":
            let low = try value.low.flatMap { try Self.doseText($0, field: "value.low") }
            let high = try value.high.flatMap { try Self.doseText($0, field: "value.high") }
            guard low != nil || high != nil else { return .skip("has no value") }
            text = low.map { l in high.map { "\(l)–\($0)" } ?? "≥ \(l)" } ?? "≤ \(high!)"
        case "CD", "CE", "CV", "CO", "CS":
            guard let coded = value.code.flatMap({ Self.concept($0, name: nil) }) else { return .skip("has no value") }
            text = coded.name(preferring: [Coding.System.snomed, Coding.System.loinc])
            codes = coded.codings.isEmpty ? nil : coded.codings
        default:
            guard let words = value.text, !words.isEmpty else { return .skip("has no value") }
            text = words
        }
        let effective = try repairs.time(entry.time?.start, field: "effectiveTime", zone: time.zone)
        var notes: [String] = []
        // The lab fields (issue 15) hold the first reference range, the interpretation and the
        // UCUM unit (C-CDA physical quantities are UCUM); notes keep what they cannot: further
        // ranges and interpretations the flags do not name.
        let flag = entry.interpretations.lazy.compactMap { $0.code.flatMap { LabFlag(rawValue: $0.uppercased()) } }.first
        let unnamed = entry.interpretations.filter { code in code.code.flatMap { LabFlag(rawValue: $0.uppercased()) } == nil }
        let otherFlags = unnamed.compactMap { code -> String? in
            guard code.nullFlavor == nil else { return nil }
            let words = code.display ?? code.code.flatMap { Self.interpretationWords[$0] }
            return [words, code.code.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        }.filter { !$0.isEmpty }
        if !otherFlags.isEmpty { notes.append("interpretation: \(otherFlags.joined(separator: ", "))") }
        var labRange: ReferenceRange?
        for range in entry.ranges {
            let low = try repairs.optional { try range.low.flatMap { try Self.doseText($0, field: "referenceRange.low") } }
            let high = try repairs.optional { try range.high.flatMap { try Self.doseText($0, field: "referenceRange.high") } }
            if labRange == nil {
                // A bound doseText read as a range ("1-2") is no number: it stays in words.
                let lowValue = low == nil ? nil : range.low.flatMap { try? Self.number($0.value, field: "referenceRange.low") }
                let highValue = high == nil ? nil : range.high.flatMap { try? Self.number($0.value, field: "referenceRange.high") }
                if lowValue != nil || highValue != nil || range.text != nil {
                    labRange = ReferenceRange(low: lowValue, high: highValue, text: lowValue == nil && highValue == nil ? range.text : nil)
                    continue
                }
            }
            let bounds = low.map { l in high.map { "\(l)–\($0)" } ?? "≥ \(l)" } ?? high.map { "≤ \($0)" }
            if let words = bounds ?? range.text { notes.append("reference range: \(words)") }
        }
        let panel = entry.panel.flatMap({ Self.concept($0, name: nil)?.name(preferring: [Coding.System.loinc]) })
        var lab: LabDetails?
        if entry.kind != .vitalSign {
            let analyte = concept.codings.lazy.filter { $0.system == Coding.System.loinc }.compactMap { AnalyteCatalog.entry(loinc: $0.code) }.first
                ?? AnalyteCatalog.lookup(name, unit: unit)
            lab = LabDetails(analyte: analyte?.key, unitUCUM: ucum, range: labRange, flag: flag, panel: panel == name ? nil : panel,
                             origin: .fhir, reviewed: false)
        } else if let panel, panel != name {
            notes.append("panel: \(panel)")
        }
        return .record(Observation(id: "", uid: "", name: name, category: entry.kind == .vitalSign ? "vital-signs" : "laboratory",
                                   status: status, effective: effective?.text, valueNumber: number, valueUnit: unit, valueText: text,
                                   valueCodes: codes, components: [], notes: notes.isEmpty ? nil : notes.joined(separator: "\n"),
                                   codes: concept.codings, source: source(entry, concept), lab: lab, createdAt: now, updatedAt: now))
    }

    /// A procedure done (moodCode EVN): what, when, where on the body, by whom.
    func procedure(_ entry: CCDAEntry, _ repairs: ImportRepairs = ImportRepairs()) throws -> FHIRMapper.Mapped<Procedure> {
        if entry.status == "nullified" { return .skip("entered in error (statusCode nullified)") }
        if entry.negated { return .skip("records the procedure as not done (negationInd)") }
        if let mood = entry.moodCode, mood != "EVN" { return .skip("planned, not done (moodCode \(mood))") }
        guard let concept = Self.concept(entry.code, name: nil),
              let name = concept.name(preferring: [Coding.System.snomed, "http://www.ama-assn.org/go/cpt", Coding.System.icd10]) else {
            return .skip("names no procedure (code\(entry.code?.nullFlavor.map { " nullFlavor \($0)" } ?? ""))")
        }
        let status: Procedure.Status
        switch entry.status ?? "completed" {
        case "completed": status = .completed
        case "active": status = .inProgress
        case "aborted": status = .stopped
        case "cancelled": return .skip("not done (statusCode cancelled)")
        case "held", "suspended": status = .onHold
        case "new": status = .preparation
        default: status = .unknown
        }
        let date = try repairs.optional { try Self.knownTime(entry.time?.start, field: "effectiveTime", zone: time.zone, repairs: repairs)?.date }
        let site = entry.bodySite.flatMap { Self.concept($0, name: nil)?.name(preferring: [Coding.System.snomed]) }
        return .record(Procedure(id: "", uid: "", name: name, date: date, status: status, bodySite: site, performer: entry.performer,
                                 notes: nil, codes: concept.codings, source: source(entry, concept), createdAt: now, updatedAt: now))
    }

    /// A relative's condition: who (HL7 RoleCode, else the words given), what, from what age,
    /// and whether they died of it.
    func familyHistory(_ entry: CCDAEntry, _ repairs: ImportRepairs = ImportRepairs()) throws -> FHIRMapper.Mapped<FamilyHistory> {
        if entry.status == "nullified" { return .skip("entered in error (statusCode nullified)") }
        if entry.negated { return .skip("records the condition as absent (negationInd)") }
        let code = entry.relation?.nullFlavor == nil ? entry.relation?.code : nil
        guard let relation = code.flatMap(FamilyHistory.relationWords(for:))
                ?? [entry.relation?.display, entry.relation?.originalText].lazy.compactMap({ $0?.trimmingWhitespace() }).first(where: { !$0.isEmpty }) else {
            return .skip("names no relative (subject/relatedSubject/code)")
        }
        guard let concept = Self.concept(entry.code, name: nil),
              let condition = concept.name(preferring: [Coding.System.snomed, Coding.System.icd10CM, Coding.System.icd10]) else {
            return .skip("names no condition (value\(entry.code?.nullFlavor.map { " nullFlavor \($0)" } ?? ""))")
        }
        var onsetAge: Int?
        if let age = entry.age {
            let years = try repairs.optional { () -> Double? in
                guard let number = try Self.number(age.value, field: "age") else { return nil }
                switch age.unit ?? "a" {
                case "a": return number
                case "mo": return number / 12
                case "wk": return number / 52.18
                case "d": return number / 365.25
                default: throw FHIRFieldError(field: "age", reason: "'\(age.unit!)' is not a unit of age")
                }
            }
            if let years {
                if (0...150).contains(years) { onsetAge = Int(years) } else { repairs.note("age: \(years) years is not an age; left out") }
            }
        }
        return .record(FamilyHistory(id: "", uid: "", relation: relation, relationCode: code.flatMap { FamilyHistory.relationWords(for: $0) != nil ? $0.uppercased() : nil },
                                     condition: condition, onsetAge: onsetAge, causeOfDeath: entry.causeOfDeath ? true : nil, notes: nil,
                                     codes: concept.codings, source: source(entry, concept), createdAt: now, updatedAt: now))
    }

    /// LOINC 72166-2, "Tobacco smoking status": the one entry of a social history section kept
    /// (as an observation of category social-history, as FHIR's US Core has it).
    static let smokingStatus = "72166-2"

    func socialHistory(_ entry: CCDAEntry, _ repairs: ImportRepairs = ImportRepairs()) throws -> FHIRMapper.Mapped<Observation> {
        guard entry.type == "Smoking Status Observation" || entry.code?.code == Self.smokingStatus else {
            return .skip("phr keeps only the smoking status of the social history")
        }
        if entry.status == "nullified" { return .skip("entered in error (statusCode nullified)") }
        guard let value = entry.value, value.nullFlavor == nil, let coded = value.code.flatMap({ Self.concept($0, name: nil) }),
              let words = coded.name(preferring: [Coding.System.snomed]) else {
            return .skip("has no value")
        }
        let effective = try repairs.time(entry.time?.start, field: "effectiveTime", zone: time.zone)
        let concept = Self.concept(entry.code, name: nil)
        var codes = concept?.codings ?? []
        if !codes.contains(where: { $0.system == Coding.System.loinc && $0.code == Self.smokingStatus }) {
            codes.insert(Coding(system: Coding.System.loinc, code: Self.smokingStatus, display: "Tobacco smoking status"), at: 0)
        }
        return .record(Observation(id: "", uid: "", name: "Tobacco smoking status", category: "social-history", status: .final,
                                   effective: effective?.text, valueNumber: nil, valueUnit: nil, valueText: words,
                                   valueCodes: coded.codings.isEmpty ? nil : coded.codings, components: [], notes: nil, codes: codes,
                                   source: source(entry, concept), lab: nil, createdAt: now, updatedAt: now))
    }

    /// A device or an advance directive as a line of the medical ID's notes ("Device: cardiac
    /// pacemaker (since 2019-05-02)", "Advance directive: resuscitation status: do not
    /// resuscitate (from 2024-01-10)"): what a first responder reading the emergency card needs.
    func noteLine(_ entry: CCDAEntry) throws -> FHIRMapper.Mapped<String> {
        if entry.status == "nullified" { return .skip("entered in error (statusCode nullified)") }
        if entry.negated { return .skip("records it as absent (negationInd)") }
        let since = (try? Self.knownTime(entry.time?.start, field: "effectiveTime", zone: time.zone, repairs: ImportRepairs()))??.date
        func clean(_ text: String) -> String { text.trimmingWhitespace().replacingOccurrences(of: "\n", with: " ") }
        if entry.kind == .device {
            guard let name = Self.concept(entry.code, name: entry.name)?.name(preferring: [Coding.System.snomed]) else {
                return .skip("names no device (playingDevice code)")
            }
            return .record("Device: \(clean(name))" + (since.map { " (since \($0))" } ?? ""))
        }
        let kind = Self.concept(entry.code, name: nil)?.name(preferring: [Coding.System.snomed, Coding.System.loinc])
        let value = entry.value.flatMap { value in value.code.flatMap { Self.concept($0, name: nil)?.name(preferring: [Coding.System.snomed]) } ?? value.text }
        let words = [kind, value].compactMap { $0.map(clean) }.filter { !$0.isEmpty }
        guard !words.isEmpty else { return .skip("says nothing of the directive (code and value)") }
        return .record("Advance directive: \(words.joined(separator: ": "))" + (since.map { " (from \($0))" } ?? ""))
    }

    /// An encounter: a past appointment, at its start, with the clinician seen.
    func appointment(_ entry: CCDAEntry, _ repairs: ImportRepairs = ImportRepairs()) throws -> FHIRMapper.Mapped<Appointment> {
        if entry.status == "nullified" { return .skip("entered in error (statusCode nullified)") }
        guard let startTime = try Self.knownTime(entry.time?.start, field: "effectiveTime", zone: time.zone, repairs: repairs) else {
            return .skip("has no time (effectiveTime)")
        }
        // The visit keeps the wall-clock time and offset the document gave (a visit at 21:44
        // -05:00 stays an evening visit, not a morning one in the importing user's zone); a
        // time without an offset is in the user's zone.
        let zone = Self.offsetZone(startTime) ?? time.zone
        let allDay = !startTime.hasTime
        var minutes = allDay ? 1440 : AppointmentStore.defaultDurationMinutes
        var notes: [String] = []
        let concept = Self.concept(entry.code, name: nil)
        let kind = concept?.name(preferring: ["http://www.ama-assn.org/go/cpt", Coding.System.snomed])
        let reasons = entry.reasons.compactMap { Self.concept($0, name: nil)?.name(preferring: [Coding.System.snomed]) }
        if entry.performer != nil && !reasons.isEmpty, let kind { notes.append(kind) }
        let start: LocalDateTime
        if allDay {
            guard let day = startTime.date.calendarDate else { return .skip("has no day (effectiveTime \(startTime.text))") }
            start = LocalDateTime(date: day, time: LocalTime(hour: 0, minute: 0)!)
        } else {
            guard let instant = FHIRElements.instant(startTime) else {
                throw FHIRFieldError(field: "effectiveTime", reason: "'\(startTime.text)' is not in the years phr accepts")
            }
            start = LocalDateTime(instant, in: zone)
            if let endTime = try repairs.time(entry.time?.high, field: "effectiveTime.high", zone: zone), endTime.hasTime,
               let end = FHIRElements.instant(endTime) {
                if end < instant {
                    repairs.note("effectiveTime.high: \(endTime.text) is before the start; left out")
                } else if end.timeIntervalSince(instant) > TimeInterval(RecordValidation.maximumAppointmentMinutes * 60) {
                    // An inpatient stay longer than an appointment can be: the stay's end goes into the notes.
                    let until = LocalDateTime(end, in: Self.offsetZone(endTime) ?? zone)
                    notes.append("until \(until.display)")
                    repairs.note("effectiveTime.high: the stay lasts \(Int(end.timeIntervalSince(instant) / 86_400)) days, longer than an appointment in phr (31 days); its end is kept in the notes")
                } else {
                    minutes = max(1, Int(end.timeIntervalSince(instant) / 60))
                }
            }
        }
        let status: Appointment.Status = entry.status == "cancelled" || entry.status == "aborted" ? .cancelled : .confirmed
        return .record(Appointment(
            id: "", uid: "", with: entry.performer ?? kind ?? "Encounter", start: start,
            timeZone: zone.identifier, durationMinutes: minutes, allDay: allDay, location: entry.place,
            reason: reasons.isEmpty ? (entry.performer == nil ? nil : kind) : reasons.joined(separator: ", "),
            notes: notes.isEmpty ? nil : notes.joined(separator: "\n"),
            documentID: nil, status: status, remindMinutes: nil,
            sequence: 0, source: source(entry, concept), createdAt: now, updatedAt: now))
    }

    /// The patient, for the medical ID; a name or birth time phr cannot keep is refused and
    /// reported, and the rest of the patient still used.
    func patient(_ document: CCDADocument, _ report: inout ImportReport) -> ImportedRecords.PatientFacts? {
        guard let patient = document.patient else { return nil }
        var name: String?
        do {
            name = try RecordFields.optionalText(patient.name, field: Field.path("name"), limit: RecordFields.maximumNameLength)
        } catch RecordError.invalidField(let field, let reason) {
            report.reject("recordTarget", type: "Patient", "\(field.name): \(reason)")
        } catch {
            report.reject("recordTarget", type: "Patient", "name: unreadable")
        }
        var birth: CalendarDate?
        do {
            birth = try Self.time(patient.birthTime, field: "birthTime", zone: time.zone)?.date.calendarDate
        } catch let error as FHIRFieldError {
            report.reject("recordTarget", type: "Patient", "\(error.field): \(error.reason)")
        } catch {
            report.reject("recordTarget", type: "Patient", "birthTime: unreadable")
        }
        let sex: MedicalID.Sex? = switch patient.gender {
        case "F": .female
        case "M": .male
        case "UN": .other
        default: nil
        }
        let identifiers = patient.identifiers.prefix(100).filter { $0.root.count <= 1000 && ($0.extension?.count ?? 0) <= 1000 }
            .map { SourceIdentifier(system: "urn:oid:\($0.root)", value: $0.extension ?? $0.root) }
        return ImportedRecords.PatientFacts(name: name, dateOfBirth: birth, sex: sex, identifiers: Array(identifiers))
    }

    // MARK: Values

    /// OIDs of the code systems phr names, as FHIR's URIs; others stay as urn:oid:.
    static let systems = [
        "2.16.840.1.113883.6.88": Coding.System.rxNorm, "2.16.840.1.113883.6.96": Coding.System.snomed,
        "2.16.840.1.113883.6.1": Coding.System.loinc, "2.16.840.1.113883.12.292": Coding.System.cvx,
        "2.16.840.1.113883.6.90": Coding.System.icd10CM, "2.16.840.1.113883.6.3": Coding.System.icd10,
        "2.16.840.1.113883.6.73": Coding.System.atc, "2.16.840.1.113883.6.8": Coding.System.ucum,
        "2.16.840.1.113883.6.12": "http://www.ama-assn.org/go/cpt", "2.16.840.1.113883.6.69": "http://hl7.org/fhir/sid/ndc",
        "2.16.840.1.113883.5.83": "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation",
    ]

    static let interpretationWords = ["N": "normal", "H": "high", "L": "low", "HH": "critically high", "LL": "critically low",
                                      "A": "abnormal", "AA": "critically abnormal", "POS": "positive", "NEG": "negative"]

    /// A CD with its translations as codings; its original text (or the name in words the entry
    /// gives) as the text.
    static func concept(_ code: CCDACode?, name: String?) -> FHIRElements.Concept? {
        var codings: [Coding] = []
        for item in [code].compactMap({ $0 }) + (code?.translations ?? []) {
            guard item.nullFlavor == nil, let value = item.code, !value.isEmpty else { continue }
            let system = item.system.map { systems[$0] ?? "urn:oid:\($0)" }
            codings.append(Coding(system: system, code: value, display: item.display))
        }
        var text = code?.originalText ?? (codings.contains { $0.display != nil } ? nil : name)
        if codings.isEmpty && text == nil {
            // Uncoded (code="", a nullFlavor) but named: the displayName still says what it is.
            text = ([code].compactMap { $0 } + (code?.translations ?? [])).lazy.compactMap { $0.display?.trimmingWhitespace() }.first { !$0.isEmpty }
        }
        guard !codings.isEmpty || text != nil else { return nil }
        return FHIRElements.Concept(text: text, codings: codings)
    }

    /// SNOMED CT severities (C-CDA's Severity Observation), else the words of the display.
    static func severity(_ code: CCDACode) -> Allergy.Severity? {
        switch code.code {
        case "255604002": return .mild
        case "6736007", "371923003": return .moderate
        case "24484000", "371924009", "399166001": return .severe
        default:
            let words = (code.display ?? code.originalText ?? "").lowercased()
            return words.contains("severe") ? .severe : words.contains("moderate") ? .moderate : words.contains("mild") ? .mild : nil
        }
    }

    /// Active, inactive or resolved: R1.1's status observation (SNOMED CT), else the concern act
    /// and the end of the observation (R2.1).
    static func clinicalStatus(_ entry: CCDAEntry, resolvedWhenEnded: Bool) -> String {
        switch entry.statusValue?.code {
        case "55561003": return "active"
        case "73425007": return "inactive"
        case "413322009": return "resolved"
        default: break
        }
        if resolvedWhenEnded || entry.concernStatus == "completed" { return "resolved" }
        if entry.concernStatus == "suspended" { return "inactive" }
        return "active"
    }

    /// A number as HL7 writes it (a decimal); nil when there is none.
    static func number(_ text: String?, field: String) throws -> Double? {
        guard let text = text?.trimmingWhitespace(), !text.isEmpty else { return nil }
        guard text.count <= 40, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }), let value = Double(text),
              value.isFinite, abs(value) < 1e15 else {
            throw FHIRFieldError(field: field, reason: "'\(text.prefix(40))' is not a number phr can keep")
        }
        return value
    }

    /// "500 mg", "1-2", "5 mL".
    static func doseText(_ quantity: CCDAQuantity, field: String) throws -> String? {
        guard let value = quantity.value?.trimmingWhitespace(), !value.isEmpty else { return nil }
        if let number = try? number(value, field: field) {
            return FHIRElements.doseText((number, quantity.unit))
        }
        let parts = value.split(separator: "-", maxSplits: 1).map(String.init)
        guard parts.count == 2, let low = try number(parts[0], field: field), let high = try number(parts[1], field: field) else {
            throw FHIRFieldError(field: field, reason: "'\(value.prefix(40))' is not a number phr can keep")
        }
        return FHIRElements.doseText((low, nil)) + "-" + FHIRElements.doseText((high, quantity.unit))
    }

    /// A time an entry cannot do without: a vendor's "unknown" sentinel is no time (the entry is
    /// skipped as having none), anything else unreadable is refused.
    static func knownTime(_ text: String?, field: String, zone: TimeZone, repairs: ImportRepairs) throws -> FHIRElements.DateTime? {
        isUnknownSentinel(text) ? nil : try time(text, field: field, zone: zone, repairs: repairs)
    }

    /// A vendor's "unknown" time: all zeros, or year 0001 ("00010101000000", "000000").
    static func isUnknownSentinel(_ text: String?) -> Bool {
        guard let digits = text?.trimmingWhitespace().prefix(while: \.isNumber), digits.count >= 4 else { return false }
        return digits.hasPrefix("000")
    }

    /// The fixed-offset zone of a time that gave its offset ("-05:00"); nil for a date, or a
    /// time without one.
    static func offsetZone(_ time: FHIRElements.DateTime) -> TimeZone? {
        guard time.hasTime, time.text.count >= 6 else { return nil }
        let tail = time.text.suffix(6)
        guard let sign = tail.first, sign == "+" || sign == "-", tail.dropFirst(3).first == ":",
              let hours = Int(tail.dropFirst().prefix(2)), let minutes = Int(tail.suffix(2)) else { return nil }
        return TimeZone(secondsFromGMT: (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1))
    }

    /// An HL7 TS ("2015", "201506", "20150622", "201506221030", "20150622103015.123-0500") as a
    /// FHIR date or dateTime. A time without an offset is read in the user's zone.
    ///
    /// With `repairs`, a time whose digits stop short of a precision ("2015062", "20150622103")
    /// is read to the last whole one (2015-06, 2015-06-22T10), noted; and a vendor's "unknown"
    /// sentinel (all zeros, year 0001) is refused as such, so that the note says what it was.
    static func time(_ text: String?, field: String, zone: TimeZone, repairs: ImportRepairs? = nil) throws -> FHIRElements.DateTime? {
        guard let text = text?.trimmingWhitespace(), !text.isEmpty else { return nil }
        let shown = String(text.prefix(40))
        // Worded only when needed: every entry's times pass through here.
        func invalid() -> FHIRFieldError {
            FHIRFieldError(field: field, reason: CalendarDate.dateReason(shown, otherwise: "'\(shown)' is not an HL7 time (YYYYMMDDHHMMSS±ZZZZ)"))
        }
        guard text.count <= 40, text.allSatisfy({ $0.isASCII }) else { throw invalid() }
        var digits = String(text.prefix { $0.isNumber })
        if repairs != nil && Self.isUnknownSentinel(text) {
            throw FHIRFieldError(field: field, reason: "'\(shown)' stands for an unknown time")
        }
        var rest = text.dropFirst(digits.count)
        var fraction = ""
        if rest.hasPrefix(".") {
            fraction = String(rest.dropFirst().prefix { $0.isNumber })
            rest = rest.dropFirst(1 + fraction.count)
            guard !fraction.isEmpty, digits.count == 14 else { throw invalid() }
        }
        var offset: String?
        if let sign = rest.first, sign == "+" || sign == "-" {
            let value = rest.dropFirst()
            guard value.count == 4, value.allSatisfy(\.isNumber), let hours = Int(value.prefix(2)), let minutes = Int(value.suffix(2)),
                  hours <= 14, minutes <= 59 else { throw invalid() }
            offset = "\(sign)\(value.prefix(2)):\(value.suffix(2))"
            rest = ""
        }
        guard rest.isEmpty else { throw invalid() }
        if ![4, 6, 8, 10, 12, 14].contains(digits.count) {
            guard let repairs, fraction.isEmpty, digits.count > 4, digits.count < 14 else { throw invalid() }
            digits = String(digits.prefix(digits.count - 1))
            let read = [4: "a year", 6: "a month", 8: "a day", 10: "an hour", 12: "a minute"][digits.count] ?? "less"
            repairs.note("\(field): '\(shown)' has too few digits for its precision; read as \(read)")
        }
        func part(_ from: Int, _ length: Int) -> String {
            let start = digits.index(digits.startIndex, offsetBy: from)
            return String(digits[start..<digits.index(start, offsetBy: length)])
        }
        var date = part(0, 4)
        if digits.count >= 6 { date += "-" + part(4, 2) }
        if digits.count >= 8 { date += "-" + part(6, 2) }
        var fhir = date
        if digits.count > 8 {
            let clock = part(8, 2) + ":" + (digits.count >= 12 ? part(10, 2) : "00") + ":" + (digits.count >= 14 ? part(12, 2) : "00")
                + (fraction.isEmpty ? "" : "." + fraction)
            if offset == nil {
                // No offset: the user's zone at that wall time.
                guard let day = CalendarDate(date), let hour = Int(part(8, 2)), let minute = Int(digits.count >= 12 ? part(10, 2) : "00"),
                      let local = LocalTime(hour: hour, minute: minute) else { throw invalid() }
                let seconds = zone.secondsFromGMT(for: LocalDateTime(date: day, time: local).instant(in: zone))
                let sign = seconds < 0 ? "-" : "+"
                offset = sign + String(format: "%02d:%02d", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
            }
            fhir += "T" + clock + offset!
        }
        do {
            return try FHIRElements.dateTime(.string(fhir), field: field)
        } catch is FHIRFieldError {
            throw invalid()
        }
    }
}

extension ImportRepairs {
    /// An optional HL7 time: an unreadable one is left out, noted; one with too few digits is
    /// read to the precision its digits give, noted.
    func time(_ text: String?, field: String, zone: TimeZone) throws -> FHIRElements.DateTime? {
        try optional { try CCDAImporter.time(text, field: field, zone: zone, repairs: self) }
    }
}
