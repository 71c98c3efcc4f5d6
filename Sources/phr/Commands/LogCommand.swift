import ArgumentParser
import Foundation
import PHRService

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "The daily health log: water, sleep, workouts, meals, weight, blood pressure, glucose.",
        discussion: """
            Each entry counts for the day it happened, in the time zone you were in (TZ, or \
            --tz). A sleep or workout counts for the day it ends, so last night's sleep is \
            this morning's. Water: ml, l, cl, US fl oz (or oz), US cups (236.6 ml), servings \
            (250 ml unless 'phr log settings --serving' says otherwise), or + for one serving. \
            Drinks carry a hydration factor, shown by 'phr log drinks'. 'phr stats' sums it up.
            """,
        subcommands: [LogWater.self, LogSleep.self, LogWorkout.self, LogMeal.self, LogWeight.self, LogBloodPressure.self,
                      LogGlucose.self, LogList.self, LogShow.self, LogEdit.self, LogRemove.self, LogSettings.self, LogDrinks.self]
    )
}

/// Options every `phr log METRIC` takes.
struct LogEntryOptions: ParsableArguments {
    @Option(name: .customLong("tz"), help: "The IANA time zone it happened in, if not yours now, e.g. Europe/Berlin.") var timeZone: String?
    @Option(help: "A note, e.g. what it was or how you felt.") var note: String?
}

/// `--at` for point entries.
struct LogAtOption: ParsableArguments {
    @Option(help: "When: HH:MM (today, or yesterday if still ahead), \"YYYY-MM-DD HH:MM\", or ISO 8601 (default now).")
    var at: String?
}

/// `--from` and `--to` for sleep and workouts.
struct LogSpanOptions: ParsableArguments {
    @Option(help: "When it started: HH:MM (the latest such time before the end) or \"YYYY-MM-DD HH:MM\".") var from: String?
    @Option(help: "When it ended: HH:MM (the latest such time, today or yesterday) or \"YYYY-MM-DD HH:MM\" (default now).") var to: String?
}

/// Logs an entry and says what it did, with where the day stands.
enum LogAdd {
    static func run(_ metric: LogMetric, _ input: LogStore.Input, vault: VaultOptions, profile: ProfileOptions, output: OutputOptions) throws {
        let context = try RecordContext(vault, profile)
        let store = LogStore(vault: context.vault, profile: context.profile, time: context.time)
        let entry = try RecordContext.options { try store.add(metric, input) }
        let progress = metric.isHabit ? try store.progress(metric, on: entry.day) : nil
        if output.json {
            struct Logged: Encodable {
                let entry: LogEntry
                let progress: LogStore.DayProgress?
            }
            return try Console.json(Logged(entry: entry, progress: progress))
        }
        let settings = try HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time).get()
        let format = HealthFormat(settings)
        var line = "logged \(entry.id): \(LogText.describe(entry, format)) \(HealthLogText.when(entry, context.time))"
        if let progress { line += "; " + HealthLogText.progress(progress, format, today: context.time.today()) }
        if metric == .weight, let bmi = try? BodyMassIndex.forProfile(vault: context.vault, profile: context.profile, time: context.time,
                                                                       weight: nil, height: nil), bmi.weightFrom.hasPrefix("logged") {
            line += "; BMI \(HealthFormat.number(bmi.bmi, decimals: 1))" + (bmi.category.map { " (\($0.name.lowercased()))" } ?? "")
        }
        Console.out(line)
        // Logged as asked, but a span this long is usually --from and --to the wrong way round.
        if entry.isImplausiblyLong {
            Console.warning("that is \(format.entry(entry)) of \(metric.rawValue); if --from and --to were meant the other way, "
                            + "'phr log edit \(entry.id) --from HH:MM --to HH:MM' corrects it")
        }
    }
}

/// How entries read in sentences and tables.
enum LogText {
    /// "water 250 ml of coffee", "water 250 ml of milk (counts as 375 ml)", "sleep 7h 30m",
    /// "workout 45m (run)", "meal 650 kcal (lunch)", "blood pressure 120/80 mmHg, pulse 64".
    static func describe(_ entry: LogEntry, _ format: HealthFormat) -> String {
        let amount = format.entry(entry)
        switch entry.metric {
        case .water:
            var text = "water \(amount)"
            if let drink = entry.kind, drink != HydrationFactors.defaultDrink { text += " of \(HealthLogText.kind(drink)!)" }
            if let factor = entry.factor, factor != 1 { text += " (counts as \(format.amount(entry.counted, .water)))" }
            return text
        case .bp:
            return "blood pressure \(amount)"
        default:
            return "\(entry.metric.rawValue) \(amount)" + (HealthLogText.kind(entry.kind).map { " (\($0))" } ?? "")
        }
    }
}

