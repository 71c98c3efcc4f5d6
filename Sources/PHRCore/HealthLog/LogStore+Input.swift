import Foundation
import GRDB

extension LogStore {
    /// What `phr log METRIC` and `phr log edit` take, as typed. For `edit`, nil leaves a field
    /// as it is and "" clears an optional one.
    public struct Input: Sendable {
        /// "250ml", "+", "7.5h", "650kcal", "72.5kg", "120/80", "5.4mmol/L".
        public var amount: String?
        /// When a point entry happened: "HH:MM", "YYYY-MM-DD HH:MM" or ISO 8601 (default now).
        public var at: String?
        /// When a sleep or workout started or ended.
        public var from: String?
        public var to: String?
        /// The zone it happened in, if not the one the user is in now.
        public var timeZone: String?
        public var drink: String?
        /// A hydration factor of the user's own (0 to 3).
        public var factor: String?
        public var type: String?
        public var meal: String?
        public var context: String?
        public var pulse: String?
        public var note: String?

        public init() {}
    }

    /// Meals as the seed apps name them.
    public static let meals = ["breakfast", "brunch", "lunch", "dinner", "snack", "fruit"]
    /// When a glucose reading was taken.
    public static let glucoseContexts = ["fasting", "before-meal", "after-meal", "bedtime", "random"]
    /// `--at` and `--to` may be this far ahead of the clock (another device's clock skew).
    static let skew: TimeInterval = 300

    /// Logs an entry of `metric`.
    @discardableResult
    public func add(_ metric: LogMetric, _ input: Input) throws -> LogEntry {
        let settings = try vault.database.read { db in try HealthSettingsStore.fetch(db, profileID: profile.id) }
        let stamp = Timestamp.string(time.now)
        var entry = LogEntry(id: "", uid: "", metric: metric, at: stamp, start: nil, timeZone: time.zone.identifier,
                             day: time.today(), value: 1, diastolic: nil, pulse: nil, unit: HealthUnit(rawValue: metric.canonicalUnit)!,
                             kind: nil, factor: nil, note: nil, createdAt: stamp, updatedAt: stamp)
        guard input.amount != nil || (metric.isInterval && input.from != nil && input.to != nil) else {
            throw RecordError.invalidOption(option: Field.amount, reason: "how much? e.g. \(Self.example(metric))",
                                            hint: metric.isInterval ? "or give \(Field.from) and \(Field.to)" : nil)
        }
        try apply(input, to: &entry, settings: settings, isNew: true)
        return try vault.database.write { db in
            (entry.id, entry.uid) = try RecordRows.newIdentity(db, table: Self.table)
            try Self.insert(db, entry, profileID: profile.id)
            return entry
        }
    }

    /// Changes an entry; only what `input` names changes.
    @discardableResult
    public func edit(_ prefix: String, _ input: Input) throws -> LogEntry {
        let settings = try vault.database.read { db in try HealthSettingsStore.fetch(db, profileID: profile.id) }
        return try vault.database.write { db in
            var entry = try resolve(db, prefix)
            try apply(input, to: &entry, settings: settings, isNew: false)
            entry.updatedAt = Timestamp.string(time.now)
            try Self.update(db, entry, profileID: profile.id)
            return entry
        }
    }

    static func example(_ metric: LogMetric) -> String {
        switch metric {
        case .water: return "250ml, 8floz, 1cup or + (one serving)"
        case .sleep: return "7.5h or 7h30m"
        case .workout: return "45min"
        case .meal: return "650kcal"
        case .weight: return "72.5kg or 160lb"
        case .bp: return "120/80"
        case .glucose: return "5.4mmol/L or 97mg/dL"
        }
    }

    // MARK: Applying input

