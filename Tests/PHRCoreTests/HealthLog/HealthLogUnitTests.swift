import Foundation
import Testing
@testable import PHRCore

/// Units and conversions of the health log, both ways, and how typed amounts are read.
@Suite struct HealthLogUnitTests {
    typealias P = HealthQuantityParser

    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance * max(1, abs(b)) }

    @Test func volumesConvertBothWays() {
        // Exact definitions: 1 US fl oz = 29.5735295625 ml; a US cup is 8 of them.
        #expect(HealthUnit.usFluidOunce.toCanonical(1) == 29.5735295625)
        #expect(HealthUnit.usCup.toCanonical(1) == 236.5882365)
        #expect(HealthUnit.litre.toCanonical(1.5) == 1500)
        #expect(HealthUnit.centilitre.toCanonical(33) == 330)
        #expect(HealthUnit.decilitre.toCanonical(2) == 200)
        #expect(Self.close(HealthUnit.usFluidOunce.fromCanonical(1000), 33.814022701843))
        #expect(Self.close(HealthUnit.usCup.fromCanonical(473.176473), 2))
        #expect(HealthUnit.litre.fromCanonical(250) == 0.25)
        for unit in HealthUnit.allCases {
            for value in [0.5, 1, 72.5, 1234.5678] {
                #expect(Self.close(unit.fromCanonical(unit.toCanonical(value)), value), "\(unit.rawValue) \(value)")
            }
        }
    }

    @Test func massEnergyAndGlucoseConvertBothWays() {
        #expect(HealthUnit.pound.toCanonical(1) == 0.45359237)
        #expect(Self.close(HealthUnit.pound.toCanonical(160), 72.5747792))
        #expect(Self.close(HealthUnit.pound.fromCanonical(72.5), 159.83514, 1e-7))
        #expect(Self.close(HealthUnit.kilojoule.toCanonical(2092), 500))
        #expect(Self.close(HealthUnit.kilojoule.fromCanonical(650), 2719.6))
        // 1 mmol/L of glucose = 18.0156 mg/dL (180.156 g/mol over 10 dL).
        #expect(Self.close(HealthUnit.milligramPerDecilitre.toCanonical(90.078), 5))
        #expect(Self.close(HealthUnit.milligramPerDecilitre.fromCanonical(5.4), 97.28424))
        #expect(Self.close(HealthUnit.milligramPerDecilitre.fromCanonical(HealthUnit.milligramPerDecilitre.toCanonical(126)), 126))
        #expect(HealthUnit.hour.toCanonical(7.5) == 450)
    }

    @Test func typedAmountsAreRead() throws {
        #expect(try P.water("250ml", servingML: 250, field: Field.argument("amount")) == HealthQuantity(value: 250, unit: .millilitre))
        #expect(try P.water("0,5 l", servingML: 250, field: Field.argument("amount")) == HealthQuantity(value: 500, unit: .litre))
        #expect(try P.water("8 fl oz", servingML: 250, field: Field.argument("amount")).value == 8 * 29.5735295625)
        #expect(try P.water("12oz", servingML: 250, field: Field.argument("amount")).unit == .usFluidOunce)
        let cups = try P.water("2 cups", servingML: 250, field: Field.argument("amount"))
        #expect(cups.unit == .usCup && Self.close(cups.value, 473.176473) && Self.close(cups.typedAmount, 2))
        // Servings are stored in millilitres, at the serving size of the moment.
        #expect(try P.water("+", servingML: 300, field: Field.argument("amount")) == HealthQuantity(value: 300, unit: .millilitre))
        #expect(try P.water("+2", servingML: 250, field: Field.argument("amount")) == HealthQuantity(value: 500, unit: .millilitre))
        #expect(try P.water("1.5 servings", servingML: 200, field: Field.argument("amount")) == HealthQuantity(value: 300, unit: .millilitre))
        #expect(try P.water("1 glass", servingML: 250, field: Field.argument("amount")).value == 250)
        #expect(try P.duration("7.5h", metric: .sleep, field: Field.argument("amount")) == HealthQuantity(value: 450, unit: .hour))
        #expect(try P.duration("7h30m", metric: .sleep, field: Field.argument("amount")).value == 450)
        #expect(try P.duration("7h 30min", metric: .sleep, field: Field.argument("amount")).value == 450)
        #expect(try P.duration("1:45", metric: .workout, field: Field.argument("amount")).value == 105)
        #expect(try P.duration("45min", metric: .workout, field: Field.argument("amount")) == HealthQuantity(value: 45, unit: .minute))
        #expect(try P.energy("650kcal", field: Field.argument("amount")) == HealthQuantity(value: 650, unit: .kilocalorie))
        #expect(try P.energy("650", field: Field.argument("amount")).value == 650)
        #expect(Self.close(try P.energy("2719.6 kJ", field: Field.argument("amount")).value, 650))
        #expect(try P.weight("72.5kg", field: Field.argument("amount")) == HealthQuantity(value: 72.5, unit: .kilogram))
        #expect(try P.weight("160 lbs", field: Field.argument("amount")).unit == .pound)
        #expect(try P.glucose("5.4mmol/L", bareUnit: .millimolePerLitre, field: Field.argument("amount")).value == 5.4)
        #expect(Self.close(try P.glucose("97 mg/dl", bareUnit: .millimolePerLitre, field: Field.argument("amount")).value, 97 / 18.0156))
        #expect(Self.close(try P.glucose("97", bareUnit: .milligramPerDecilitre, field: Field.argument("amount")).value, 97 / 18.0156))
        let pressure = try P.bloodPressure("120/80 mmHg", field: Field.argument("amount"))
        #expect(pressure.systolic == 120 && pressure.diastolic == 80)
    }

    @Test func badAmountsSayWhatWouldWork() {
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'1,500ml' is ambiguous; write the number without a thousands separator, or with a decimal point")) {
            try P.water("1,500ml", servingML: 250, field: Field.argument("amount"))
        }
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'250' is not an amount phr understands; use e.g. 250ml, 0.5l, 8floz, 2cups, 1serving or +")) {
            try P.water("250", servingML: 250, field: Field.argument("amount"))
        }
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'0ml' is zero; an entry needs an amount above 0")) {
            try P.water("0ml", servingML: 250, field: Field.argument("amount"))
        }
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'0kg' is zero; an entry needs an amount above 0")) {
            try P.weight("0kg", field: Field.argument("amount"))
        }
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'7l' is outside 1 ml to 5 l for one entry")) {
            try P.water("7l", servingML: 250, field: Field.argument("amount"))
        }
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'30h' is outside 1 minute to 24 hours for one entry")) {
            try P.duration("30h", metric: .sleep, field: Field.argument("amount"))
        }
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'30m7h' is not an amount phr understands; use e.g. 7.5h, 7h30m, 45min or 1:30")) {
            try P.duration("30m7h", metric: .sleep, field: Field.argument("amount"))
        }
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'72' is not an amount phr understands; use e.g. 72.5kg or 160lb")) {
            try P.weight("72", field: Field.argument("amount"))
        }
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'80/120': the first (systolic) value must be the higher one")) {
            try P.bloodPressure("80/120", field: Field.argument("amount"))
        }
        #expect(throws: RecordError.invalidField(field: Field.argument("amount"), reason: "'5.4kg' is not an amount phr understands; use e.g. 5.4mmol/L or 97mg/dL")) {
            try P.glucose("5.4kg", bareUnit: .millimolePerLitre, field: Field.argument("amount"))
        }
    }

    @Test func datesAreReadAsExactlyYYYYMMDD() {
        #expect(CalendarDate("2024-02-29") == CalendarDate(year: 2024, month: 2, day: 29))
        #expect(CalendarDate("1900-01-01")?.year == 1900 && CalendarDate("2200-12-31")?.day == 31)
        for text in ["0001-01-01", "9999-12-31", "1899-12-31", "2201-01-01", "2025-02-29", "2025-13-01", "2025-00-10", "0000-01-01", "2025-1-01", "2025-01-1", "25-01-01",
                     "2025/01/01", "2025-01-01 ", " 2025-01-01", "2025-01-0x", "+025-01-01", "２０２５-01-01", "٢٠٢٥-01-01", ""] {
            #expect(CalendarDate(text) == nil, "\(text)")
        }
    }

    @Test func dayNumbersAgreeWithTheCalendar() {
        #expect(CalendarDate("1970-01-01")!.dayNumber == 0 && CalendarDate("2000-03-01")!.dayNumber == 11_017)
        var day = CalendarDate("1900-01-01")!
        var number = day.dayNumber
        var mismatches: [String] = []
        // Four centuries, day by day: leap years, century years and 2000 included; every
        // third step and every 97th weekday checked against Foundation's calendar.
        for _ in 0..<146_097 {
            if CalendarDate(dayNumber: number) != day { mismatches.append("\(number) \(day)") }
            if number % 97 == 0, day.weekdayNumber != day.isoWeekday { mismatches.append("weekday of \(day)") }
            number += 1
            day = number % 3 == 0 ? day.adding(days: 1) : day.plus(1)
        }
        #expect(mismatches.isEmpty)
        #expect(day.description == "2300-01-01", "arithmetic runs past the accepted years without a trap")
        #expect(CalendarDate("2026-03-29")!.plus(-400) == CalendarDate("2026-03-29")!.adding(days: -400))
        #expect(CalendarDate("2026-03-12")!.monday == CalendarDate("2026-03-09"))
    }

    @Test func figuresAreWrittenInTheProfilesUnits() {
        let metric = HealthFormat(.defaults)
        var usSettings = HealthSettings.defaults
        usSettings.units = .us
        usSettings.glucoseUnit = .milligramPerDecilitre
        let us = HealthFormat(usSettings)
        #expect(metric.amount(875, .water) == "875 ml")
        #expect(metric.amount(1250, .water) == "1.25 L")
        #expect(metric.amount(12_400, .water) == "12.4 L")
        #expect(us.amount(2000, .water) == "67.6 fl oz")
        #expect(metric.amount(450, .sleep) == "7h 30m")
        #expect(metric.amount(3030, .sleep) == "50h 30m")
        #expect(metric.amount(45, .workout) == "45m")
        #expect(metric.amount(67_950, .meal) == "67,950 kcal")
        #expect(metric.amount(72.5, .weight) == "72.5 kg")
        #expect(us.amount(72.5747792, .weight) == "160 lb")
        #expect(metric.amount(5.4, .glucose) == "5.4 mmol/L")
        #expect(us.amount(5.4, .glucose) == "97 mg/dL")
        #expect(HealthFormat.number(1_234_567.891, decimals: 2) == "1,234,567.89")
        #expect(HealthFormat.percentChange(-0.158333) == "-16%")
    }
}