struct LogWater: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "water", abstract: "Log a drink: 250ml, 0.5l, 8floz, 1cup, 2servings, or + for one serving.",
        discussion: "--drink names it (water, tea, coffee, milk, juice, soda...); its hydration factor decides how much counts toward the water goal ('phr log drinks').")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "How much: 250ml, 0.5l, 8floz, 1cup, 2servings, + (one serving) or +2.") var amount: String
    @Option(help: "What it was: water, sparkling, tea, coffee, milk, skim-milk, juice, soda, beer, sports-drink, ors, or any name.")
    var drink: String?
    @Option(help: "Your own hydration factor, 0 to 3, instead of the drink's.") var factor: String?
    @OptionGroup var at: LogAtOption
    @OptionGroup var options: LogEntryOptions

    func run() throws {
        var input = LogStore.Input()
        input.amount = amount
        input.drink = drink
        input.factor = factor
        input.at = at.at
        input.timeZone = options.timeZone
        input.note = options.note
        try LogAdd.run(.water, input, vault: vault, profile: profile, output: output)
    }
}

struct LogSleep: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep", abstract: "Log a sleep: 7.5h, 7h30m, or --from 23:10 --to 06:40.",
        discussion: "It counts for the day it ends. Several a day are fine (naps); they add up.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "How long: 7.5h, 7h30m, 1:30 (ending now unless --from or --to).") var duration: String?
    @OptionGroup var span: LogSpanOptions
    @OptionGroup var options: LogEntryOptions

    func run() throws {
        var input = LogStore.Input()
        input.amount = duration
        input.from = span.from
        input.to = span.to
        input.timeZone = options.timeZone
        input.note = options.note
        try LogAdd.run(.sleep, input, vault: vault, profile: profile, output: output)
    }
}

struct LogWorkout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout", abstract: "Log a workout: 45min [--type run].",
        discussion: "It ends now unless --from or --to say otherwise, and counts for the day it ends.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "How long: 45min, 1h, 1h15m.") var duration: String?
    @Option(help: "What kind: run, walk, swim, cycling, yoga, strength...") var type: String?
    @OptionGroup var span: LogSpanOptions
    @OptionGroup var options: LogEntryOptions

    func run() throws {
        var input = LogStore.Input()
        input.amount = duration
        input.type = type
        input.from = span.from
        input.to = span.to
        input.timeZone = options.timeZone
        input.note = options.note
        try LogAdd.run(.workout, input, vault: vault, profile: profile, output: output)
    }
}

struct LogMeal: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "meal", abstract: "Log a meal: 650kcal (or kJ) [--meal lunch].")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Its energy: 650kcal, 2700kJ, or a number of kcal.") var energy: String
    @Option(help: "breakfast, brunch, lunch, dinner, snack or fruit.") var meal: String?
    @OptionGroup var at: LogAtOption
    @OptionGroup var options: LogEntryOptions

    func run() throws {
        var input = LogStore.Input()
        input.amount = energy
        input.meal = meal
        input.at = at.at
        input.timeZone = options.timeZone
        input.note = options.note
        try LogAdd.run(.meal, input, vault: vault, profile: profile, output: output)
    }
}

struct LogWeight: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "weight", abstract: "Log your weight: 72.5kg or 160lb.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "72.5kg or 160lb.") var weight: String
    @OptionGroup var at: LogAtOption
    @OptionGroup var options: LogEntryOptions

    func run() throws {
        var input = LogStore.Input()
        input.amount = weight
        input.at = at.at
        input.timeZone = options.timeZone
        input.note = options.note
        try LogAdd.run(.weight, input, vault: vault, profile: profile, output: output)
    }
}

struct LogBloodPressure: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bp", abstract: "Log a blood pressure: 120/80 [--pulse 64].")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Systolic/diastolic in mmHg, e.g. 120/80.") var pressure: String
    @Option(help: "The pulse, beats per minute.") var pulse: String?
    @OptionGroup var at: LogAtOption
    @OptionGroup var options: LogEntryOptions

    func run() throws {
        var input = LogStore.Input()
        input.amount = pressure
        input.pulse = pulse
        input.at = at.at
        input.timeZone = options.timeZone
        input.note = options.note
        try LogAdd.run(.bp, input, vault: vault, profile: profile, output: output)
    }
}