    private func apply(_ input: Input, to entry: inout LogEntry, settings: HealthSettings, isNew: Bool) throws {
        let metric = entry.metric
        if let zoneText = input.timeZone {
            entry.timeZone = zoneText.isEmpty ? time.zone.identifier : try RecordFields.timeZone(zoneText, field: Field.tz).identifier
        }
        // Times are read in the zone the entry happened in.
        let local = TimeContext(now: time.now, zone: entry.zone)

        var duration: Double?
        if let amount = input.amount {
            switch metric {
            case .water:
                let quantity = try HealthQuantityParser.water(amount, servingML: settings.servingML, field: Field.amount)
                (entry.value, entry.unit) = (quantity.value, quantity.unit)
            case .sleep, .workout:
                let quantity = try HealthQuantityParser.duration(amount, metric: metric, field: Field.amount)
                (duration, entry.unit) = (quantity.value, quantity.unit)
            case .meal:
                let quantity = try HealthQuantityParser.energy(amount, field: Field.amount)
                (entry.value, entry.unit) = (quantity.value, quantity.unit)
            case .weight:
                let quantity = try HealthQuantityParser.weight(amount, field: Field.amount)
                (entry.value, entry.unit) = (quantity.value, quantity.unit)
            case .bp:
                let pressure = try HealthQuantityParser.bloodPressure(amount, field: Field.amount)
                (entry.value, entry.diastolic, entry.unit) = (pressure.systolic, pressure.diastolic, .millimetreOfMercury)
            case .glucose:
                let quantity = try HealthQuantityParser.glucose(amount, bareUnit: settings.glucoseUnit, field: Field.amount)
                (entry.value, entry.unit) = (quantity.value, quantity.unit)
            }
        }

        if metric.isInterval {
            guard input.at == nil else {
                throw RecordError.invalidOption(option: Field.at, reason: "a \(metric.rawValue) has a start and an end",
                                                hint: "use \(Field.from) (when it started) or \(Field.to) (when it ended); without them it ended now")
            }
            try applyInterval(input, duration: duration, to: &entry, local: local, isNew: isNew)
        } else {
            if input.from != nil || input.to != nil {
                throw RecordError.invalidOption(option: input.from != nil ? Field.from : Field.to,
                                                reason: "only sleep and workouts have a start and an end", hint: "use \(Field.at)")
            }
            if let text = input.at {
                entry.at = Timestamp.string(try Self.checkedInstant(try Self.parse(text, field: Field.at, local: local), field: Field.at, local: local))
            } else if input.timeZone != nil && isNew {
                entry.at = Timestamp.string(local.now)
            }
        }
        entry.day = LogEntry.day(of: entry.instant, in: entry.zone)

        try applyKind(input, to: &entry)
        if let text = input.pulse {
            guard metric == .bp else { throw RecordError.invalidOption(option: Field.pulse, reason: "only blood pressure has a pulse", hint: nil) }
            if text.isEmpty {
                entry.pulse = nil
            } else {
                guard let pulse = Int(text.trimmingCharacters(in: .whitespaces)), (20...300).contains(pulse) else {
                    throw RecordError.invalidField(field: Field.pulse, reason: "'\(text)' is not a pulse; use beats per minute, 20 to 300")
                }
                entry.pulse = pulse
            }
        }
        entry.note = try FieldChange.apply(input.note, to: entry.note, field: Field.note, limit: RecordFields.maximumTextLength, multiline: true)
    }

    /// Works out when a sleep or workout started and ended from a duration and/or --from/--to:
    /// a duration alone ended now (or at the entry's old end, when editing); HH:MM times are the
    /// latest such time not ahead of the clock for --to, and the latest before the end for --from
    /// (so "--from 23:10 --to 06:40" is last night).
    private func applyInterval(_ input: Input, duration: Double?, to entry: inout LogEntry, local: TimeContext, isNew: Bool) throws {
        let oldEnd = isNew ? local.now : entry.instant
        let oldStart = entry.startInstant
        var end: Date
        var start: Date
        switch (input.from, input.to) {
        case (let from?, let to?):
            end = try Self.checkedInstant(try Self.parse(to, field: Field.to, local: local), field: Field.to, local: local)
            start = try Self.instant(from, before: end, local: local, field: Field.from)
            if let duration, abs(end.timeIntervalSince(start) / 60 - duration) >= 1 {
                throw RecordError.invalidOption(option: Field.amount, reason: "\(HealthFormat.duration(minutes: duration)) does not match \(Field.from) and \(Field.to) (\(HealthFormat.duration(minutes: end.timeIntervalSince(start) / 60)))",
                                                hint: "give the duration or \(Field.from) and \(Field.to)")
            }
        case (let from?, nil):
            let length = duration ?? (oldStart.map { oldEnd.timeIntervalSince($0) / 60 })
            guard let length else {
                throw RecordError.invalidOption(option: Field.from, reason: "needs a duration or \(Field.to)", hint: nil)
            }
            start = try Self.instant(from, before: local.now.addingTimeInterval(Self.skew), local: local, field: Field.from)
            end = start.addingTimeInterval(length * 60)
            _ = try Self.checkedInstant(end, field: Field.from, local: local)
        case (nil, let to?):
            let length = duration ?? (oldStart.map { oldEnd.timeIntervalSince($0) / 60 })
            guard let length else { throw RecordError.invalidOption(option: Field.to, reason: "needs a duration or \(Field.from)", hint: nil) }
            end = try Self.checkedInstant(try Self.parse(to, field: Field.to, local: local), field: Field.to, local: local)
            start = end.addingTimeInterval(-length * 60)
        case (nil, nil):
            end = oldEnd
            let length = duration ?? (oldStart.map { oldEnd.timeIntervalSince($0) / 60 }) ?? 0
            start = end.addingTimeInterval(-length * 60)
        }
        // Minute precision, as typed.
        end = Self.minute(end)
        start = Self.minute(start)
        let minutes = end.timeIntervalSince(start) / 60
        guard minutes >= 1 else {
            throw RecordError.invalidOption(option: input.from != nil ? Field.from : Field.amount, reason: "the \(entry.metric.rawValue) must last at least a minute", hint: nil)
        }
        guard minutes <= 1440 else {
            throw RecordError.invalidOption(option: input.from != nil ? Field.from : Field.amount, reason: "a single \(entry.metric.rawValue) lasts at most 24 hours",
                                            hint: "log it as two entries")
        }
        entry.at = Timestamp.string(end)
        entry.start = Timestamp.string(start)
        entry.value = minutes
        if duration == nil && isNew { entry.unit = minutes >= 60 ? .hour : .minute }
    }

