import Foundation

/// Words for a person (an error, a hint, a note) in which the inputs and the next steps are named
/// as values, not spelled: each front end spells them its own way. The command line writes a
/// `Field` as its option (`--range`) and an `Action` as the command to type (`phr doc list`); a web
/// page shows the field's label beside its input and the action as a link.
///
/// Written as a string literal with interpolations: `"needs a duration or \(Field.to)"`. Anything
/// else interpolated is text. `description` is a plain rendering (a field by its name), for logs
/// and for callers that have no spelling of their own.
public struct Message: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public enum Part: Hashable, Sendable {
        case text(String)
        case field(Field)
        case action(Action)
    }

    /// Adjacent text is kept as one part, so two messages that read the same compare equal.
    public private(set) var parts: [Part]

    public init(_ text: String) {
        parts = text.isEmpty ? [] : [.text(text)]
    }

    public init(parts: [Part]) {
        self.parts = []
        for part in parts { append(part) }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(parts: stringInterpolation.parts)
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(interpolationCount * 2 + 1)
        }

        public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }
        public mutating func appendInterpolation(_ field: Field) { parts.append(.field(field)) }
        public mutating func appendInterpolation(_ action: Action) { parts.append(.action(action)) }
        public mutating func appendInterpolation(_ message: Message) { parts.append(contentsOf: message.parts) }
        public mutating func appendInterpolation(_ message: Message?) { parts.append(contentsOf: message?.parts ?? []) }
        public mutating func appendInterpolation<T>(_ value: T) { parts.append(.text(String(describing: value))) }
    }

    private mutating func append(_ part: Part) {
        switch part {
        case .text(let text):
            guard !text.isEmpty else { return }
            if case .text(let previous)? = parts.last {
                parts[parts.count - 1] = .text(previous + text)
            } else {
                parts.append(part)
            }
        case .field, .action:
            parts.append(part)
        }
    }

    public static func + (lhs: Message, rhs: Message) -> Message {
        Message(parts: lhs.parts + rhs.parts)
    }

    public var isEmpty: Bool { parts.isEmpty }

    /// The message as one front end writes it.
    public func rendered(_ spelling: some MessageSpelling) -> String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .field(let field): return spelling.spell(field)
            case .action(let action): return spelling.spell(action)
            }
        }.joined()
    }

    public var description: String { rendered(PlainSpelling()) }

    /// The words separated by `separator` (a list of notes on one line).
    public static func joined(_ messages: [Message], separator: String) -> Message {
        var parts: [Part] = []
        for (index, message) in messages.enumerated() {
            if index > 0 { parts.append(.text(separator)) }
            parts.append(contentsOf: message.parts)
        }
        return Message(parts: parts)
    }
}

/// How a front end names inputs and next steps.
public protocol MessageSpelling: Sendable {
    func spell(_ field: Field) -> String
    func spell(_ action: Action) -> String
}

/// Fields by their names and actions by a short phrase: the rendering of `Message.description`.
public struct PlainSpelling: MessageSpelling {
    public init() {}
    public func spell(_ field: Field) -> String { field.name }
    public func spell(_ action: Action) -> String { action.summary }
}

/// One input a person gives: an option of a command or form (`range`), or a positional value
/// (`amount`). The name is the same in every front end; how it is shown is the front end's.
public struct Field: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// A named input: the CLI's `--name`, a form's labelled field.
        case option
        /// A positional value: the CLI's `NAME` in its usage line.
        case argument
        /// A field of a record or of imported data, named as stored (`notes`, `blood_type`):
        /// every front end shows it as it is.
        case path
        /// An environment variable (`PHR_OCR_WORKERS`), named as it is everywhere.
        case environment
    }

    /// Lowercase words joined by hyphens, e.g. `max-per-day`.
    public let name: String
    public let kind: Kind

    public init(_ name: String, kind: Kind = .option) {
        self.name = name
        self.kind = kind
    }

    public static func argument(_ name: String) -> Field { Field(name, kind: .argument) }
    public static func path(_ name: String) -> Field { Field(name, kind: .path) }
    public static func environment(_ name: String) -> Field { Field(name, kind: .environment) }

    public var description: String { name }
}

