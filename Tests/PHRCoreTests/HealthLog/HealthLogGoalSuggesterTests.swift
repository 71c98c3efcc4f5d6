import Foundation
import Testing
@testable import PHRCore

/// Suggested goals for fixed profiles against the published formulas and tables: EFSA 2010
/// (water), the National Sleep Foundation 2015 (sleep), Mifflin-St Jeor 1990 times FAO/WHO/UNU
/// activity levels (calories), WHO 2020 (activity).
@Suite struct HealthLogGoalSuggesterTests {
    typealias Person = GoalSuggester.Person

    static func adult(_ years: Int, _ sex: MedicalID.Sex?, kg: Double? = nil, cm: Double? = nil,
                      activity: HealthSettings.ActivityLevel? = nil) -> Person {
        Person(ageMonths: years * 12, sex: sex, heightCm: cm, weightKg: kg, activity: activity)
    }

    @Test func caloriesFollowMifflinStJeorTimesTheActivityLevel() {
        // Men: 10 × 80 + 6.25 × 180 − 5 × 40 + 5 = 1730 kcal; × 1.55 = 2681.5 → 2680.
        let man = GoalSuggester.meals(Self.adult(40, .male, kg: 80, cm: 180, activity: .sedentary))
        #expect(man.value == 2680 && man.period == .day)
        #expect(man.formula == "Mifflin-St Jeor (men): 10 × 80 kg + 6.25 × 180 cm − 5 × 40 years + 5 = 1,730 kcal at rest; × 1.55 (sedentary or light activity, FAO/WHO/UNU 1.40–1.69) = 2,681.5 kcal → 2,680 kcal a day")
        // Women: 10 × 60 + 6.25 × 165 − 5 × 30 − 161 = 1320.25; × 1.85 = 2442.46 → 2440.
        let woman = GoalSuggester.meals(Self.adult(30, .female, kg: 60, cm: 165, activity: .moderate))
        #expect(woman.value == 2440)
        #expect(woman.formula == "Mifflin-St Jeor (women): 10 × 60 kg + 6.25 × 165 cm − 5 × 30 years − 161 = 1,320.25 kcal at rest; × 1.85 (active or moderately active, FAO/WHO/UNU 1.70–1.99) = 2,442.46 kcal → 2,440 kcal a day")
        // Another sex: the mean constant, −78: 700 + 1062.5 − 250 − 78 = 1434.5; × 2.2 = 3155.9 → 3160.
        let other = GoalSuggester.meals(Self.adult(50, .other, kg: 70, cm: 170, activity: .vigorous))
        #expect(other.value == 3160)
        #expect(other.notes.first == "the mean of the male and female equations is used")
        // No activity level: sedentary, said.
        let assumed = GoalSuggester.meals(Self.adult(40, .male, kg: 80, cm: 180))
        #expect(assumed.value == 2680)
        #expect(assumed.notes.contains("no activity level set: sedentary is assumed; set it with '\(Action.setHealthSetting(.activity, example: "sedentary|moderate|vigorous"))'"))
        #expect(assumed.source.hasPrefix("Mifflin MD, St Jeor ST"))
    }

    @Test func caloriesNeedAnAdultWithWeightHeightAndAge() {
        let missing = GoalSuggester.meals(Person(ageMonths: nil, sex: .male, heightCm: nil, weightKg: 80, activity: nil))
        #expect(missing.value == nil)
        #expect(missing.notes == ["missing: height ('\(Action.setMedicalID(.height, example: "178cm"))'); date of birth ('\(Action.setMedicalID(.dob, example: "YYYY-MM-DD"))')"])
        let child = GoalSuggester.meals(Self.adult(15, .female, kg: 50, cm: 160))
        #expect(child.value == nil)
        #expect(child.formula == "Mifflin-St Jeor was derived from adults aged 19–78; no calorie goal is suggested under 18")
    }

