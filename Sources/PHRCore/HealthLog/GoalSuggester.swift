import Foundation

/// A suggested goal with the formula that gave it and the source of the figures.
public struct GoalSuggestion: Codable, Sendable, Equatable {
    public var metric: LogMetric
    /// In canonical units per `period`; nil when the profile lacks what the formula needs.
    public var value: Double?
    public var period: GoalPeriod
    /// The recommended range the value was taken from, when the source gives one.
    public var low: Double?
    public var high: Double?
    /// The calculation, with the profile's numbers filled in.
    public var formula: String
    public var source: String
    /// What was assumed or is missing, and caveats.
    public var notes: [Message]
}

/// Suggests goals from a profile (age, sex, height, weight, activity level), each with its
/// formula and source:
///
/// - **water**: EFSA's adequate intake of total water by age and sex (EFSA 2010: 2–3 years
///   1.3 L, 4–8 years 1.6 L, 9–13 years 2.1 L boys / 1.9 L girls, from 14 years 2.5 L men /
///   2.0 L women), of which drinks provide about 80% (food the rest), so the drinks goal is
///   80% of it, to the nearest 10 ml;
/// - **sleep**: the National Sleep Foundation's recommended range for the age (Hirshkowitz et
///   al. 2015); the goal is its middle (7–9 h → 8 h);
/// - **meals**: Mifflin-St Jeor resting energy expenditure (10 × kg + 6.25 × cm − 5 × years,
///   +5 for men, −161 for women) times the physical activity level of the profile's lifestyle,
///   the middle of FAO/WHO/UNU's ranges (sedentary 1.40–1.69 → 1.55, moderately active
///   1.70–1.99 → 1.85, vigorous 2.00–2.40 → 2.20), to the nearest 10 kcal; adults only, as the
///   equation was derived from adults aged 19–78;
/// - **workouts**: WHO 2020: adults at least 150–300 minutes of moderate activity a week
///   (goal 150 a week); 5–17 years an average of 60 minutes a day; WHO 2019: 1–4 years 180
///   minutes a day of any intensity.
///
/// Where sex is not female or male, the mean of the two values (or constants) is used, and
/// said. Without a date of birth an adult is assumed for water, sleep and workouts, and said.
public enum GoalSuggester {
    /// What the suggestions are computed from.
    public struct Person: Sendable, Equatable {
        /// Age in whole months (years are months / 12); nil when the date of birth is unknown.
        public var ageMonths: Int?
        public var sex: MedicalID.Sex?
        public var heightCm: Double?
        public var weightKg: Double?
        public var activity: HealthSettings.ActivityLevel?

        public init(ageMonths: Int?, sex: MedicalID.Sex?, heightCm: Double?, weightKg: Double?, activity: HealthSettings.ActivityLevel?) {
            self.ageMonths = ageMonths
            self.sex = sex
            self.heightCm = heightCm
            self.weightKg = weightKg
            self.activity = activity
        }

        public var ageYears: Int? { ageMonths.map { $0 / 12 } }
    }

    public static let efsaWater = "EFSA Panel on Dietetic Products, Nutrition and Allergies. Scientific Opinion on Dietary Reference Values for water. EFSA Journal 2010;8(3):1459. doi:10.2903/j.efsa.2010.1459"
    public static let nsfSleep = "Hirshkowitz M, Whiton K, Albert SM, et al. National Sleep Foundation's sleep time duration recommendations: methodology and results summary. Sleep Health 2015;1(1):40-43. doi:10.1016/j.sleh.2014.12.010"
    public static let mifflin = "Mifflin MD, St Jeor ST, Hill LA, et al. A new predictive equation for resting energy expenditure in healthy individuals. Am J Clin Nutr 1990;51(2):241-247. doi:10.1093/ajcn/51.2.241; activity levels: FAO/WHO/UNU. Human energy requirements. FAO Food and Nutrition Technical Report Series 1, Rome 2004, table 5.3"
    public static let whoActivity = "WHO guidelines on physical activity and sedentary behaviour. Geneva: World Health Organization; 2020. ISBN 978-92-4-001512-8; for children under 5: WHO guidelines on physical activity, sedentary behaviour and sleep for children under 5 years of age, 2019"

    /// The share of total water intake that comes from drinks (EFSA 2010: food gives 20–30%).
    public static let drinkShare = 0.8

    /// Physical activity levels: the middle of FAO/WHO/UNU's range for each lifestyle.
    public static func physicalActivityLevel(_ level: HealthSettings.ActivityLevel) -> (pal: Double, range: String, name: String) {
        switch level {
        case .sedentary: return (1.55, "1.40–1.69", "sedentary or light activity")
        case .moderate: return (1.85, "1.70–1.99", "active or moderately active")
        case .vigorous: return (2.20, "2.00–2.40", "vigorous or vigorously active")
        }
    }