/// The inputs the core names in its messages (the CLI's options of the same names).
extension Field {
    public static let activity = Field("activity")
    public static let alarm = Field("alarm")
    public static let all = Field("all")
    public static let analyte = Field("analyte")
    public static let asNeeded = Field("as-needed")
    public static let at = Field("at")
    public static let before = Field("before")
    public static let bloodType = Field("blood-type")
    public static let bodySite = Field("body-site")
    public static let causeOfDeath = Field("cause-of-death")
    public static let condition = Field("condition")
    public static let category = Field("category")
    public static let context = Field("context")
    public static let date = Field("date")
    public static let days = Field("days")
    public static let dob = Field("dob")
    public static let doc = Field("doc")
    public static let docType = Field("doc-type")
    public static let documents = Field("documents")
    public static let dose = Field("dose")
    public static let drink = Field("drink")
    public static let dryRun = Field("dry-run")
    public static let duration = Field("duration")
    public static let email = Field("email")
    public static let emergency = Field("emergency")
    public static let end = Field("end")
    public static let every = Field("every")
    public static let factor = Field("factor")
    public static let fhir = Field("fhir")
    public static let flag = Field("flag")
    public static let `for` = Field("for")
    public static let force = Field("force")
    public static let form = Field("form")
    public static let from = Field("from")
    public static let glucoseUnit = Field("glucose-unit")
    public static let height = Field("height")
    public static let ics = Field("ics")
    public static let ifUnlocked = Field("if-unlocked")
    public static let include = Field("include")
    public static let instructions = Field("instructions")
    public static let kind = Field("kind")
    public static let limit = Field("limit")
    public static let lot = Field("lot")
    public static let maxPerDay = Field("max-per-day")
    public static let meal = Field("meal")
    public static let metric = Field("metric")
    public static let minInterval = Field("min-interval")
    public static let mode = Field("mode")
    public static let month = Field("month")
    public static let name = Field("name")
    public static let noSchedule = Field("no-schedule")
    public static let note = Field("note")
    public static let notes = Field("notes")
    public static let notify = Field("notify")
    public static let notifyDetails = Field("notify-details")
    public static let ocr = Field("ocr")
    public static let ocrLang = Field("ocr-lang")
    public static let on = Field("on")
    public static let onsetAge = Field("age")
    public static let organDonor = Field("organ-donor")
    public static let out = Field("out")
    public static let panel = Field("panel")
    public static let paper = Field("paper")
    public static let partial = Field("partial")
    public static let passphraseCommand = Field("passphrase-command")
    public static let passphraseFile = Field("passphrase-file")
    public static let passwordFile = Field("password-file")
    public static let pdf = Field("pdf")
    public static let pdfPasswordFile = Field("pdf-password-file")
    public static let per = Field("per")
    public static let pharmacy = Field("pharmacy")
    public static let phone = Field("phone")
    public static let performer = Field("performer")
    public static let prescriber = Field("prescriber")
    public static let profile = Field("profile")
    public static let provider = Field("provider")
    public static let pulse = Field("pulse")
    public static let range = Field("range")
    public static let reaction = Field("reaction")
    public static let reason = Field("reason")
    public static let refills = Field("refills")
    public static let refresh = Field("refresh")
    public static let relation = Field("relation")
    public static let remind = Field("remind")
    public static let repair = Field("repair")
    public static let resolved = Field("resolved")
    public static let schedule = Field("schedule")
    public static let serving = Field("serving")
    public static let severity = Field("severity")
    public static let sex = Field("sex")
    public static let since = Field("since")
    public static let skip = Field("skip")
    public static let skipDamaged = Field("skip-damaged")
    public static let start = Field("start")
    public static let status = Field("status")
    public static let substance = Field("substance")
    public static let tag = Field("tag")
    public static let timeZone = Field("time-zone")
    public static let title = Field("title")
    public static let to = Field("to")
    public static let token = Field("token")
    public static let tokenFile = Field("token-file")
    public static let type = Field("type")
    public static let tz = Field("tz")
    public static let units = Field("units")
    public static let until = Field("until")
    public static let upcoming = Field("upcoming")
    public static let vaccine = Field("vaccine")
    public static let vault = Field("vault")
    public static let weight = Field("weight")
    public static let `where` = Field("where")
    public static let window = Field("window")
    public static let `with` = Field("with")
    public static let within = Field("within")
    public static let year = Field("year")
    public static let yes = Field("yes")
    /// Positional values.
    public static let amount = Field.argument("amount")
}