    @Test func waterIsEightyPercentOfEFSAsTotalWater() {
        #expect(GoalSuggester.water(Self.adult(40, .male)).value == 2000)
        #expect(GoalSuggester.water(Self.adult(40, .female)).value == 1600)
        #expect(GoalSuggester.water(Self.adult(40, nil)).value == 1800)
        #expect(GoalSuggester.water(Self.adult(6, .male)).value == 1280)
        #expect(GoalSuggester.water(Self.adult(10, .male)).value == 1680)
        #expect(GoalSuggester.water(Self.adult(10, .female)).value == 1520)
        #expect(GoalSuggester.water(Self.adult(2, .female)).value == 1040)
        #expect(GoalSuggester.water(Person(ageMonths: 18, sex: .male, heightCm: nil, weightKg: nil, activity: nil)).value == nil)
        #expect(GoalSuggester.water(Self.adult(40, .male)).formula
                == "EFSA adequate intake of total water for men 14 years and older: 2.5 L a day; drinks give about 80% of it: 2.5 L × 0.8 = 2 L")
        let unknownAge = GoalSuggester.water(Person(ageMonths: nil, sex: .female, heightCm: nil, weightKg: nil, activity: nil))
        #expect(unknownAge.value == 1600)
        #expect(unknownAge.notes.first == "no date of birth: an adult is assumed; set it with '\(Action.setMedicalID(.dob, example: "YYYY-MM-DD"))'")
    }

    @Test func sleepIsTheMiddleOfTheNationalSleepFoundationRange() {
        func sleep(months: Int) -> GoalSuggestion {
            GoalSuggester.sleep(Person(ageMonths: months, sex: nil, heightCm: nil, weightKg: nil, activity: nil))
        }
        let cases: [(Int, Double, Double, Double)] = [
            (2, 14, 17, 15.5), (6, 12, 15, 13.5), (24, 11, 14, 12.5), (4 * 12, 10, 13, 11.5), (10 * 12, 9, 11, 10),
            (15 * 12, 8, 10, 9), (20 * 12, 7, 9, 8), (40 * 12, 7, 9, 8), (70 * 12, 7, 8, 7.5),
        ]
        for (months, low, high, goal) in cases {
            let suggestion = sleep(months: months)
            #expect(suggestion.low == low * 60 && suggestion.high == high * 60 && suggestion.value == goal * 60, "\(months) months")
        }
        #expect(sleep(months: 70 * 12).formula == "National Sleep Foundation recommendation for older adults 65 years and older: 7–8 hours; goal: the middle, 7h 30m")
    }

    @Test func activityFollowsWHO() {
        let adult = GoalSuggester.workouts(Self.adult(40, .female))
        #expect(adult.value == 150 && adult.period == .week && adult.low == 150 && adult.high == 300)
        let child = GoalSuggester.workouts(Self.adult(10, .male))
        #expect(child.value == 60 && child.period == .day)
        let toddler = GoalSuggester.workouts(Self.adult(3, .male))
        #expect(toddler.value == 180 && toddler.period == .day)
        #expect(GoalSuggester.workouts(Person(ageMonths: 6, sex: nil, heightCm: nil, weightKg: nil, activity: nil)).value == nil)
    }

    @Test func ageInMonthsCountsWholeMonths() {
        let born = CalendarDate("1986-05-15")!
        #expect(GoalSuggester.ageMonths(born: born, today: CalendarDate("2026-05-14")!) == 479)
        #expect(GoalSuggester.ageMonths(born: born, today: CalendarDate("2026-05-15")!) == 480)
        #expect(GoalSuggester.ageMonths(born: born, today: CalendarDate("1986-05-01")!) == nil)
    }

    @Test func theProfileSuppliesTheInputsAndApplySetsTheGoals() throws {
        let fixture = try HealthLogFixture("suggest")
        defer { fixture.cleanUp() }
        let now = "2026-05-15T08:00:00Z"
        var id = MedicalIDStore.Input()
        id.dateOfBirth = "1986-05-15"
        id.sex = "m"
        id.height = "180cm"
        id.weight = "85kg"
        try MedicalIDStore(vault: fixture.vault, profile: fixture.profile, time: RecordFixtures.time(now, "Europe/Berlin")).set(id)
        // A logged weight is newer than the medical ID's.
        try fixture.log(.weight, "80kg", at: "2026-05-14T07:00:00Z")
        let store = fixture.goals(now)
        let person = try store.person(activity: "light")
        #expect(person == Person(ageMonths: 480, sex: .male, heightCm: 180, weightKg: 80, activity: .sedentary))
        let goals = try store.apply(GoalSuggester.suggest(for: person))
        #expect(goals.map { "\($0.metric.rawValue) \($0.value) \($0.period.rawValue) \($0.since)" } == [
            "water 2000.0 day 2026-05-15", "sleep 480.0 day 2026-05-15", "meal 2680.0 day 2026-05-15", "workout 150.0 week 2026-05-15",
        ])
        let listed = try store.list().map { "\($0.current.metric.rawValue) \($0.current.value) \($0.current.isDefault)" }
        #expect(listed == ["water 2000.0 false", "sleep 480.0 false", "workout 150.0 false", "meal 2680.0 false"])
    }
}
