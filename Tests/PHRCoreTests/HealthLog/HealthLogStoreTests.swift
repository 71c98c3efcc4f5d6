import Foundation
import GRDB
import Testing
@testable import PHRCore

/// Logging, listing, editing and removing entries: the day each counts for, the times typed
/// for sleep and workouts, field checks, the search index, and profiles kept apart.
@Suite struct HealthLogStoreTests {
    typealias X = HealthLogFixture

    static func day(_ text: String) -> CalendarDate { CalendarDate(text)! }

    static func search(_ f: X, _ query: String) throws -> [String] {
        try f.vault.database.read { db in
            try String.fetchAll(db, sql: """
                SELECT e.record_id FROM search_fts s JOIN search_entry e ON e.id = s.rowid
                WHERE search_fts MATCH ? AND e.kind = 'log' ORDER BY e.record_id
                """, arguments: [query])
        }
    }

    @Test func entriesAreLoggedListedEditedAndRemoved() throws {
        let f = try X("log-store")
        defer { f.cleanUp() }
        let coffee = try f.log(.water, "+", at: "2026-03-10T09:00:00+01:00") { input in
            input.drink = "coffee"
            input.note = "with the team"
        }
        #expect(coffee.value == 250 && coffee.unit == .millilitre && coffee.kind == "coffee" && coffee.factor == 1)
        #expect(coffee.at == "2026-03-10T08:00:00Z" && coffee.day == Self.day("2026-03-10") && coffee.timeZone == "Europe/Berlin")
        let run = try f.log(.workout, "45min", at: "2026-03-10T18:00:00+01:00") { $0.type = "Trail Run" }
        #expect(run.kind == "trail-run" && run.start == "2026-03-10T16:15:00Z" && run.at == "2026-03-10T17:00:00Z")
        let bp = try f.log(.bp, "128/84", at: "2026-03-10T07:00:00+01:00") { $0.pulse = "66" }
        #expect(bp.value == 128 && bp.diastolic == 84 && bp.pulse == 66)
        let glucose = try f.log(.glucose, "97mg/dL", at: "2026-03-10T06:45:00+01:00") { $0.context = "fasting" }
        #expect(glucose.unit == .milligramPerDecilitre && glucose.kind == "fasting")
        #expect(abs(glucose.value - 97 / 18.0156) < 1e-12)
        let meal = try f.log(.meal, "2700kJ", at: "2026-03-11T12:30:00+01:00") { $0.meal = "Lunch" }
        #expect(meal.kind == "lunch" && meal.unit == .kilojoule)

        let store = f.store("2026-03-11T13:00:00+01:00")
        #expect(try store.list().map(\.id) == [meal.id, run.id, coffee.id, bp.id, glucose.id])
        #expect(try store.list(LogStore.Filter(metric: .water)).map(\.id) == [coffee.id])
        #expect(try store.list(LogStore.Filter(since: Self.day("2026-03-11"))).map(\.id) == [meal.id])
        #expect(try store.list(LogStore.Filter(limit: 2)).map(\.id) == [meal.id, run.id])

        // Entries are found by metric, drink, type and note.
        #expect(try Self.search(f, "coffee") == [coffee.id])
        #expect(try Self.search(f, "team") == [coffee.id])
        #expect(try Self.search(f, "trail") == [run.id])
        #expect(try Self.search(f, "glucose") == [glucose.id])

        var change = LogStore.Input()
        change.amount = "300ml"
        change.drink = "milk"
        change.note = ""
        let edited = try store.edit(String(coffee.id.prefix(4)), change)
        #expect(edited.value == 300 && edited.kind == "milk" && edited.factor == 1.5 && edited.note == nil)
        #expect(edited.at == coffee.at && edited.createdAt == coffee.createdAt && edited.updatedAt == "2026-03-11T12:00:00Z")
        #expect(try Self.search(f, "coffee").isEmpty && Self.search(f, "milk") == [coffee.id])
        // Moving a workout's start keeps its length.
        var moved = LogStore.Input()
        moved.from = "2026-03-10 07:00"
        let early = try store.edit(run.id, moved)
        #expect(early.start == "2026-03-10T06:00:00Z" && early.at == "2026-03-10T06:45:00Z" && early.value == 45)

        #expect(try store.remove(coffee.id).id == coffee.id)
        #expect(throws: RecordError.notFound(kind: "log", id: coffee.id)) { try store.get(coffee.id) }
        #expect(try Self.search(f, "milk").isEmpty)
    }

