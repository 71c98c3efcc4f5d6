import Foundation

/// One rule per field for records that arrive whole (phr JSON, FHIR, iCalendar), with the
/// limits the commands apply to typed input (`RecordFields`): what `phr condition add` refuses,
/// no import stores, and what an import stores, `phr import` of phr's own export takes back.
///
/// Each function normalises the record in place (text trimmed, line endings as LF, empty
/// optional text absent) or throws `RecordError.invalidField` naming the field by its phr JSON
/// key. Importers report the record as skipped with that reason and go on with the next one.
public enum RecordValidation {
    /// The largest SEQUENCE kept: iCalendar's INTEGER is 32-bit, and a bound leaves room to add.
    public static let maximumSequence = Int(Int32.max)
    /// The longest appointment, as `--duration` allows: 31 days.
    public static let maximumAppointmentMinutes = 44640
    /// The earliest reminder before an appointment, as `--remind` allows: four weeks.
    public static let maximumRemindMinutes = 4 * 7 * 1440

    static func name(_ value: inout String, _ field: Field) throws {
        value = try RecordFields.text(value, field: field, limit: RecordFields.maximumNameLength)
    }

    static func label(_ value: inout String?, _ field: Field) throws {
        value = try RecordFields.optionalText(value, field: field, limit: RecordFields.maximumLabelLength)
    }

    static func notes(_ value: inout String?, _ field: Field) throws {
        value = try RecordFields.optionalText(value, field: field, limit: RecordFields.maximumTextLength, multiline: true)
    }

    static func codes(_ codes: inout [Coding], _ field: Field) throws {
        guard codes.count <= 100 else { throw RecordError.invalidField(field: field, reason: "at most 100 codes") }
        for index in codes.indices {
            let path = "\(field.name)[\(index)]"
            codes[index].code = try RecordFields.text(codes[index].code, field: Field.path("\(path).code"), limit: 255)
            codes[index].system = try RecordFields.optionalText(codes[index].system, field: Field.path("\(path).system"), limit: 1000)
            codes[index].display = try RecordFields.optionalText(codes[index].display, field: Field.path("\(path).display"),
                                                                 limit: RecordFields.maximumNameLength)
        }
    }

    static func source(_ source: inout RecordSource?) throws {
        guard var value = source else { return }
        guard !value.key.isEmpty, value.key.count <= 4000 else {
            throw RecordError.invalidField(field: Field.path("source.key"), reason: "use 1 to 4000 characters")
        }
        guard value.identifiers.count <= 100 else { throw RecordError.invalidField(field: Field.path("source.identifiers"), reason: "at most 100") }
        for index in value.identifiers.indices {
            let path = "source.identifiers[\(index)]"
            value.identifiers[index].value = try RecordFields.text(value.identifiers[index].value, field: Field.path("\(path).value"), limit: 1000)
            value.identifiers[index].system = try RecordFields.optionalText(value.identifiers[index].system, field: Field.path("\(path).system"), limit: 1000)
        }
        source = value
    }

    static func order(_ start: PartialDate?, _ end: PartialDate?, field: Field, startField: Field) throws {
        if let start, let end, end.lastDay < start.firstDay {
            throw RecordError.invalidField(field: field, reason: "\(end) is before \(startField) \(start)")
        }
    }

    public static func check(_ record: inout Condition) throws {
        try name(&record.name, Field.path("name"))
        try order(record.since, record.resolved, field: Field.path("resolved"), startField: Field.path("since"))
        try notes(&record.notes, Field.path("notes"))
        try codes(&record.codes, Field.path("codes"))
        try source(&record.source)
    }

    public static func check(_ record: inout Allergy) throws {
        try name(&record.substance, Field.path("substance"))
        try label(&record.reaction, Field.path("reaction"))
        try notes(&record.notes, Field.path("notes"))
        try codes(&record.codes, Field.path("codes"))
        try source(&record.source)
    }

