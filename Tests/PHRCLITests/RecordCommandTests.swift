import Foundation
import Testing

/// The record commands through the real binary: stdout, stderr and exit status pinned, with
/// the clock (PHR_TEST_NOW, debug builds only) and the zone (TZ) fixed.
@Suite struct RecordCommandTests {
    static let passphrase = "correct horse battery staple"
    static let fhir = CorpusData.path("fhir")

    /// The passphrase, a zone and a "now".
    static func env(_ now: String, _ zone: String = "Europe/Berlin", _ extra: [String: String] = [:]) -> [String: String] {
        ["PHR_PASSPHRASE": passphrase, "TZ": zone, "PHR_TEST_NOW": now].merging(extra) { $1 }
    }

    /// The ID in "added med k3f9x2 ..." or "added emergency contact 37gm4t ...": the first word
    /// that is a record ID (six characters of the ID alphabet).
    static func id(_ result: CLI.Result) throws -> String {
        let word = result.stdout.split(separator: " ").first { $0.range(of: "^[0-9a-hjkmnp-tv-z]{6}$", options: .regularExpression) != nil }
        return String(try #require(word, "no ID in \(result.stdout)"))
    }

    static func expect(_ result: CLI.Result, status: Int32 = 0, stdout: String? = nil, stderr: String = "",
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        if let stdout { #expect(result.stdout == stdout, sourceLocation: sourceLocation) }
        #expect(result.stderr == stderr, sourceLocation: sourceLocation)
    }

    @Test func medicationsDoseGuardAndDueAcrossTheBerlinDSTChange() throws {
        let cli = try CLI(label: "med")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let added = Self.env("2026-03-27T10:00:00Z")
        let metformin = try cli.run(["med", "add", "Metformin", "--dose", "500 mg", "--form", "tablet", "--schedule", "20:00,08:00"], added)
        let a = try Self.id(metformin)
        Self.expect(metformin, stdout: "added med \(a) Metformin 500 mg tablet, 08:00 and 20:00\n")
        let nightly = try cli.run(["med", "add", "Nightly", "--schedule", "02:30"], added)
        let n = try Self.id(nightly)
        let amoxicillin = try cli.run(["med", "add", "Amoxicillin", "--dose", "500 mg", "--every", "8h"], added)
        let x = try Self.id(amoxicillin)
        let ibuprofen = try cli.run(["med", "add", "Ibuprofen", "--dose", "400 mg", "--as-needed", "--min-interval", "4h", "--max-per-day", "3"], added)
        let i = try Self.id(ibuprofen)
        Self.expect(ibuprofen, stdout: "added med \(i) Ibuprofen 400 mg, as needed\n")

        // 22:30 CET on 2026-03-28; that night Europe/Berlin skips from 02:00 to 03:00.
        let now = Self.env("2026-03-28T21:30:00Z")
        Self.expect(try cli.run(["med", "take", a, "--at", "08:00"], now),
                    stdout: "logged \(try Self.doseID(cli, a, now)): took Metformin 500 mg tablet today at 08:00 (the 08:00 dose)\n",
                    stderr: "phr: the dose of today at 20:00 is overdue\n")
        Self.expect(try cli.run(["med", "take", n, "--at", "2026-03-28 02:30"], now), stderr: "phr: next dose tomorrow at 03:30\n")
        Self.expect(try cli.run(["med", "take", x, "--at", "20:00"], now), stderr: "phr: next dose tomorrow at 05:00\n")

        Self.expect(try cli.run(["med", "due"], now), stdout: """
            WHEN            ID      MEDICATION   DOSE    STATUS
            today 20:00     \(a)  Metformin    500 mg  overdue by 2h 30m
            tomorrow 03:30  \(n)  Nightly      —       in 4h
            tomorrow 05:00  \(x)  Amoxicillin  500 mg  in 5h 30m
            tomorrow 08:00  \(a)  Metformin    500 mg  in 8h 30m
            tomorrow 13:00  \(x)  Amoxicillin  500 mg  in 13h 30m
            tomorrow 20:00  \(a)  Metformin    500 mg  in 20h 30m
            tomorrow 21:00  \(x)  Amoxicillin  500 mg  in 21h 30m

            """)
        let due = try #require(try JSONSerialization.jsonObject(with: Data(cli.run(["med", "due", "--json", "--within", "6h"], now).stdout.utf8)) as? [[String: Any]])
        #expect(due.map { $0["at"] as? String } == ["2026-03-28T20:00:00+01:00", "2026-03-29T03:30:00+02:00", "2026-03-29T05:00:00+02:00"])
        #expect(due.map { $0["scheduled_for"] as? String } == ["2026-03-28T20:00", "2026-03-29T02:30", nil])

        // The guard: four elapsed hours after 22:30 CET is 03:30 CEST.
        let first = try cli.run(["med", "take", i], now)
        #expect(first.status == 0 && first.stderr.isEmpty)
        Self.expect(try cli.run(["med", "take", i], now), status: 1, stdout: "", stderr: """
            phr: error: dose refused: med \(i) was taken today at 22:30, under a minute before this dose; doses must be at least 4h apart; the next dose is allowed tomorrow at 03:30
            phr: hint: to record it anyway, add --force; the dose is then flagged in the log

            """)
        let forced = try cli.run(["med", "take", i, "--force"], now)
        #expect(forced.status == 0)
        #expect(forced.stdout.hasSuffix(": took Ibuprofen 400 mg today at 22:30\n"))
        #expect(forced.stderr == "phr: warning: recorded despite the dose guard (min-interval); the dose is flagged in the log\n")
        Self.expect(try cli.run(["med", "take", i, "--at", "2026-03-28 23:00"], now), status: 64, stdout: "", stderr: """
            phr: error: --at: today 23:00 is in the future
            phr: hint: log doses when they are taken

            """)
        Self.expect(try cli.run(["med", "take", i, "--skip"], now), status: 1, stdout: "", stderr: """
            phr: error: med \(i) has no schedule, so there is no dose to skip
            phr: hint: skipping applies to medications with --schedule or --every

            """)

        Self.expect(try cli.run(["med", "list"], now), stdout: """
            ID      NAME         DOSE    SCHEDULE         STATUS
            \(x)  Amoxicillin  500 mg  every 8h         active
            \(i)  Ibuprofen    400 mg  as needed        active
            \(a)  Metformin    500 mg  08:00 and 20:00  active
            \(n)  Nightly      —       daily at 02:30   active

            """)
        let show = try cli.run(["med", "show", i], now)
        #expect(show.status == 0)
        #expect(show.stdout.contains("guard        at least 4h apart, at most 3 in 24 hours\n"))
        #expect(show.stdout.contains("adherence    2 doses taken in the last 30 days\n"))
        #expect(show.stdout.contains("forced: min-interval"))

        Self.expect(try cli.run(["med", "stop", n, "--on", "2026-03-29"], now), stdout: "stopping med \(n) Nightly on 2026-03-29\n")
        #expect(try cli.run(["med", "due", "--within", "6h"], now).stdout.contains("Nightly") == false)
        #expect(try cli.run(["med", "list", "--all"], now).stdout.contains("\(n)  Nightly      —       daily at 02:30   stops 2026-03-29\n"))

        Self.expect(try cli.run(["med", "add", "Bad", "--schedule", "25:00"], now), status: 64, stdout: "",
                    stderr: "phr: error: --schedule: '25:00' is not a time; use HH:MM, e.g. 08:00,20:00\n")
        Self.expect(try cli.run(["med", "add", "Bad", "--schedule", "08:00", "--every", "8h"], now), status: 64, stdout: "",
                    stderr: "phr: error: --schedule: choose one of --schedule, --every, --as-needed and --no-schedule\n")
        Self.expect(try cli.run(["med", "show", "zzzz"], now), status: 66, stdout: "", stderr: """
            phr: error: no med with ID 'zzzz'
            phr: hint: list them with 'phr med list'

            """)
        Self.expect(try cli.run(["med", "rm", a], now), status: 64, stdout: "",
                    stderr: "phr: error: --yes: removing \(a) needs --yes when there is no terminal to confirm on\nphr: hint: run it on a terminal to be asked, or add --yes\n")
        Self.expect(try cli.run(["med", "rm", a, "--yes"], now), stdout: "removed med \(a) Metformin 500 mg tablet\n")
    }

    /// The ID of the dose that a `take` at the moment `now` will log is not known in advance:
    /// read it from the log afterwards instead.
    static func doseID(_ cli: CLI, _ medication: String, _ env: [String: String]) throws -> String {
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(cli.run(["med", "show", medication, "--json"], env).stdout.utf8)) as? [String: Any])
        let doses = try #require(shown["doses"] as? [[String: Any]])
        return try #require(doses.first?["id"] as? String)
    }