    public static func suggest(for person: Person) -> [GoalSuggestion] {
        [water(person), sleep(person), meals(person), workouts(person)]
    }

    // MARK: Water

    public static func water(_ person: Person) -> GoalSuggestion {
        var notes: [Message] = []
        let months = person.ageMonths ?? {
            notes.append("no date of birth: an adult is assumed; set it with '\(Action.setMedicalID(.dob, example: "YYYY-MM-DD"))'")
            return 30 * 12
        }()
        guard months >= 24 else {
            return GoalSuggestion(metric: .water, value: nil, period: .day, low: nil, high: nil,
                                  formula: "EFSA's adequate intakes for infants and toddlers under 2 depend on milk feeding; no goal is suggested",
                                  source: efsaWater, notes: ["ask the child's doctor"])
        }
        let years = months / 12
        let (male, female, group): (Double, Double, String) = years <= 3 ? (1300, 1300, "2–3 years")
            : years <= 8 ? (1600, 1600, "4–8 years")
            : years <= 13 ? (2100, 1900, "9–13 years")
            : (2500, 2000, "14 years and older")
        let (total, who) = bySex(person.sex, male: male, female: female, maleName: years <= 13 ? "boys" : "men",
                                 femaleName: years <= 13 ? "girls" : "women", notes: &notes)
        let value = (total * drinkShare / 10).rounded() * 10
        let litres = { (ml: Double) in HealthFormat.number(ml / 1000, decimals: 2) + " L" }
        let formula = "EFSA adequate intake of total water for \(who) \(group): \(litres(total)) a day; drinks give about 80% of it: \(litres(total)) × 0.8 = \(litres(value))"
        notes.append("pregnancy adds 0.3 L and breastfeeding about 0.7 L of total water a day; heat and exercise raise needs (EFSA 2010)")
        return GoalSuggestion(metric: .water, value: value, period: .day, low: nil, high: nil, formula: formula, source: efsaWater, notes: notes)
    }

    // MARK: Sleep

    /// The National Sleep Foundation's ranges, hours, by age in months (upper bounds exclusive).
    static let sleepRanges: [(below: Int, low: Double, high: Double, group: String)] = [
        (4, 14, 17, "newborns 0–3 months"), (12, 12, 15, "infants 4–11 months"), (36, 11, 14, "toddlers 1–2 years"),
        (72, 10, 13, "preschoolers 3–5 years"), (168, 9, 11, "school-age children 6–13 years"), (216, 8, 10, "teenagers 14–17 years"),
        (312, 7, 9, "young adults 18–25 years"), (780, 7, 9, "adults 26–64 years"), (Int.max, 7, 8, "older adults 65 years and older"),
    ]

    public static func sleep(_ person: Person) -> GoalSuggestion {
        var notes: [Message] = []
        let months = person.ageMonths ?? {
            notes.append("no date of birth: an adult (26–64 years) is assumed; set it with '\(Action.setMedicalID(.dob, example: "YYYY-MM-DD"))'")
            return 30 * 12
        }()
        let range = sleepRanges.first { months < $0.below }!
        let middle = (range.low + range.high) / 2
        let hours = { (h: Double) in HealthFormat.number(h, decimals: 1) }
        let formula = "National Sleep Foundation recommendation for \(range.group): \(hours(range.low))–\(hours(range.high)) hours; goal: the middle, \(HealthFormat.duration(minutes: middle * 60))"
        if months < 72 { notes.append("for young children the hours include naps") }
        return GoalSuggestion(metric: .sleep, value: middle * 60, period: .day, low: range.low * 60, high: range.high * 60,
                              formula: formula, source: nsfSleep, notes: notes)
    }

    // MARK: Meals