    public static func check(_ record: inout Immunization) throws {
        try name(&record.vaccine, Field.path("vaccine"))
        if let dose = record.doseNumber { _ = try RecordFields.count(dose, field: Field.path("dose_number"), minimum: 1, maximum: 20) }
        try label(&record.lot, Field.path("lot"))
        try notes(&record.notes, Field.path("notes"))
        try codes(&record.codes, Field.path("codes"))
        try source(&record.source)
    }

    public static func check(_ record: inout Procedure) throws {
        try name(&record.name, Field.path("name"))
        try label(&record.bodySite, Field.path("body_site"))
        record.performer = try RecordFields.optionalText(record.performer, field: Field.path("performer"), limit: RecordFields.maximumNameLength)
        try notes(&record.notes, Field.path("notes"))
        try codes(&record.codes, Field.path("codes"))
        try source(&record.source)
    }

    public static func check(_ record: inout FamilyHistory) throws {
        record.relation = try RecordFields.text(record.relation, field: Field.path("relation"), limit: RecordFields.maximumLabelLength)
        try label(&record.relationCode, Field.path("relation_code"))
        try name(&record.condition, Field.path("condition"))
        if let age = record.onsetAge { _ = try RecordFields.count(age, field: Field.path("onset_age"), minimum: 0, maximum: 150) }
        try notes(&record.notes, Field.path("notes"))
        try codes(&record.codes, Field.path("codes"))
        try source(&record.source)
    }

    public static func check(_ record: inout Observation) throws {
        try name(&record.name, Field.path("name"))
        try label(&record.category, Field.path("category"))
        if let effective = record.effective, (try? FHIRElements.dateTime(.string(effective), field: "effective")) == nil {
            throw RecordError.invalidField(field: Field.path("effective"), reason: RecordFields.dateReason(
                effective, otherwise: "'\(effective)' is not a date or date and time"))
        }
        try number(record.valueNumber, Field.path("value_number"))
        try label(&record.valueUnit, Field.path("value_unit"))
        try notes(&record.valueText, Field.path("value_text"))
        if var valueCodes = record.valueCodes {
            try codes(&valueCodes, Field.path("value_codes"))
            record.valueCodes = valueCodes
        }
        guard record.components.count <= 100 else { throw RecordError.invalidField(field: Field.path("components"), reason: "at most 100") }
        for index in record.components.indices {
            let path = "components[\(index)]"
            try name(&record.components[index].name, Field.path("\(path).name"))
            try codes(&record.components[index].codes, Field.path("\(path).codes"))
            try number(record.components[index].valueNumber, Field.path("\(path).value_number"))
            try label(&record.components[index].valueUnit, Field.path("\(path).value_unit"))
            try notes(&record.components[index].valueText, Field.path("\(path).value_text"))
        }
        guard record.valueNumber != nil || record.valueText != nil || record.valueCodes != nil || !record.components.isEmpty else {
            throw RecordError.invalidField(field: Field.path("value_number"), reason: "an observation needs a value or components")
        }
        try notes(&record.notes, Field.path("notes"))
        try codes(&record.codes, Field.path("codes"))
        try source(&record.source)
    }

    /// A measured value: finite, and small enough to print and compare (no 1e308).
    static func number(_ value: Double?, _ field: Field) throws {
        guard let value else { return }
        guard value.isFinite, abs(value) < 1e15 else { throw RecordError.invalidField(field: field, reason: "is not a number phr can keep") }
    }