/// A next step a message suggests. The CLI writes it as the command to type; a web page as a
/// link or a button; `summary` is a plain phrase for the rest.
public enum Action: Hashable, Sendable {
    /// Create a vault.
    case createVault
    case unlock
    /// End an unlock, and the agent `phr serve` runs.
    case lockVault
    case backup
    /// Restore a vault from a backup; `partial` restores what an incomplete backup holds.
    case restore(partial: Bool)
    /// Check the vault; `repair` also removes what cannot be used.
    case check(repair: Bool)
    /// phr's version, to quote in a report.
    case showVersion
    /// The list of one kind of record, named as `RecordError.notFound` names it ("medication",
    /// "document", "reminder", "profile", ...).
    case list(String)
    /// Documents listed by type and date, shown with an example filter.
    case listDocumentsByTypeAndDate
    case addDocuments
    /// Export a document's original; `toStandardOutput` shows writing it to a pipe.
    case exportDocument(toStandardOutput: Bool)
    /// A medication with its doses; nil for "the medication you mean".
    case showMedication(String?)
    /// Log a dose of a medication (nil: the one the message is about), or skip it.
    case takeDose(String?, skip: Bool)
    case undoDose
    case dosesDue
    /// Give a medication a schedule (shown with an example).
    case scheduleMedication(String)
    case upcomingAppointments
    /// Set one field of the medical ID, with an example value if any.
    case setMedicalID(Field, example: String?)
    /// Log a weight (shown with an example).
    case logWeight(example: String)
    /// Set one health-log setting, with its choices or an example.
    case setHealthSetting(Field, example: String)
    case labTrend
    case addLabResult
    case installReminders
    case reminderStatus
    case listReminderChannels
    /// Add a reminder channel, shown with an example.
    case addReminderChannel
    case addProfile
    /// Export the vault's records in phr's own format.
    case exportRecords
    /// Set up sync on the vault's first device.
    case syncInit
    /// Join a vault's sync on a new device with an enrolment file.
    case syncJoin
    /// Add a place to sync through.
    case syncRemoteAdd
    /// Sync now.
    case sync
    /// The conflicts sync kept.
    case syncConflicts

    /// A plain phrase for the step, e.g. "list the documents".
    public var summary: String {
        switch self {
        case .createVault: return "create a vault"
        case .unlock: return "unlock the vault"
        case .lockVault: return "lock the vault"
        case .backup: return "back up the vault"
        case .restore(let partial): return partial ? "restore what the backup holds" : "restore a backup"
        case .check(let repair): return repair ? "check and repair the vault" : "check the vault"
        case .showVersion: return "phr's version"
        case .list(let kind): return "list the \(kind) records"
        case .listDocumentsByTypeAndDate: return "list documents by type and date"
        case .addDocuments: return "add documents"
        case .exportDocument: return "export the document"
        case .showMedication(let id): return id.map { "show medication \($0)" } ?? "show the medication"
        case .takeDose(let id, let skip): return (skip ? "skip a dose" : "log a dose") + (id.map { " of \($0)" } ?? "")
        case .undoDose: return "undo a dose"
        case .dosesDue: return "the doses due"
        case .scheduleMedication(let id): return "give \(id) a schedule"
        case .upcomingAppointments: return "the upcoming appointments"
        case .setMedicalID(let field, _): return "set the \(field.name) in the medical ID"
        case .logWeight: return "log a weight"
        case .setHealthSetting(let field, _): return "set the \(field.name) in the health settings"
        case .labTrend: return "the lab trends"
        case .addLabResult: return "add a lab result"
        case .installReminders: return "install reminders"
        case .reminderStatus: return "the reminders' status"
        case .listReminderChannels: return "the reminder channels"
        case .addReminderChannel: return "add a reminder channel"
        case .addProfile: return "add a profile"
        case .exportRecords: return "export the records"
        case .syncInit: return "set up sync"
        case .syncJoin: return "join the vault's sync from another device"
        case .syncRemoteAdd: return "add a sync remote"
        case .sync: return "sync"
        case .syncConflicts: return "the sync conflicts"
        }
    }
}

/// A field, an action or a message written into a plain `String` would lose the front end's
/// spelling (a CLI error would say "range" instead of "--range"): the compiler warns, and the
/// build allows no warning. Build
/// a `Message` instead, or use `field.name` where the name itself is meant.
extension String.StringInterpolation {
    @available(*, deprecated, message: "interpolate into a Message, or use field.name")
    public mutating func appendInterpolation(_ field: Field) {}
    @available(*, deprecated, message: "interpolate into a Message, which a front end spells")
    public mutating func appendInterpolation(_ action: Action) {}
    @available(*, deprecated, message: "interpolate into a Message, or render it with a spelling")
    public mutating func appendInterpolation(_ message: Message) {}
}

/// In JSON a message is its text, spelled by the front end that writes it: the encoder's
/// `userInfo[Message.spellingKey]` (the CLI puts its spelling there), else the plain spelling.
/// Read back, it is plain text.
extension Message: Codable {
    public static let spellingKey = CodingUserInfoKey(rawValue: "phr.message.spelling")!

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let spelling = encoder.userInfo[Self.spellingKey] as? any MessageSpelling {
            try container.encode(rendered(spelling))
        } else {
            try container.encode(description)
        }
    }
}
