import Foundation

/// Time zones in iCalendar files (RFC 5545 section 3.6.5).
///
/// Writing: a VTIMEZONE per zone used, from the system's tz database, with one observance per
/// transition in the years the events span (and the year before, so the first event's offset
/// is defined). Exact, and valid for any reader, at the cost of a few more lines than RRULEs.
///
/// Reading: a TZID that names an IANA zone is used as such. Otherwise (Outlook writes "W. Europe
/// Standard Time") the file's VTIMEZONE rules give the offset: each STANDARD or DAYLIGHT
/// observance starts at DTSTART and repeats by a yearly RRULE (BYMONTH, BYDAY like -1SU or 2SU)
/// or on RDATEs; the last onset before the local time decides the offset.
enum ICalendarTimeZones {
    /// True for zones written as UTC ("Z") rather than with a TZID.
    static func isUTC(_ zone: TimeZone) -> Bool {
        ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Etc/Zulu", "Universal", "Zulu"].contains(zone.identifier)
    }

    /// The VTIMEZONE component for `zone`, covering `years`.
    static func component(for zone: TimeZone, years: ClosedRange<Int>) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let from = calendar.date(from: DateComponents(year: years.lowerBound - 1, month: 1, day: 1))!
        let to = calendar.date(from: DateComponents(year: years.upperBound + 1, month: 1, day: 1))!
        var lines = [ICalendarText.line("BEGIN", "VTIMEZONE"), ICalendarText.line("TZID", zone.identifier)]
        var transitions: [Date] = []
        var cursor = from
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < to, transitions.count < 1000 {
            transitions.append(next)
            cursor = next
        }
        if transitions.isEmpty {
            let offset = zone.secondsFromGMT(for: from)
            lines += observance("STANDARD", start: "19700101T000000", from: offset, to: offset, name: abbreviation(zone, at: from))
        } else {
            // The offset in force before the first transition, from the start of the range.
            let initial = zone.secondsFromGMT(for: from)
            lines += observance(zone.isDaylightSavingTime(for: from) ? "DAYLIGHT" : "STANDARD",
                                start: ICalendarText.dateTime(LocalDateTime(from, in: zone)), from: initial, to: initial,
                                name: abbreviation(zone, at: from))
            for transition in transitions {
                let before = zone.secondsFromGMT(for: transition.addingTimeInterval(-1))
                let after = zone.secondsFromGMT(for: transition)
                // DTSTART is the local time of the onset in the offset that was in force before it.
                let onset = LocalDateTime(transition.addingTimeInterval(TimeInterval(before)), in: TimeZone(identifier: "UTC")!)
                lines += observance(zone.isDaylightSavingTime(for: transition) ? "DAYLIGHT" : "STANDARD",
                                    start: ICalendarText.dateTime(onset), from: before, to: after, name: abbreviation(zone, at: transition))
            }
        }
        lines.append(ICalendarText.line("END", "VTIMEZONE"))
        return lines.joined()
    }

    private static func observance(_ kind: String, start: String, from: Int, to: Int, name: String?) -> [String] {
        var lines = [ICalendarText.line("BEGIN", kind), ICalendarText.line("DTSTART", start),
                     ICalendarText.line("TZOFFSETFROM", compactOffset(from)), ICalendarText.line("TZOFFSETTO", compactOffset(to))]
        if let name { lines.append(ICalendarText.line("TZNAME", ICalendarText.escape(name))) }
        lines.append(ICalendarText.line("END", kind))
        return lines
    }

    /// "+0100", "-0430" (UTC-OFFSET, 3.3.14).
    static func compactOffset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02d%02d", minutes / 60, minutes % 60)
    }

    /// A zone abbreviation such as CET, when the system knows one (not "GMT+1").
    private static func abbreviation(_ zone: TimeZone, at instant: Date) -> String? {
        guard let text = zone.abbreviation(for: instant), !text.hasPrefix("GMT"), !text.hasPrefix("UTC"),
              text.allSatisfy({ $0.isLetter }) else { return nil }
        return text
    }

    // MARK: Reading

    /// Offsets defined by a file's VTIMEZONE components, by TZID.
    struct Definitions {
        struct Observance {
            var start: LocalDateTime
            var offsetTo: Int
            /// BYMONTH and BYDAY of a yearly RRULE.
            var month: Int?
            var weekday: Int?
            var ordinal: Int?
            var until: LocalDateTime?
            var dates: [LocalDateTime]
        }

        var zones: [String: [Observance]] = [:]
        /// Zones whose definition is unusable, with the reason (an offset of +9999): events in
        /// them are refused rather than moved by days.
        var invalid: [String: String] = [:]

        init(_ calendar: ICalendarParser.Component) {
            for component in calendar.components where component.name == "VTIMEZONE" {
                guard let id = component.first("TZID")?.text else { continue }
                var observances: [Observance] = []
                for observance in component.components where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
                    for name in ["TZOFFSETTO", "TZOFFSETFROM"] {
                        if let value = observance.first(name)?.value, Self.parseOffset(value) == nil {
                            invalid[id] = "\(name) '\(value.prefix(20))' is not a UTC offset (-1800 to +1800)"
                        }
                    }
                    guard let start = observance.first("DTSTART").flatMap({ ICalendarImport.localDateTime($0.value, anyYear: true) }),
                          let offset = observance.first("TZOFFSETTO").flatMap({ Self.parseOffset($0.value) }) else { continue }
                    var item = Observance(start: start, offsetTo: offset, dates: [start])
                    if let rule = observance.first("RRULE")?.value {
                        let parts = Dictionary(rule.split(separator: ";").compactMap { part -> (String, String)? in
                            let pair = part.split(separator: "=", maxSplits: 1)
                            return pair.count == 2 ? (pair[0].uppercased(), String(pair[1]).uppercased()) : nil
                        }, uniquingKeysWith: { a, _ in a })
                        if parts["FREQ"] == "YEARLY", let month = parts["BYMONTH"].flatMap({ Int($0) }),
                           let day = parts["BYDAY"], let (ordinal, weekday) = Self.parseByDay(day) {
                            item.month = month
                            item.ordinal = ordinal
                            item.weekday = weekday
                            item.until = parts["UNTIL"].flatMap { ICalendarImport.localDateTime($0, anyYear: true) }
                        }
                    }
                    for rdate in observance.all("RDATE") {
                        item.dates += rdate.value.split(separator: ",").compactMap { ICalendarImport.localDateTime(String($0), anyYear: true) }
                    }
                    observances.append(item)
                }
                if !observances.isEmpty { zones[id] = observances }
            }
        }

        /// The UTC offset in force at a local time of zone `id`, if the file defines it.
        func offset(zone id: String, at local: LocalDateTime) -> Int? {
            guard invalid[id] == nil, let observances = zones[id] else { return nil }
            var best: (onset: LocalDateTime, offset: Int)?
            for observance in observances {
                var onsets = observance.dates
                if let month = observance.month, let weekday = observance.weekday, let ordinal = observance.ordinal {
                    // An observance starting after the local time has no onsets before it.
                    for year in stride(from: max(observance.start.date.year, local.date.year - 1), through: local.date.year, by: 1) {
                        if let day = Self.nthWeekday(year: year, month: month, weekday: weekday, ordinal: ordinal) {
                            let onset = LocalDateTime(date: day, time: observance.start.time)
                            if onset >= observance.start && (observance.until.map { onset <= $0 } ?? true) { onsets.append(onset) }
                        }
                    }
                }
                for onset in onsets where onset <= local && (best.map { onset > $0.onset } ?? true) {
                    best = (onset, observance.offsetTo)
                }
            }
            // Before every onset: the earliest observance's offset is the best guess.
            return best?.offset ?? observances.min { $0.start < $1.start }?.offsetTo
        }

        static func parseOffset(_ text: String) -> Int? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
            let digits = trimmed.dropFirst()
            guard digits.count == 4 || digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            let hours = Int(digits.prefix(2))!
            let minutes = Int(digits.dropFirst(2).prefix(2))!
            let seconds = digits.count == 6 ? Int(digits.suffix(2))! : 0
            // Real offsets lie within ±14 hours; ±18 is the widest any standard allows.
            let total = hours * 3600 + minutes * 60 + seconds
            guard minutes < 60, seconds < 60, total <= 18 * 3600 else { return nil }
            return (sign == "-" ? -1 : 1) * total
        }

        /// "-1SU" → (-1, 7), "2SU" → (2, 7), "SU" → (1, 7); weekdays 1 = Monday ... 7 = Sunday.
        static func parseByDay(_ text: String) -> (Int, Int)? {
            let days = ["MO": 1, "TU": 2, "WE": 3, "TH": 4, "FR": 5, "SA": 6, "SU": 7]
            let first = String(text.split(separator: ",").first ?? "")
            guard first.count >= 2, let weekday = days[String(first.suffix(2))] else { return nil }
            let number = first.dropLast(2)
            guard let ordinal = number.isEmpty ? 1 : Int(number), ordinal != 0 else { return nil }
            return (ordinal, weekday)
        }

        static func nthWeekday(year: Int, month: Int, weekday: Int, ordinal: Int) -> CalendarDate? {
            guard (1...12).contains(month) else { return nil }
            let days = CalendarDate.daysIn(month: month, year: year)
            let matching = (1...days).compactMap { CalendarDate(year: year, month: month, day: $0) }.filter { $0.isoWeekday == weekday }
            let index = ordinal > 0 ? ordinal - 1 : matching.count + ordinal
            return matching.indices.contains(index) ? matching[index] : nil
        }
    }
}