    private func applyKind(_ input: Input, to entry: inout LogEntry) throws {
        let metric = entry.metric
        let given: [(Field, String?, LogMetric)] = [(Field.drink, input.drink, .water), (Field.factor, input.factor, .water),
                                                     (Field.type, input.type, .workout), (Field.meal, input.meal, .meal),
                                                     (Field.context, input.context, .glucose)]
        for (option, value, owner) in given where value != nil && owner != metric {
            throw RecordError.invalidOption(option: option, reason: "only for \(owner.rawValue) entries", hint: nil)
        }
        switch metric {
        case .water:
            if let text = input.drink {
                entry.kind = text.isEmpty ? HydrationFactors.defaultDrink : try HydrationFactors.normalise(text, field: Field.drink)
                if input.factor == nil { entry.factor = HydrationFactors.drink(entry.kind!).factor }
            }
            if entry.kind == nil {
                entry.kind = HydrationFactors.defaultDrink
                entry.factor = HydrationFactors.drink(HydrationFactors.defaultDrink).factor
            }
            if let text = input.factor {
                if text.isEmpty {
                    entry.factor = HydrationFactors.drink(entry.kind!).factor
                } else {
                    guard let factor = Double(text.trimmingCharacters(in: .whitespaces)), (0...3).contains(factor) else {
                        throw RecordError.invalidField(field: Field.factor, reason: "'\(text)' is not a hydration factor; use a number from 0 to 3, e.g. 0.9")
                    }
                    entry.factor = factor
                }
            }
        case .workout:
            if let text = input.type {
                entry.kind = text.isEmpty ? nil : try Self.label(text, field: Field.type)
            }
        case .meal:
            if let text = input.meal {
                entry.kind = text.isEmpty ? nil : try RecordFields.choice(text, field: Field.meal, allowed: Self.meals)
            }
        case .glucose:
            if let text = input.context {
                entry.kind = text.isEmpty ? nil : try RecordFields.choice(text.replacingOccurrences(of: " ", with: "-"), field: Field.context,
                                                                         allowed: Self.glucoseContexts)
            }
        case .sleep, .weight, .bp:
            break
        }
    }

    /// A workout type as a short lowercase label: "Trail Run" → "trail-run".
    static func label(_ text: String, field: Field) throws -> String {
        let words = text.lowercased().split { $0.isWhitespace || $0 == "_" || $0 == "-" }
        let label = words.joined(separator: "-")
        guard !label.isEmpty, label.count <= 40, label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is not a type; use a word like run, swim or yoga")
        }
        return label
    }

    /// An instant typed for --from: "HH:MM" is the latest such time before `limit`.
    static func instant(_ text: String, before limit: Date, local: TimeContext, field: Field) throws -> Date {
        if let clock = LocalTime(text.trimmingCharacters(in: .whitespaces)) {
            var day = CalendarDate(limit, in: local.zone)
            for _ in 0..<3 {
                let candidate = LocalDateTime(date: day, time: clock).instant(in: local.zone)
                if candidate < limit { return candidate }
                day = day.adding(days: -1)
            }
        }
        return try parse(text, field: field, local: local)
    }

    /// "HH:MM" (the latest such time, today or yesterday), "YYYY-MM-DD HH:MM" in the entry's
    /// zone, or ISO 8601 with an offset; errors name `field`.
    static func parse(_ text: String, field: Field, local: TimeContext) throws -> Date {
        do {
            return try DoseLog.parseInstant(text, time: local)
        } catch {
            throw RecordError.invalidOption(option: field, reason: RecordFields.dateReason(
                text.trimmingCharacters(in: .whitespaces), otherwise: "'\(text)' is not a time; use HH:MM, \"YYYY-MM-DD HH:MM\" or an ISO 8601 time"), hint: nil)
        }
    }

    /// Refuses a time ahead of the clock (beyond a few minutes of skew).
    static func checkedInstant(_ instant: Date, field: Field, local: TimeContext) throws -> Date {
        guard instant <= local.now.addingTimeInterval(skew) else {
            throw RecordError.invalidOption(option: field, reason: "\(TimeText.short(instant, local)) is in the future", hint: "log things once they happened")
        }
        return minute(instant)
    }

    static func minute(_ instant: Date) -> Date {
        Date(timeIntervalSince1970: (instant.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }
}

extension LogStore {
    /// A day as typed in log options: YYYY-MM-DD, "today" or "yesterday".
    public static func day(_ text: String, field: Field, today: CalendarDate) throws -> CalendarDate {
        switch text.lowercased() {
        case "today": return today
        case "yesterday": return today.adding(days: -1)
        default: return try RecordFields.date(text, field: field)
        }
    }
}

extension LogEntry {
    /// A sleep over 16 hours or a workout over 8: logged as asked, but usually --from and --to
    /// given the wrong way round, which the command line points out.
    public var isImplausiblyLong: Bool {
        metric == .sleep && value > 16 * 60 || metric == .workout && value > 8 * 60
    }
}