    public static func check(_ record: inout Medication) throws {
        try name(&record.name, Field.path("name"))
        try label(&record.dose, Field.path("dose"))
        try label(&record.form, Field.path("form"))
        switch record.schedule {
        case .times(let times):
            guard (1...24).contains(times.count), Set(times).count == times.count else {
                throw RecordError.invalidField(field: Field.path("schedule.times"), reason: "use 1 to 24 different times a day")
            }
        case .interval(let minutes):
            _ = try RecordFields.count(minutes, field: Field.path("schedule.every_minutes"), minimum: 1, maximum: 31 * 24 * 60)
        case .asNeeded, .unscheduled:
            break
        }
        if let zone = record.timeZone { record.timeZone = try RecordFields.timeZone(zone, field: Field.path("time_zone")).identifier }
        if let minutes = record.minIntervalMinutes {
            _ = try RecordFields.count(minutes, field: Field.path("min_interval_minutes"), minimum: 1, maximum: 7 * 24 * 60)
        }
        if let count = record.maxPerDay { _ = try RecordFields.count(count, field: Field.path("max_per_day"), minimum: 1, maximum: 100) }
        if let count = record.refills { _ = try RecordFields.count(count, field: Field.path("refills"), minimum: 0, maximum: 99) }
        try order(record.start, record.end, field: Field.path("end"), startField: Field.path("start"))
        if record.stoppedOn != nil && record.status != .stopped {
            throw RecordError.invalidField(field: Field.path("stopped_on"), reason: "only a stopped medication has a stop date")
        }
        try label(&record.prescriber, Field.path("prescriber"))
        try label(&record.pharmacy, Field.path("pharmacy"))
        try notes(&record.instructions, Field.path("instructions"))
        try notes(&record.notes, Field.path("notes"))
        try codes(&record.codes, Field.path("codes"))
        try source(&record.source)
    }

    public static func check(_ record: inout Contact) throws {
        try name(&record.name, Field.path("name"))
        record.phone = try RecordFields.phone(record.phone, field: Field.path("phone"))
        if let email = record.email { record.email = try RecordFields.email(email, field: Field.path("email")) }
        try label(&record.relation, Field.path("relation"))
        try notes(&record.notes, Field.path("notes"))
        try source(&record.source)
    }

    /// An appointment's start and end, where it takes place, in `CalendarDate.supportedYears`;
    /// `appt add` and `appt edit` check the same (naming their options).
    public static func times(_ record: Appointment, startField: Field, endField: Field) throws {
        guard CalendarDate.supportedYears.contains(record.start.date.year) else {
            throw RecordError.invalidField(field: startField, reason: RecordFields.dateReason(record.start.display, otherwise: "out of range"))
        }
        let endDay = CalendarDate(record.endInstant, in: record.zone)
        guard CalendarDate.supportedYears.contains(endDay.year) else {
            throw RecordError.invalidField(field: endField, reason: "the appointment would end in \(endDay.year), after the years phr accepts (\(CalendarDate.supportedYears.lowerBound) to \(CalendarDate.supportedYears.upperBound))")
        }
    }

    /// An appointment: its start and end in `CalendarDate.supportedYears`, at most 31 days long,
    /// a reminder at most four weeks before.
    public static func check(_ record: inout Appointment) throws {
        try name(&record.with, Field.path("with"))
        guard TimeZone(identifier: record.timeZone) != nil else {
            throw RecordError.invalidField(field: Field.path("time_zone"), reason: "'\(record.timeZone)' is not a time zone")
        }
        _ = try RecordFields.count(record.durationMinutes, field: Field.path("duration_minutes"), minimum: 1, maximum: maximumAppointmentMinutes)
        try times(record, startField: Field.path("start"), endField: Field.path("duration_minutes"))
        if let minutes = record.remindMinutes {
            _ = try RecordFields.count(minutes, field: Field.path("remind_minutes"), minimum: 0, maximum: maximumRemindMinutes)
        }
        _ = try RecordFields.count(record.sequence, field: Field.path("sequence"), minimum: 0, maximum: maximumSequence)
        try label(&record.location, Field.path("location"))
        try label(&record.reason, Field.path("reason"))
        try notes(&record.notes, Field.path("notes"))
        try source(&record.source)
    }
}
