import Foundation
import GRDB

/// Lab results of one profile: typing them in, listing them, trends. Results are observations
/// (category laboratory) with lab details; this store adds what lab results need on top of
/// `ObservationStore`.
public struct LabStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `phr lab add` takes, as typed.
    public struct Input: Sendable {
        public var name: String
        public var value: String
        public var unit: String?
        public var range: String?
        public var date: String?
        public var flag: String?
        public var panel: String?
        public var notes: String?

        public init(name: String, value: String, unit: String? = nil) {
            self.name = name
            self.value = value
            self.unit = unit
        }
    }

    /// Adds a typed result: reviewed, origin typed, LOINC and UCUM when the catalog knows them.
    @discardableResult
    public func add(_ input: Input) throws -> Observation {
        let name = try RecordFields.text(input.name, field: Field.argument("analyte"), limit: RecordFields.maximumNameLength)
        guard let value = LabGrammar.value(input.value) else {
            throw RecordError.invalidOption(option: Field.argument("value"), reason: "'\(input.value.prefix(40))' is not a result",
                                            hint: "give a number (12, 3,6), a comparison (>60) or a word (Negative, Trace, 2+)")
        }
        let unit = try RecordFields.optionalText(input.unit, field: Field.argument("unit"), limit: 40)
        var range: ReferenceRange?
        if let text = input.range, !text.isEmpty {
            range = LabGrammar.range(text)
            if range?.low == nil && range?.high == nil && range?.text.map({ LabGrammar.number(String($0.prefix(1))) != nil }) == true {
                throw RecordError.invalidOption(option: Field.range, reason: "'\(text.prefix(40))' is not a range",
                                                hint: "write it as the report does: 30-400, <0.41, >=60 or a word (Negative)")
            }
        }
        var flag = value.flag
        if let text = input.flag, !text.isEmpty {
            guard let typed = LabGrammar.flag(text) else {
                throw RecordError.invalidOption(option: Field.flag, reason: "'\(text.prefix(20))' is not a flag", hint: "use H, L, HH, LL, A or N")
            }
            flag = typed
        }
        // A flag is stored only as the report gives it (typed, or a value marked * or !); one
        // the range implies is worked out when read (`effectiveFlag`), as the report reader does.
        if flag == nil, value.marked, let number = value.number { flag = LabFlag.computed(number, range: range) ?? .abnormal }
        let date = try input.date.map { try RecordFields.date($0, field: Field.date) } ?? CalendarDate(time.now, in: time.zone)
        // A result is taken once the sample was: a date ahead of today is a typo (2150 for 2015)
        // that would become every trend's latest value.
        if date > time.today() { throw RecordError.invalidField(field: Field.date, reason: "\(date) is in the future") }
        let ucum = unit.flatMap(LabUnits.ucum)
        let analyte = AnalyteCatalog.lookup(name, unit: unit)
        let now = Timestamp.string(time.now)
        var observation = Observation(
            id: "", uid: "", name: name, category: "laboratory", status: .final, effective: date.description,
            valueNumber: value.number, valueUnit: unit, valueText: value.number == nil ? value.text : nil, valueCodes: nil, components: [],
            notes: try RecordFields.optionalText(input.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true),
            codes: analyte.map { [Coding(system: Coding.System.loinc, code: $0.loinc[0], display: $0.name)] } ?? [], source: nil,
            lab: LabDetails(analyte: analyte?.key, unitUCUM: ucum, range: range, flag: flag,
                            panel: try RecordFields.optionalText(input.panel, field: Field.panel) ?? analyte?.panel, origin: .typed, reviewed: true),
            createdAt: now, updatedAt: now)
        return try vault.database.write { db in
            (observation.id, observation.uid) = try RecordRows.newIdentity(db, table: ObservationStore.table)
            try ObservationStore.insert(db, observation, profileID: profile.id)
            return observation
        }
    }

    /// What `phr lab list` shows.
    public struct Filter: Sendable {
        public var analyte: String?
        public var since: CalendarDate?
        public var flaggedOnly = false
        public init() {}
    }

    /// Lab results, newest first.
    public func list(_ filter: Filter = Filter()) throws -> [Observation] {
        let all = try vault.database.read { db in try ObservationStore.all(db, profileID: profile.id) }.filter(\.isLabResult)
        let matcher = filter.analyte.map(AnalyteMatcher.init)
        return all.filter { observation in
            if let matcher, !matcher.matches(observation) { return false }
            if let since = filter.since, let day = observation.day, day < since { return false }
            if filter.flaggedOnly && observation.effectiveFlag?.isAbnormal != true { return false }
            return true
        }.sorted { ($0.effective ?? "", $0.id) > ($1.effective ?? "", $1.id) }
    }

    public func get(_ prefix: String) throws -> Observation {
        try ObservationStore(vault: vault, profile: profile).get(prefix)
    }

    /// The series of one analyte in one unit, oldest first.
    public func trend(_ analyte: String, since: CalendarDate? = nil, choice: LabUnitChoice = .printed) throws -> LabTrend {
        var filter = Filter()
        filter.analyte = analyte
        filter.since = since
        let results = try list(filter)
        guard !results.isEmpty else { throw RecordError.noLabResults(analyte: analyte) }
        return LabTrend(results: results.reversed(), choice: choice)
    }

    /// The series of each of `analytes`, from one read of the results (`phr report --analyte`).
    public func trends(_ analytes: [String], choice: LabUnitChoice = .printed) throws -> [LabTrend] {
        let results = try list()
        return try analytes.map { analyte in
            let matching = results.filter(AnalyteMatcher(analyte).matches)
            guard !matching.isEmpty else { throw RecordError.noLabResults(analyte: analyte) }
            return LabTrend(results: matching.reversed(), choice: choice)
        }
    }

    /// The series of the analyte `observationID` is a result of, as `summaries` groups them.
    public func series(of observationID: String, choice: LabUnitChoice = .printed) throws -> LabTrend {
        let wanted = try get(observationID)
        guard wanted.isLabResult else { throw RecordError.noLabResults(analyte: wanted.name) }
        let key = AnalyteMatcher.groupKey(wanted)
        return LabTrend(results: try list().filter { AnalyteMatcher.groupKey($0) == key }.reversed(), choice: choice)
    }

    /// Every analyte with its latest value and which way it went since the one before.
    public func summaries(choice: LabUnitChoice = .printed) throws -> [LabTrend] {
        let results = try list()
        var groups: [String: [Observation]] = [:]
        var order: [String] = []
        for observation in results.reversed() {
            let key = AnalyteMatcher.groupKey(observation)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(observation)
        }
        return order.map { LabTrend(results: groups[$0]!, choice: choice) }
            .sorted { ($0.displayName.lowercased(), $0.points.first?.observation.id ?? "") < ($1.displayName.lowercased(), $1.points.first?.observation.id ?? "") }
    }
}