struct LogGlucose: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glucose", abstract: "Log a blood glucose reading: 5.4mmol/L or 97mg/dL.",
        discussion: "1 mmol/L = 18.0156 mg/dL (glucose, 180.156 g/mol). A bare number is in the unit 'phr log settings --glucose-unit' sets (mmol/L unless changed).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "5.4mmol/L or 97mg/dL.") var glucose: String
    @Option(help: "fasting, before-meal, after-meal, bedtime or random.") var context: String?
    @OptionGroup var at: LogAtOption
    @OptionGroup var options: LogEntryOptions

    func run() throws {
        var input = LogStore.Input()
        input.amount = glucose
        input.context = context
        input.at = at.at
        input.timeZone = options.timeZone
        input.note = options.note
        try LogAdd.run(.glucose, input, vault: vault, profile: profile, output: output)
    }
}

struct LogList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List log entries, newest first.",
        discussion: "Without --on, --since or --until, the newest --limit entries (20).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this metric: water, sleep, workout, meal, weight, bp, glucose.") var metric: String?
    @Option(help: "Only entries counting for this day (YYYY-MM-DD, today, yesterday).") var on: String?
    @Option(help: "From this day on (YYYY-MM-DD).") var since: String?
    @Option(help: "Up to this day (YYYY-MM-DD).") var until: String?
    @Option(help: "At most this many.") var limit: Int?

    func run() throws {
        let context = try RecordContext(vault, profile)
        var filter = LogStore.Filter()
        try RecordContext.options {
            filter.metric = try metric.map { try LogMetric.parse($0, field: Field("metric")) }
            if let on {
                let day = try LogStore.day(on, field: Field("on"), today: context.time.today())
                (filter.since, filter.until) = (day, day)
            }
            if let since { filter.since = try LogStore.day(since, field: Field("since"), today: context.time.today()) }
            if let until { filter.until = try LogStore.day(until, field: Field("until"), today: context.time.today()) }
        }
        if let limit {
            guard limit > 0 else { throw RecordError.invalidOption(option: Field("limit"), reason: "use a positive number", hint: nil) }
            filter.limit = limit
        } else if on == nil && since == nil && until == nil {
            filter.limit = 20
        }
        let entries = try LogStore(vault: context.vault, profile: context.profile, time: context.time).list(filter)
        if output.json { return try Console.json(entries) }
        if entries.isEmpty { return Console.note("no log entries here; log one with 'phr log water 250ml' or 'phr log sleep 7.5h'") }
        let format = HealthFormat(try HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time).get())
        Table.print(header: ["ID", "WHEN", "DAY", "METRIC", "AMOUNT", "DETAIL"], rows: entries.map { entry in
            var amount = format.entry(entry)
            if let start = entry.startInstant { amount += ", \(TimeText.clock(start, in: entry.zone))–\(TimeText.clock(entry.instant, in: entry.zone))" }
            if let factor = entry.factor, factor != 1 { amount += " (counts \(format.amount(entry.counted, .water)))" }
            let detail = [HealthLogText.kind(entry.kind), entry.note].compactMap { $0 }.joined(separator: "; ")
            return [entry.id, HealthLogText.stamp(entry, context.time), entry.day.description, entry.metric.rawValue, amount, RecordText.or(detail.nilIfEmpty)]
        })
    }
}

struct LogShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one log entry.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry's ID (any unique prefix).") var id: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let entry = try LogStore(vault: context.vault, profile: context.profile, time: context.time).get(id)
        if output.json { return try Console.json(entry) }
        let format = HealthFormat(try HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time).get())
        var factorText: String?
        if let factor = entry.factor, let drink = entry.kind {
            let basis = HydrationFactors.basis(drink: drink, factor: factor)
            factorText = "\(String(format: "%.2f", factor)), \(HydrationFactors.explanation(of: basis, factor: factor)): counts as \(format.amount(entry.counted, .water))"
        }
        RecordText.fields([
            ("id", entry.id), ("metric", entry.metric.title), ("amount", format.entry(entry)),
            (entry.metric.kindName ?? "kind", HealthLogText.kind(entry.kind)),
            ("hydration", factorText),
            ("started", entry.startInstant.map { LocalDateTime($0, in: entry.zone).display }),
            (entry.metric.isInterval ? "ended" : "at", LocalDateTime(entry.instant, in: entry.zone).display),
            ("time zone", entry.timeZone), ("counts for", entry.day.description), ("note", entry.note),
            ("logged", entry.createdAt), ("changed", entry.updatedAt == entry.createdAt ? nil : entry.updatedAt),
        ])
    }
}

