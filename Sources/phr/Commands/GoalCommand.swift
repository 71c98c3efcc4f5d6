import ArgumentParser
import Foundation
import PHRService

struct GoalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal",
        abstract: "Goals for water, sleep, workouts and meals: set, list, reset, and suggestions from your profile.",
        discussion: """
            Until you set one, the defaults apply: water 2 L, sleep 8h, workouts 60 min and meals \
            2,500 kcal a day. A meal goal is a budget: a day meets it by staying within it. A new \
            goal applies from today (or --since) on; earlier days keep the goal they had.
            """,
        subcommands: [GoalSet.self, GoalList.self, GoalReset.self, GoalSuggest.self]
    )
}

struct GoalSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set a goal: water 2.5l, sleep 8h, workout 150min --per week, meal 2200kcal.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "water, sleep, workout or meal.") var metric: String
    @Argument(help: "The goal with a unit: 2l, 64floz, 8h, 150min, 2200kcal.") var value: String
    @Option(help: "day (default) or week (Monday to Sunday).") var per: String?
    @Option(help: "The first day it applies (YYYY-MM-DD; default today).") var since: String?

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = GoalStore(vault: context.vault, profile: context.profile, time: context.time)
        let goal = try RecordContext.options { try store.set(metric, value, per: per, since: since) }
        if output.json { return try Console.json(goal) }
        let format = HealthFormat(try HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time).get())
        Console.out("\(goal.metric.rawValue) goal: \(GoalText.describe(goal.value, goal.metric, goal.period, format)) from \(goal.since)")
    }
}

struct GoalList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the goals in force today (--history: earlier ones too).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Flag(help: "Show every goal each metric had.") var history = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let listings = try GoalStore(vault: context.vault, profile: context.profile, time: context.time).list()
        if output.json { return try Console.json(listings) }
        let format = HealthFormat(try HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time).get())
        var rows: [[String]] = []
        for listing in listings {
            let goal = listing.current
            rows.append([goal.metric.rawValue, GoalText.describe(goal.value, goal.metric, goal.period, format),
                         goal.since?.description ?? "default"])
            if history {
                for old in listing.history.reversed() where old.since != goal.since {
                    rows.append(["", GoalText.describe(old.value, old.metric, old.period, format), old.since.description])
                }
            }
        }
        Table.print(header: ["METRIC", "GOAL", "SINCE"], rows: rows)
    }
}

struct GoalReset: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reset", abstract: "Put a metric back on its default goal from today on.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "water, sleep, workout or meal.") var metric: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let goal = try RecordContext.options { try GoalStore(vault: context.vault, profile: context.profile, time: context.time).reset(metric) }
        if output.json { return try Console.json(goal) }
        let format = HealthFormat(try HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time).get())
        Console.out("\(goal.metric.rawValue) goal: \(GoalText.describe(goal.value, goal.metric, goal.period, format)) (the default) from \(goal.since)")
    }
}

struct GoalSuggest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest", abstract: "Suggest goals from the profile, with the formula and source of each.",
        discussion: """
            Uses the medical ID (date of birth, sex, height), your newest logged weight (else the \
            medical ID's) and your activity level ('phr log settings --activity'). Water: EFSA \
            2010; sleep: National Sleep Foundation 2015; meals: Mifflin-St Jeor times an FAO/WHO/UNU \
            physical activity level; workouts: WHO 2020. --apply sets them as your goals.
            """)

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "sedentary, moderate or vigorous, instead of the profile's setting.") var activity: String?
    @Flag(help: "Set the suggested goals from today on.") var apply = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = GoalStore(vault: context.vault, profile: context.profile, time: context.time)
        let person = try RecordContext.options { try store.person(activity: activity) }
        let suggestions = GoalSuggester.suggest(for: person)
        let applied = apply ? try store.apply(suggestions) : []
        if output.json {
            struct Suggested: Encodable {
                let suggestions: [GoalSuggestion]
                let applied: [Goal]
            }
            return try Console.json(Suggested(suggestions: suggestions, applied: applied))
        }
        let format = HealthFormat(try HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time).get())
        for (index, suggestion) in suggestions.enumerated() {
            if index > 0 { Console.out("") }
            let metric = suggestion.metric
            var headline = suggestion.value.map { GoalText.describe($0, metric, suggestion.period, format) } ?? "no suggestion"
            if let low = suggestion.low, let high = suggestion.high, suggestion.value != nil {
                headline += " (recommended \(format.amount(low, metric)) to \(format.amount(high, metric)))"
            }
            Console.out(Console.bold(metric.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) + headline)
            RecordText.fields([("formula", suggestion.formula), ("source", suggestion.source)]
                              + suggestion.notes.map { ("note", $0.cli) }, width: 9)
        }
        if apply {
            Console.out("")
            Console.out(applied.isEmpty ? "no goals set: nothing could be suggested"
                                        : "set \(applied.map(\.metric.rawValue).joined(separator: ", ")) goals from \(context.time.today())")
        } else if suggestions.contains(where: { $0.value != nil }) {
            Console.note("'phr goal suggest --apply' sets these as your goals from today")
        }
    }
}

/// Goals in words.
enum GoalText {
    /// "2 L a day", "2h 30m a week", "2,500 kcal a day at most".
    static func describe(_ value: Double, _ metric: LogMetric, _ period: GoalPeriod, _ format: HealthFormat) -> String {
        HealthStatsText.goal(value, metric, period, format)
    }
}
