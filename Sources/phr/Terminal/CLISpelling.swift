import PHRModel

/// How the command line names what the core's messages leave as values: a field as its option
/// (`--range`) or its argument (`AMOUNT`), a next step as the command to type.
struct CLISpelling: MessageSpelling {
    func spell(_ field: Field) -> String {
        switch field.kind {
        case .option: return "--" + field.name
        case .argument: return field.name.uppercased()
        case .path, .environment: return field.name
        }
    }

    func spell(_ action: Action) -> String {
        "phr " + Self.command(action)
    }

    /// The command after `phr`.
    static func command(_ action: Action) -> String {
        switch action {
        case .createVault: return "init"
        case .unlock: return "unlock"
        case .lockVault: return "lock"
        case .backup: return "backup"
        case .restore(let partial): return partial ? "restore FILE --partial" : "restore"
        case .check(let repair): return repair ? "check --repair" : "check"
        case .showVersion: return "--version"
        case .list(let kind):
            switch kind {
            case "document": return "doc list"
            case "reminder": return "remind list"
            default: return "\(kind) list"
            }
        case .listDocumentsByTypeAndDate: return "doc list --type lab --since 2025-01-01"
        case .addDocuments: return "doc add"
        case .exportDocument(let toStandardOutput): return toStandardOutput ? "doc export ID --out - > file.pdf" : "doc export"
        case .showMedication(let id): return "med show \(id ?? "MED")"
        case .takeDose(let id, let skip): return "med take \(id ?? "MED")" + (skip ? " --skip" : "")
        case .undoDose: return "med undo DOSE"
        case .dosesDue: return "med due"
        case .scheduleMedication(let id): return "med edit \(id) --schedule 08:00,20:00"
        case .upcomingAppointments: return "appt list --upcoming"
        case .setMedicalID(let field, let example): return "id set --\(field.name)" + (example.map { " " + $0 } ?? "")
        case .logWeight(let example): return "log weight \(example)"
        case .setHealthSetting(let field, let example): return "log settings --\(field.name) \(example)"
        case .labTrend: return "lab trend"
        case .addLabResult: return "lab add"
        case .installReminders: return "remind install"
        case .reminderStatus: return "remind status"
        case .listReminderChannels: return "remind channel list"
        case .addReminderChannel: return "remind channel add ntfy URL"
        case .addProfile: return "profile add NAME"
        case .exportRecords: return "export"
        case .syncInit: return "sync init"
        case .syncJoin: return "sync join FILE"
        case .syncRemoteAdd: return "sync remote add NAME FOLDER"
        case .sync: return "sync"
        case .syncConflicts: return "sync conflicts"
        }
    }
}

extension Message {
    /// The message as the command line writes it.
    var cli: String { rendered(CLISpelling()) }
}

extension PHRError {
    /// The error's message as the command line writes it.
    var cliMessage: String { message.cli }
}