    public static func meals(_ person: Person) -> GoalSuggestion {
        var notes: [Message] = []
        var missing: [Message] = []
        if person.weightKg == nil { missing.append("weight ('\(Action.logWeight(example: "72kg"))' or '\(Action.setMedicalID(.weight, example: "72kg"))')") }
        if person.heightCm == nil { missing.append("height ('\(Action.setMedicalID(.height, example: "178cm"))')") }
        if person.ageMonths == nil { missing.append("date of birth ('\(Action.setMedicalID(.dob, example: "YYYY-MM-DD"))')") }
        guard missing.isEmpty, let weight = person.weightKg, let height = person.heightCm, let years = person.ageYears else {
            return GoalSuggestion(metric: .meal, value: nil, period: .day, low: nil, high: nil,
                                  formula: "Mifflin-St Jeor needs weight, height and age", source: mifflin,
                                  notes: ["missing: " + Message.joined(missing, separator: "; ")])
        }
        guard years >= 18 else {
            return GoalSuggestion(metric: .meal, value: nil, period: .day, low: nil, high: nil,
                                  formula: "Mifflin-St Jeor was derived from adults aged 19–78; no calorie goal is suggested under 18",
                                  source: mifflin, notes: ["children's energy needs include growth; ask their doctor"])
        }
        let constant: Double
        let who: String
        switch person.sex {
        case .male?: (constant, who) = (5, "men")
        case .female?: (constant, who) = (-161, "women")
        case .other?, nil:
            (constant, who) = (-78, "the mean of the constants for men (+5) and women (−161)")
            notes.append(person.sex == nil ? "no sex in the medical ID: the mean of the male and female equations is used; set it with '\(Action.setMedicalID(.sex, example: nil))'"
                                           : "the mean of the male and female equations is used")
        }
        let level = person.activity ?? {
            notes.append("no activity level set: sedentary is assumed; set it with '\(Action.setHealthSetting(.activity, example: "sedentary|moderate|vigorous"))'")
            return .sedentary
        }()
        let resting = 10 * weight + 6.25 * height - 5 * Double(years) + constant
        let activity = physicalActivityLevel(level)
        let total = resting * activity.pal
        let value = (total / 10).rounded() * 10
        let n = { (v: Double) in HealthFormat.number(v, decimals: 2) }
        let sign = constant < 0 ? "− \(n(-constant))" : "+ \(n(constant))"
        let formula = "Mifflin-St Jeor (\(who)): 10 × \(n(weight)) kg + 6.25 × \(n(height)) cm − 5 × \(years) years \(sign) = \(n(resting)) kcal at rest; "
            + "× \(n(activity.pal)) (\(activity.name), FAO/WHO/UNU \(activity.range)) = \(n(total)) kcal → \(HealthFormat.number(value, decimals: 0)) kcal a day"
        notes.append("a daily budget: a day meets it when the meals logged stay within it")
        return GoalSuggestion(metric: .meal, value: value, period: .day, low: nil, high: nil, formula: formula, source: mifflin, notes: notes)
    }

    // MARK: Workouts

    public static func workouts(_ person: Person) -> GoalSuggestion {
        var notes: [Message] = []
        let months = person.ageMonths ?? {
            notes.append("no date of birth: an adult is assumed; set it with '\(Action.setMedicalID(.dob, example: "YYYY-MM-DD"))'")
            return 30 * 12
        }()
        let years = months / 12
        if years >= 18 {
            notes.append("75–150 minutes of vigorous activity count the same; muscle-strengthening on 2 or more days a week")
            return GoalSuggestion(metric: .workout, value: 150, period: .week, low: 150, high: 300,
                                  formula: "WHO: adults (including 65 and older) at least 150–300 minutes of moderate-intensity aerobic activity a week; goal: 150 minutes a week",
                                  source: whoActivity, notes: notes)
        }
        if years >= 5 {
            return GoalSuggestion(metric: .workout, value: 60, period: .day, low: 60, high: nil,
                                  formula: "WHO: children and adolescents 5–17 years an average of at least 60 minutes a day of moderate-to-vigorous activity; goal: 60 minutes a day",
                                  source: whoActivity, notes: notes)
        }
        if months >= 12 {
            return GoalSuggestion(metric: .workout, value: 180, period: .day, low: 180, high: nil,
                                  formula: "WHO: children 1–4 years at least 180 minutes a day of physical activity of any intensity; goal: 180 minutes a day",
                                  source: whoActivity, notes: notes)
        }
        return GoalSuggestion(metric: .workout, value: nil, period: .day, low: nil, high: nil,
                              formula: "WHO asks for infants to be active several times a day, especially floor play; no minutes goal is suggested under 1 year",
                              source: whoActivity, notes: notes)
    }

    /// The male or female value, or their mean (with a note) when sex is other or unknown.
    static func bySex(_ sex: MedicalID.Sex?, male: Double, female: Double, maleName: String, femaleName: String,
                      notes: inout [Message]) -> (Double, String) {
        switch sex {
        case .male?: return (male, maleName)
        case .female?: return (female, femaleName)
        case .other?, nil:
            if male != female {
                notes.append(sex == nil ? "no sex in the medical ID: the mean of the values for \(maleName) and \(femaleName) is used; set it with '\(Action.setMedicalID(.sex, example: nil))'"
                                        : "the mean of the values for \(maleName) and \(femaleName) is used")
            }
            return ((male + female) / 2, male == female ? "\(maleName) and \(femaleName)" : "\(maleName) and \(femaleName) (mean)")
        }
    }

    /// Whole months from `born` to `today`.
    public static func ageMonths(born: CalendarDate, today: CalendarDate) -> Int? {
        guard born <= today else { return nil }
        var months = (today.year - born.year) * 12 + (today.month - born.month)
        if today.day < born.day { months -= 1 }
        return max(0, months)
    }
}