    @Test func dueAcrossTheNewYorkFallBackShowsTheRepeatedHour() throws {
        let cli = try CLI(label: "med")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = Self.env("2026-10-31T12:00:00Z", "America/New_York")
        let x = try Self.id(try cli.run(["med", "add", "Amoxicillin", "--dose", "250 mg", "--every", "4h"], env))
        let d = try Self.id(try cli.run(["med", "add", "Nightcap", "--schedule", "01:30"], env))
        #expect(try cli.run(["med", "take", x, "--at", "22:00"], Self.env("2026-11-01T02:30:00Z", "America/New_York")).status == 0)
        Self.expect(try cli.run(["med", "due", "--within", "10h"], Self.env("2026-11-01T03:00:00Z", "America/New_York")), stdout: """
            WHEN                     ID      MEDICATION   DOSE    STATUS
            tomorrow 01:30 (-04:00)  \(d)  Nightcap     —       in 2h 30m
            tomorrow 01:00 (-05:00)  \(x)  Amoxicillin  250 mg  in 3h
            tomorrow 05:00           \(x)  Amoxicillin  250 mg  in 7h

            """)
    }

    @Test func appointmentsCalendarAndICalendarFiles() throws {
        let cli = try CLI(label: "appt")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = Self.env("2026-11-20T10:00:00Z")
        let lee = try cli.run(["appt", "add", "--with", "Dr. Lee", "--at", "2026-12-03 09:30", "--where", "Praxis Lee", "--reason", "check-up", "--remind", "1h"], env)
        let l = try Self.id(lee)
        Self.expect(lee, stdout: "added appt \(l) 2026-12-03 09:30 with Dr. Lee\n")
        let dupont = try cli.run(["appt", "add", "--with", "Dr. Dupont", "--at", "2026-12-10 14:00", "--tz", "Europe/Paris", "--duration", "1h"], env)
        let p = try Self.id(dupont)
        Self.expect(dupont, stdout: "added appt \(p) 2026-12-10 14:00 Europe/Paris with Dr. Dupont\n")
        let past = try Self.id(try cli.run(["appt", "add", "--with", "Dr. Old", "--at", "2026-11-02 08:00"], env))
        Self.expect(try cli.run(["appt", "list", "--upcoming"], env), stdout: """
            ID      WHEN                           LENGTH  WITH        WHERE       REASON
            \(l)  2026-12-03 09:30               30m     Dr. Lee     Praxis Lee  check-up
            \(p)  2026-12-10 14:00 Europe/Paris  1h      Dr. Dupont  —           —

            """)
        #expect(try cli.run(["appt", "list", "--past", "--json"], env).stdout.contains("\"id\" : \"\(past)\""))
        #expect(try cli.run(["appt", "list", "--on", "2026-12-10"], env).stdout.contains(p))
        Self.expect(try cli.run(["appt", "list", "--upcoming", "--past"], env), status: 64, stdout: "",
                    stderr: "phr: error: --upcoming: choose one of --upcoming, --past and --on\n")
        Self.expect(try cli.run(["appt", "cal", "--month", "2026-12"], env), stdout: """
                   December 2026
            Mon Tue Wed Thu Fri Sat Sun
                  1   2   3*  4   5   6
              7   8   9  10* 11  12  13
             14  15  16  17  18  19  20
             21  22  23  24  25  26  27
             28  29  30  31

            DAY     TIME   ID      WITH        REASON
             3 Thu  09:30  \(l)  Dr. Lee     check-up
            10 Thu  14:00  \(p)  Dr. Dupont  —

            """)
        Self.expect(try cli.run(["appt", "cal", "--month", "2026-13"], env), status: 64, stdout: "",
                    stderr: "phr: error: --month: '2026-13' is not a month; use YYYY-MM, e.g. 2026-12\n")

        let ics = "\(cli.directory)/appointments.ics"
        Self.expect(try cli.run(["appt", "export", "--ics", ics], env), stdout: "", stderr: "phr: wrote 3 appointments to \(ics)\n")
        let text = try String(contentsOfFile: ics, encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phr//phr 0.1.0//EN\r\n"))
        #expect(text.contains("DTSTART;TZID=Europe/Paris:20261210T140000\r\n"))
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"))
        Self.expect(try cli.run(["appt", "export", "--ics", ics], env), status: 1, stdout: "", stderr: """
            phr: error: \(ics) already exists
            phr: hint: choose another name, remove the file, or add --force

            """)

        let invitation = "\(CLI.packageRoot)/Samples/records/clinic-invitation.ics"
        let imported = try cli.run(["appt", "import", invitation], env)
        Self.expect(imported, stdout: "imported \(invitation) (iCalendar) into profile me\n  appointments   1 added\n")
        Self.expect(try cli.run(["import", invitation], env), stdout: "imported \(invitation) (iCalendar) into profile me\n  appointments   1 already there\n")
        #expect(try cli.run(["appt", "list", "--on", "2026-12-03"], env).stdout.contains("Praxis Dr. Anna Beispiel (SAMPLE)  Praxis Dr. Beispiel, Musterstraße 12, 10115 Berlin  Hautkrebs-Screening"))
    }

    /// The card's weight is the newer of the medical ID's and the health log's last one, and
    /// says when a logged one was logged (issue 35, item 9).
    @Test func theEmergencyCardTakesTheNewerWeight() throws {
        let cli = try CLI(label: "card-weight")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["id", "set", "--weight", "72kg", "--height", "178cm"], Self.env("2026-05-10T10:00:00Z")).status == 0)
        #expect(try cli.run(["emergency"], Self.env("2026-05-10T10:00:00Z")).stdout.contains("height/weight  178 cm, 72 kg\n"))
        #expect(try cli.run(["log", "weight", "80.4kg"], Self.env("2026-05-12T08:00:00Z")).status == 0)
        let logged = try cli.run(["emergency"], Self.env("2026-05-12T09:00:00Z"))
        #expect(logged.stdout.contains("height/weight  178 cm, 80.4 kg (logged 2026-05-12)\n"), "\(logged.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try cli.run(["emergency", "--json"], Self.env("2026-05-12T09:00:00Z")).stdout.utf8)) as? [String: Any])
        #expect(json["weight_kg"] as? Double == 80.4 && json["weight_logged_on"] as? String == "2026-05-12")
        // Set again on the medical ID afterwards: that one is newer.
        #expect(try cli.run(["id", "set", "--weight", "79kg"], Self.env("2026-05-13T10:00:00Z")).status == 0)
        #expect(try cli.run(["emergency"], Self.env("2026-05-13T11:00:00Z")).stdout.contains("height/weight  178 cm, 79 kg\n"))
    }

    @Test func contactsMedicalIDHistoryAndTheEmergencyCard() throws {
        let cli = try CLI(label: "card")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = Self.env("2026-05-10T10:00:00Z")
        Self.expect(try cli.run(["emergency"], env), stdout: """
            EMERGENCY INFORMATION: profile me (no name set)
            age            not set
            blood type     not set
            organ donor    not set
            allergies      none recorded
            conditions     none recorded
            medications    none recorded
            call           no emergency contact; add one with 'phr contact add NAME --phone P --emergency'

            """)
        Self.expect(try cli.run(["id", "set", "--name", "Alex Example", "--dob", "1984-07-22", "--sex", "male", "--blood-type", "0+",
                                 "--organ-donor", "yes", "--height", "178cm", "--weight", "72kg", "--notes", "pacemaker since 2019"], env), stdout: """
            name         Alex Example
            born         1984-07-22 (age 41)
            sex          male
            blood type   O+
            organ donor  yes
            height       178 cm
            weight       72 kg
            notes        pacemaker since 2019
            updated      2026-05-10T10:00:00Z

            """)
        Self.expect(try cli.run(["id", "set", "--blood-type", "C"], env), status: 64, stdout: "",
                    stderr: "phr: error: --blood-type: 'C' is not a blood type; use one of A+, A-, B+, B-, AB+, AB-, O+, O-\n")
        let jane = try cli.run(["contact", "add", "Jane Doe", "--phone", "+1 555 0100", "--relation", "sister", "--emergency"], env)
        let j = try Self.id(jane)
        Self.expect(jane, stdout: "added emergency contact \(j) Jane Doe (sister) +1 555 0100\n")
        let gp = try Self.id(try cli.run(["contact", "add", "Dr. Gray", "--phone", "555 0199", "--email", "gray@example.org"], env))
        Self.expect(try cli.run(["contact", "add", "Nobody", "--phone", "none"], env), status: 64, stdout: "",
                    stderr: "phr: error: --phone: 'none' is not a phone number; use digits, e.g. +49 30 1234567\n")
        Self.expect(try cli.run(["contact", "list"], env), stdout: """
            ID      NAME      RELATION  PHONE        EMAIL             EMERGENCY
            \(j)  Jane Doe  sister    +1 555 0100  —                 yes
            \(gp)  Dr. Gray  —         555 0199     gray@example.org  no

            """)
        Self.expect(try cli.run(["contact", "edit", gp, "--emergency", "yes", "--relation", "GP"], env),
                    stdout: "updated contact \(gp) Dr. Gray (GP) 555 0199\n")
        let penicillin = try cli.run(["allergy", "add", "Penicillin", "--severity", "severe", "--reaction", "anaphylaxis"], env)
        Self.expect(penicillin, stdout: "added allergy \(try Self.id(penicillin)) Penicillin: severe, anaphylaxis\n")
        _ = try cli.run(["allergy", "add", "Peanuts", "--severity", "mild"], env)
        Self.expect(try cli.run(["allergy", "add", "Cats", "--severity", "deadly"], env), status: 64, stdout: "",
                    stderr: "phr: error: --severity: 'deadly' is not one of mild, moderate, severe\n")
        let asthma = try cli.run(["condition", "add", "Asthma", "--since", "2010"], env)
        Self.expect(asthma, stdout: "added condition \(try Self.id(asthma)) Asthma, since 2010\n")
        let sinusitis = try Self.id(try cli.run(["condition", "add", "Sinusitis", "--since", "2026-04-01", "--resolved", "2026-04-10"], env))
        let tetanus = try cli.run(["immunization", "add", "Tetanus", "--date", "2026-05-01", "--dose", "2", "--lot", "AB123"], env)
        let t = try Self.id(tetanus)
        Self.expect(tetanus, stdout: "added immunization \(t) Tetanus, 2026-05-01, dose 2, lot AB123\n")
        // A vaccination whose date is not known is kept undated, listed last (issue 26, item 7).
        let bcg = try cli.run(["immunization", "add", "BCG", "--notes", "as a baby"], env)
        let b = try Self.id(bcg)
        Self.expect(bcg, stdout: "added immunization \(b) BCG, date not known\n")
        Self.expect(try cli.run(["immunization", "list"], env), stdout: """
            ID      DATE        DOSE  LOT    VACCINE
            \(t)  2026-05-01  2     AB123  Tetanus
            \(b)  —           —     —      BCG

            """)
        _ = try cli.run(["med", "add", "Salbutamol", "--dose", "2 puffs", "--as-needed"], env)
        Self.expect(try cli.run(["emergency"], env), stdout: """
            EMERGENCY INFORMATION: Alex Example
            age            41 (born 1984-07-22), male
            blood type     O+
            organ donor    yes
            height/weight  178 cm, 72 kg
            allergies      Penicillin: SEVERE, anaphylaxis
                           Peanuts: mild
            conditions     Asthma
            medications    Salbutamol 2 puffs, as needed
            call           Jane Doe (sister): +1 555 0100
                           Dr. Gray (GP): 555 0199
            notes          pacemaker since 2019

            """)
        let card = try #require(try JSONSerialization.jsonObject(with: Data(cli.run(["emergency", "--json"], env).stdout.utf8)) as? [String: Any])
        #expect(card["blood_type"] as? String == "O+" && card["age"] as? Int == 41)
        Self.expect(try cli.run(["condition", "rm", sinusitis, "--yes"], env), stdout: "removed condition \(sinusitis) Sinusitis\n")
        Self.expect(try cli.run(["id", "set"], env), status: 64, stdout: "", stderr: """
            phr: error: id set: nothing to set
            phr: hint: give at least one of --name, --dob, --sex, --blood-type, --organ-donor, --height, --weight, --notes

            """)
    }

    /// Procedures and family history through the real binary (issue 26, item 11): added,
    /// listed in their order, changed, a completed procedure in the future refused whichever way
    /// it would get there, removed.
    @Test func proceduresAndFamilyHistory() throws {
        let cli = try CLI(label: "procedures")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = Self.env("2026-05-10T10:00:00Z")
        let appendectomy = try cli.run(["procedure", "add", "Appendectomy", "--date", "2009", "--performer", "Dr Ortiz"], env)
        Self.expect(appendectomy, stdout: "added procedure \(try Self.id(appendectomy)) Appendectomy, 2009, by Dr Ortiz\n")
        let scope = try Self.id(try cli.run(["procedure", "add", "Colonoscopy", "--date", "2024-03-02", "--body-site", "colon"], env))
        _ = try cli.run(["procedure", "add", "Tonsillectomy", "--notes", "as a child"], env)
        let list = try cli.run(["procedure", "list"], env).stdout.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(list == ["PROCEDURE", "Colonoscopy", "Appendectomy", "Tonsillectomy"], "newest first, undated last")
        Self.expect(try cli.run(["procedure", "add", "Knee replacement", "--date", "2027-01-15"], env), status: 64, stdout: "",
                    stderr: "phr: error: --date: 2027-01-15 is in the future; a planned procedure is an appointment\n")
        let planned = try Self.id(try cli.run(["procedure", "add", "Knee replacement", "--date", "2027-01-15", "--status", "preparation"], env))
        #expect(try cli.run(["procedure", "edit", planned, "--status", "Completed"], env).status == 64, "completing it in the future is refused too")
        #expect(try cli.run(["procedure", "edit", scope, "--body-site", ""], env).status == 0)
        #expect(!(try cli.run(["procedure", "list", "--json"], env).stdout.contains("\"colon\"")))
        let mother = try cli.run(["family", "add", "Mother", "breast cancer", "--age", "52"], env)
        Self.expect(mother, stdout: "added family history \(try Self.id(mother)) Mother: breast cancer at 52\n")
        _ = try cli.run(["family", "add", "uncle", "stroke", "--cause-of-death", "yes"], env)
        Self.expect(try cli.run(["family", "add", "sister", "asthma", "--age", "young"], env), status: 64, stdout: "",
                    stderr: "phr: error: --age: 'young' is not an age in years\n")
        let family = try cli.run(["family", "list", "--json"], env).stdout
        #expect(family.contains("\"relation_code\" : \"MTH\"") && family.contains("\"relation_code\" : \"UNCLE\""), "\(family)")
        #expect(try cli.run(["procedure", "rm", scope, "--yes"], env).status == 0)
        #expect(!(try cli.run(["procedure", "list"], env).stdout.contains("Colonoscopy")))
    }

    @Test func profilesKeepRecordsApart() throws {
        let cli = try CLI(label: "profile")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = Self.env("2026-05-10T10:00:00Z")
        Self.expect(try cli.run(["profile", "add", "Sam", "--relation", "child"], env), stdout: "added profile Sam (child)\n")
        Self.expect(try cli.run(["profile", "add", "sam"], env), status: 1, stdout: "", stderr: "phr: error: a profile named 'sam' already exists\n")
        Self.expect(try cli.run(["profile", "add", "Ann", "--relation", "cousin"], env), status: 64, stdout: "",
                    stderr: "phr: error: --relation: 'cousin' is not a relation; use child, parent, partner or other\n")
        _ = try cli.run(["med", "add", "Amoxicillin", "--every", "8h", "--profile", "sam"], env)
        _ = try cli.run(["allergy", "add", "Strawberries"], env.merging(["PHR_PROFILE": "Sam"]) { $1 })
        _ = try cli.run(["med", "add", "Lisinopril", "--schedule", "08:00"], env)
        #expect(try cli.run(["med", "list"], env).stdout.contains("Amoxicillin") == false)
        #expect(try cli.run(["med", "list", "--profile", "Sam"], env).stdout.contains("Lisinopril") == false)
        Self.expect(try cli.run(["allergy", "list"], env), stdout: "",
                    stderr: "phr: no allergies recorded; add one with 'phr allergy add SUBSTANCE'\n")
        #expect(try cli.run(["search", "strawberries"], env).stdout.contains("Strawberries") == false)
        let strawberries = try cli.run(["search", "strawberries", "--profile", "sam"], env).stdout
        #expect(strawberries.contains("Strawberries"))
        // The kind is printed whole, never cut to five letters ("aller").
        #expect(strawberries.hasPrefix("allergy ") && !strawberries.contains("aller "), "\(strawberries)")
        let out = "\(cli.directory)/me.json"
        _ = try cli.run(["export", "--out", out], env)
        let exported = try String(contentsOfFile: out, encoding: .utf8)
        #expect(exported.contains("Lisinopril") && !exported.contains("Amoxicillin") && !exported.contains("Strawberries"))

        Self.expect(try cli.run(["profile", "default", "sam"], env), stdout: "default profile: Sam\n")
        Self.expect(try cli.run(["profile", "list"], env), stdout: """
               NAME  RELATION  SINCE
               me    self      \(try Self.today())
            *  Sam   child     \(try Self.today())

            """)
        #expect(try cli.run(["med", "list"], env).stdout.contains("Amoxicillin"))
        Self.expect(try cli.run(["med", "list", "--profile", "nobody"], env), status: 66, stdout: "", stderr: """
            phr: error: no profile named 'nobody'
            phr: hint: list profiles with 'phr profile list'

            """)
    }

    /// The day the CLI test vault was made (profiles record their real creation time).
    static func today() throws -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    @Test(.corpus) func exportImportRoundTripAndFHIR() throws {
        let cli = try CLI(label: "interop")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = Self.env("2026-05-10T10:00:00Z")
        let ips = "\(Self.fhir)/ips-Bundle-IPS-examples-Bundle-01.json"
        Self.expect(try cli.run(["import", ips], env), stdout: """
            imported \(ips) (FHIR R4 Bundle (document)) into profile me
              medical ID     set
              medications    2 added
              contacts       1 added
              allergies      1 added
              conditions     2 added
              observations   6 added
            skipped 8:
              entry[0] Composition: the document's table of contents; its entries are imported
              entry[2] Practitioner: not a record about the patient; its name is used where entries refer to it
              2× Organization: not a record about the patient; its name is used where entries refer to it
              2× Medication: a drug definition, read with the entries that refer to it
              entry[16] Observation: a panel without a value of its own; its members are imported one by one
              entry[19] AllergyIntolerance: states that there is no known allergy, which is not an allergy to list
            note: medical ID: set name, date of birth, sex, blood type, 1 identifier

            """)
        let second = try cli.run(["import", ips, "--json"], env)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        #expect((report["added"] as? [String: Int])?.isEmpty == true)
        _ = try cli.run(["med", "add", "Metformin", "--schedule", "08:00,20:00"], env)

        let first = "\(cli.directory)/first.json"
        Self.expect(try cli.run(["export", "--out", first], env), stdout: "",
                    stderr: "phr: exported profile me to \(first): 3 medications, 1 contact, 1 allergy, 2 conditions, 6 observations\n")
        let other = try CLI(label: "interop2")
        defer { other.cleanUp() }
        _ = try other.initVault(passphrase: Self.passphrase)
        Self.expect(try other.run(["import", first, "--dry-run"], env), stdout: """
            would import \(first) (phr export v1) into profile me
              medical ID     set
              medications    3 added
              contacts       1 added
              allergies      1 added
              conditions     2 added
              observations   6 added

            """)
        #expect(try other.run(["med", "list"], env).stdout.isEmpty, "a dry run writes nothing")
        #expect(try other.run(["import", first], env).status == 0)
        let again = "\(other.directory)/again.json"
        #expect(try other.run(["export", "--out", again], env).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: first)))

        // A corrupted entry: refused and named in the report, the rest imported (here: already
        // there, so the vault is untouched), exit 65.
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ips))) as? [String: Any])
        var entries = try #require(json["entry"] as? [[String: Any]])
        var condition = try #require(entries[4]["resource"] as? [String: Any])
        condition["code"] = "asthma"
        entries[4]["resource"] = condition
        json["entry"] = entries
        let corrupt = "\(cli.directory)/corrupt.json"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: corrupt))
        let before = cli.vaultFingerprint()
        let partly = try cli.run(["import", corrupt], env)
        Self.expect(partly, status: 65, stderr: """
            phr: error: \(corrupt): 1 entry was refused as bad data; the rest was imported
            phr: hint: the report lists each refused entry and why; fix them and import the file again (what is in stays as it is)

            """)
        #expect(partly.stdout.contains("""
            refused as bad data 1:
              entry[4] Condition: code: expected a CodeableConcept object, got a string

            """), "\(partly.stdout)")
        #expect(cli.vaultFingerprint() == before)
        Self.expect(try cli.run(["import", "\(cli.directory)/missing.json"], env), status: 66, stdout: "",
                    stderr: "phr: error: \(cli.directory)/missing.json: no such file\n")
    }

    @Test func errorsNameFieldsNotRecordContents() throws {
        let cli = try CLI(label: "leak")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = Self.env("2026-05-10T10:00:00Z")
        let secret = "Zolpidem-SECRET-NAME"
        let m = try Self.id(try cli.run(["med", "add", secret, "--as-needed", "--min-interval", "8h", "--notes", "NOTE-SECRET"], env))
        _ = try cli.run(["med", "take", m], env)
        let results = [
            try cli.run(["med", "take", m], env),
            try cli.run(["med", "edit", m, "--max-per-day", "many"], env),
            try cli.run(["med", "take", m, "--skip"], env),
            try cli.run(["med", "stop", m, "--on", "1999-01-01"], env),
            try cli.run(["med", "rm", m], env),
        ]
        for result in results {
            #expect(result.status != 0)
            #expect(!result.stderr.contains("SECRET"), "\(result.stderr)")
            #expect(!result.stderr.contains(Self.passphrase))
        }
    }
}