struct LogEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a log entry.",
        discussion: "Only the options given change; an empty value (--note \"\") clears a field.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry's ID (any unique prefix).") var id: String
    @Option(help: "A new amount, written as when logging: 300ml, 8h, 700kcal, 72kg, 125/82, 5.6mmol/L.") var amount: String?
    @Option(help: "When (point entries).") var at: String?
    @OptionGroup var span: LogSpanOptions
    @Option(help: "The drink (water entries).") var drink: String?
    @Option(help: "A hydration factor of your own, 0 to 3 (\"\" for the drink's).") var factor: String?
    @Option(help: "The workout type.") var type: String?
    @Option(help: "The meal.") var meal: String?
    @Option(help: "The glucose context.") var context: String?
    @Option(help: "The pulse (blood pressure).") var pulse: String?
    @OptionGroup var options: LogEntryOptions

    func run() throws {
        var input = LogStore.Input()
        input.amount = amount
        input.at = at
        input.from = span.from
        input.to = span.to
        input.drink = drink
        input.factor = factor
        input.type = type
        input.meal = meal
        input.context = self.context
        input.pulse = pulse
        input.timeZone = options.timeZone
        input.note = options.note
        let given: [String?] = [amount, at, span.from, span.to, drink, factor, type, meal, self.context, pulse, options.timeZone, options.note]
        guard given.contains(where: { $0 != nil }) else {
            throw RecordError.invalidOption(option: Field.path("log edit"), reason: "nothing to change", hint: "give --amount, --at, --from, --to, --note or another option")
        }
        let recordContext = try RecordContext(vault, profile)
        let store = LogStore(vault: recordContext.vault, profile: recordContext.profile, time: recordContext.time)
        let entry = try RecordContext.options { try store.edit(id, input) }
        if output.json { return try Console.json(entry) }
        let format = HealthFormat(try HealthSettingsStore(vault: recordContext.vault, profile: recordContext.profile, time: recordContext.time).get())
        Console.out("updated \(entry.id): \(LogText.describe(entry, format)) \(HealthLogText.when(entry, recordContext.time))")
    }
}

struct LogRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove a log entry.", discussion: "Asks for confirmation on a terminal unless --yes.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The entry's ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = LogStore(vault: context.vault, profile: context.profile, time: context.time)
        let entry = try store.get(id)
        let format = HealthFormat(try HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time).get())
        guard try RecordContext.confirmRemoval("log \(entry.id) (\(LogText.describe(entry, format)) on \(entry.day))", id: entry.id, yes: yes) else { return }
        let removed = try store.remove(entry.id)
        Console.out("removed log \(removed.id) (\(LogText.describe(removed, format)) on \(removed.day))")
    }
}

struct LogSettings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show or change the log settings: serving size, activity level, units.",
        discussion: "Without options, shows them. An empty value (--activity \"\") resets a setting to its default.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "One serving of water, for 'phr log water +' (default 250ml).") var serving: String?
    @Option(help: "sedentary, moderate or vigorous: used by 'phr goal suggest' for calories.") var activity: String?
    @Option(help: "metric (litres, kilograms) or us (fluid ounces, pounds) for totals.") var units: String?
    @Option(name: .customLong("glucose-unit"), help: "mmol/L or mg/dL.") var glucoseUnit: String?

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time)
        var input = HealthSettingsStore.Input()
        input.serving = serving
        input.activity = activity
        input.units = units
        input.glucoseUnit = glucoseUnit
        let settings = input.isEmpty ? try store.get() : try RecordContext.options { try store.set(input) }
        if output.json { return try Console.json(settings) }
        RecordText.fields([
            ("serving", "\(HealthFormat.number(settings.servingML, decimals: 1)) ml"),
            ("activity", settings.activityLevel.map { level in
                let pal = GoalSuggester.physicalActivityLevel(level)
                return "\(level.rawValue) (\(pal.name), physical activity level \(HealthFormat.number(pal.pal, decimals: 2)))"
            } ?? "not set (goal suggestions assume sedentary)"),
            ("units", settings.units == .metric ? "metric (L, kg)" : "us (fl oz, lb)"),
            ("glucose", settings.glucoseUnit.rawValue),
        ])
    }
}

struct LogDrinks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drinks", abstract: "List drinks and their hydration factors, with the source.",
        discussion: "The factor is the share of a drink's volume that counts toward the water goal.")

    @OptionGroup var output: OutputOptions

    func run() throws {
        if output.json {
            struct Listing: Encodable {
                let drinks: [HydrationFactors.Drink]
                let source: String
                let other: String
            }
            return try Console.json(Listing(drinks: HydrationFactors.drinks, source: HydrationFactors.source,
                                            other: "any other drink counts as water (1.00), an estimate; --factor sets your own"))
        }
        Table.print(header: ["DRINK", "FACTOR", "TESTED AS", "BASIS"], rows: HydrationFactors.drinks.map { drink in
            [drink.name, String(format: "%.2f", drink.factor),
             drink.tested ?? "—", HydrationFactors.explanation(of: drink.basis, factor: drink.factor)]
        })
        Console.out("")
        Console.out("Any other drink counts as water (1.00), an estimate; --factor sets your own.")
        Console.out("Source: \(HydrationFactors.source)")
    }
}