extension Observation {
    /// The day it was taken, from `effective`.
    public var day: CalendarDate? {
        effective.flatMap { CalendarDate(String($0.prefix(10))) }
    }
}

/// Which results an analyte name asks for: the catalog's analyte (by key or LOINC), else the
/// name as written, compared without case and accents.
struct AnalyteMatcher {
    let key: String?
    let name: String

    init(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        key = AnalyteCatalog.entry(key: trimmed)?.key ?? AnalyteCatalog.entry(loinc: trimmed)?.key ?? AnalyteCatalog.lookup(trimmed)?.key
        name = AnalyteCatalog.normalized(trimmed)
        code = trimmed.range(of: #"^\d{1,7}-\d$"#, options: .regularExpression) == nil ? nil : trimmed
    }

    /// A LOINC code as asked ("2276-4"): also matches results outside the catalog that carry it.
    let code: String?

    func matches(_ observation: Observation) -> Bool {
        if let code, observation.codes.contains(where: { $0.code == code && ($0.system ?? Coding.System.loinc) == Coding.System.loinc }) {
            return true
        }
        if let key, let analyte = observation.analyte {
            if analyte.key == key { return true }
            // "neutrophils" asks for both the percentage and the count.
            if let entry = AnalyteCatalog.entry(key: key), AnalyteCatalog.lookup(name, unit: observation.unitUCUM)?.key == analyte.key,
               entry.synonyms.contains(name) { return true }
            return false
        }
        return AnalyteCatalog.normalized(observation.name) == name
    }

    /// Results of one analyte share this key: the catalog key, else the normalised name.
    static func groupKey(_ observation: Observation) -> String {
        observation.analyte.map { "catalog:" + $0.key } ?? "name:" + AnalyteCatalog.normalized(observation.name)
    }
}