    @Test func fieldsAndTimesAreChecked() throws {
        let f = try X("log-checks")
        defer { f.cleanUp() }
        let now = "2026-03-10T12:00:00+01:00"
        func add(_ metric: LogMetric, _ amount: String?, _ change: (inout LogStore.Input) -> Void = { _ in }) throws {
            try f.log(metric, amount, at: now, change)
        }
        #expect(throws: RecordError.invalidOption(option: Field("at"), reason: "tomorrow 11:00 is in the future", hint: "log things once they happened")) {
            try add(.water, "250ml") { $0.at = "2026-03-11 11:00" }
        }
        #expect(throws: RecordError.invalidOption(option: Field("at"), reason: "a sleep has a start and an end",
                                                  hint: "use \(Field.from) (when it started) or \(Field.to) (when it ended); without them it ended now")) {
            try add(.sleep, "8h") { $0.at = "07:00" }
        }
        #expect(throws: RecordError.invalidOption(option: Field("from"), reason: "only sleep and workouts have a start and an end", hint: "use \(Field.at)")) {
            try add(.water, "250ml") { $0.from = "07:00" }
        }
        #expect(throws: RecordError.invalidOption(option: Field("drink"), reason: "only for water entries", hint: nil)) {
            try add(.meal, "500kcal") { $0.drink = "tea" }
        }
        #expect(throws: RecordError.invalidOption(option: Field("pulse"), reason: "only blood pressure has a pulse", hint: nil)) {
            try add(.weight, "70kg") { $0.pulse = "60" }
        }
        #expect(throws: RecordError.invalidField(field: Field("meal"), reason: "'elevenses' is not one of breakfast, brunch, lunch, dinner, snack, fruit")) {
            try add(.meal, "500kcal") { $0.meal = "elevenses" }
        }
        #expect(throws: RecordError.invalidField(field: Field("factor"), reason: "'4' is not a hydration factor; use a number from 0 to 3, e.g. 0.9")) {
            try add(.water, "250ml") { $0.factor = "4" }
        }
        #expect(throws: RecordError.invalidOption(option: Field.argument("amount"), reason: "8h does not match \(Field.from) and \(Field.to) (7h 30m)", hint: "give the duration or \(Field.from) and \(Field.to)")) {
            try add(.sleep, "8h") { input in
                input.from = "23:00"
                input.to = "06:30"
            }
        }
        #expect(throws: RecordError.invalidOption(option: Field.argument("amount"), reason: "how much? e.g. 250ml, 8floz, 1cup or + (one serving)", hint: nil)) {
            try add(.water, nil)
        }
        // --to is the latest such time not ahead of the clock: 13:00 is still ahead at 12:00, so it was yesterday.
        let yesterday = try f.log(.workout, "30min", at: now) { $0.to = "13:00" }
        #expect(yesterday.at == "2026-03-09T12:00:00Z" && yesterday.day == Self.day("2026-03-09"))
        // --tz: where it happened, and HH:MM read there.
        let abroad = try f.log(.meal, "800kcal", at: now) { input in
            input.timeZone = "America/New_York"
            input.at = "06:00"
        }
        #expect(abroad.at == "2026-03-10T10:00:00Z" && abroad.timeZone == "America/New_York" && abroad.day == Self.day("2026-03-10"))
    }

    @Test func servingsUseTheProfilesServingSize() throws {
        let f = try X("log-serving")
        defer { f.cleanUp() }
        var input = HealthSettingsStore.Input()
        input.serving = "330ml"
        input.activity = "active"
        let settings = try HealthSettingsStore(vault: f.vault, profile: f.profile, time: RecordFixtures.time("2026-03-10T08:00:00Z", "UTC")).set(input)
        #expect(settings.servingML == 330 && settings.activityLevel == .moderate && settings.updatedAt == "2026-03-10T08:00:00Z")
        #expect(try f.log(.water, "+2", at: "2026-03-10T09:00:00Z").value == 660)
        input = HealthSettingsStore.Input()
        input.serving = "2 servings"
        #expect(throws: RecordError.invalidField(field: Field("serving"), reason: "'2 servings' is not an amount phr understands; use e.g. 250ml, 0.5l or 8floz")) {
            try HealthSettingsStore(vault: f.vault, profile: f.profile, time: RecordFixtures.time("2026-03-10T08:00:00Z", "UTC")).set(input)
        }
    }

    @Test func profilesKeepTheirOwnLogsAndGoals() throws {
        let f = try X("log-profiles")
        defer { f.cleanUp() }
        let child = try f.vault.database.write { try Profiles.create($0, name: "Sam", relation: .child) }
        let time = RecordFixtures.time("2026-03-10T12:00:00+01:00", "Europe/Berlin")
        var input = LogStore.Input()
        input.amount = "1l"
        let mine = try LogStore(vault: f.vault, profile: f.profile, time: time).add(.water, input)
        let theirs = try LogStore(vault: f.vault, profile: child, time: time).add(.water, input)
        try GoalStore(vault: f.vault, profile: child, time: time).set("water", "1.2l")
        #expect(try LogStore(vault: f.vault, profile: child, time: time).list().map(\.id) == [theirs.id])
        #expect(throws: RecordError.notFound(kind: "log", id: mine.id)) { try LogStore(vault: f.vault, profile: child, time: time).get(mine.id) }
        #expect(try GoalStore(vault: f.vault, profile: f.profile, time: time).list()[0].current.isDefault)
        #expect(try GoalStore(vault: f.vault, profile: child, time: time).list()[0].current.value == 1200)
        let progress = try LogStore(vault: f.vault, profile: child, time: time).progress(.water, on: Self.day("2026-03-10"))
        #expect(progress.total == 1000 && !progress.met && progress.goal.value == 1200)
    }

    @Test func bodyMassIndexUsesTheNewestWeightAndWHOCategories() throws {
        #expect(BodyMassIndex.Category.of(18.4) == .mildThinness && BodyMassIndex.Category.of(18.5) == .normal)
        #expect(BodyMassIndex.Category.of(24.9) == .normal && BodyMassIndex.Category.of(25) == .preObesity)
        #expect(BodyMassIndex.Category.of(15.9) == .severeThinness && BodyMassIndex.Category.of(16.9) == .moderateThinness)
        #expect(BodyMassIndex.Category.of(34.9) == .obesityClassI && BodyMassIndex.Category.of(39.9) == .obesityClassII)
        #expect(BodyMassIndex.Category.of(40) == .obesityClassIII)
        // 24.96 rounds to 25.0: the category follows the figure shown.
        let edge = BodyMassIndex.compute(weightKg: 80.87, heightCm: 180, ageYears: 40, weightFrom: "given", heightFrom: "given")
        #expect(edge.bmi == 25 && edge.category == .preObesity)
        #expect(edge.normalWeightLowKg == 59.9 && edge.normalWeightHighKg == 80.7)
        let child = BodyMassIndex.compute(weightKg: 40, heightCm: 150, ageYears: 12, weightFrom: "given", heightFrom: "given")
        #expect(child.bmi == 17.8 && child.category == nil)

        let f = try X("log-bmi")
        defer { f.cleanUp() }
        let time = RecordFixtures.time("2026-03-10T12:00:00Z", "Europe/Berlin")
        #expect(throws: RecordError.invalidOption(option: Field("weight"), reason: "no weight known for me",
                                                  hint: "give \(Field.weight) 72kg, log one with '\(Action.logWeight(example: "72kg"))', or set it with '\(Action.setMedicalID(.weight, example: "72kg"))'")) {
            try BodyMassIndex.forProfile(vault: f.vault, profile: f.profile, time: time, weight: nil, height: nil)
        }
        var id = MedicalIDStore.Input()
        id.height = "178cm"
        id.weight = "80kg"
        id.dateOfBirth = "1990-01-01"
        try MedicalIDStore(vault: f.vault, profile: f.profile, time: time).set(id)
        #expect(try BodyMassIndex.forProfile(vault: f.vault, profile: f.profile, time: time, weight: nil, height: nil).bmi == 25.2)
        try f.log(.weight, "160lb", at: "2026-03-09T07:00:00Z")
        let logged = try BodyMassIndex.forProfile(vault: f.vault, profile: f.profile, time: time, weight: nil, height: nil)
        #expect(logged.bmi == 22.9 && logged.weightFrom == "logged 2026-03-09" && logged.category == .normal && logged.ageYears == 36)
        #expect(try BodyMassIndex.forProfile(vault: f.vault, profile: f.profile, time: time, weight: "100kg", height: "2m").bmi == 25)
    }
}
