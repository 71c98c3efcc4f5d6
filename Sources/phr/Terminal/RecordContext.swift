import ArgumentParser
import Foundation
import Glibc
import PHRService

/// What a record command works on: the open vault, the chosen profile, and the clock and time
/// zone (TZ; debug builds also read PHR_TEST_NOW so tests can fix "now").
struct RecordContext {
    let vault: Vault
    let profile: Profile
    let time: TimeContext

    init(_ vault: VaultOptions, _ profile: ProfileOptions) throws {
        (self.vault, self.profile) = try VaultAccess.open(vault.location, profile: profile)
        time = TimeContext.current()
    }

    /// Runs library code whose field errors come from options the user typed, so they are
    /// usage errors (exit 64) in the same words: `phr: error: --schedule: '25:00' is not a time...`.
    static func options<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RecordError {
            throw error.asOption()
        }
    }

    /// Asks before removing a record, on a terminal; without one, --yes is required.
    static func confirmRemoval(_ description: String, id: String, yes: Bool) throws -> Bool {
        if yes { return true }
        guard isatty(STDIN_FILENO) == 1 else {
            throw RecordError.invalidOption(option: Field("yes"), reason: "removing \(id) needs --yes when there is no terminal to confirm on",
                                            hint: "run it on a terminal to be asked, or add --yes")
        }
        Console.writeErr(Data("Remove \(description)? [y/N] ".utf8))
        guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
            Console.note("kept \(id)")
            return false
        }
        return true
    }
}

/// Text for record listings.
enum RecordText {
    /// "—" for a missing value, as in the document listings.
    static func or(_ value: String?) -> String { value ?? "—" }

    /// Key-value lines for `show` commands: the key padded, absent values left out.
    static func fields(_ pairs: [(String, String?)], width: Int = 13) {
        for (name, value) in pairs {
            guard let value else { continue }
            let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
            Console.out(name.padding(toLength: width, withPad: " ", startingAt: 0) + (lines.first.map(String.init) ?? ""))
            for line in lines.dropFirst() { Console.out(String(repeating: " ", count: width) + line) }
        }
    }

    /// "daily at 08:00", "every 8h (Europe/Berlin)".
    static func schedule(_ medication: Medication) -> String {
        medication.schedule.summary + (medication.timeZone.map { " (\($0) time)" } ?? "")
    }

    /// "178 cm", "72.5 kg".
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// The codes of a record, one "RxNorm 665078 (Loratadine 5 MG Chewable Tablet)" per line.
    static func codes(_ codes: [Coding]) -> String? {
        codes.isEmpty ? nil : codes.map { coding in coding.label + (coding.display.map { " (\($0))" } ?? "") }.joined(separator: "\n")
    }
}

extension Console {
    /// Styled on a terminal (stdout), plain otherwise: for emphasis inside data lines.
    static func styledOut(_ text: String, code: String) -> String {
        Console.stdoutColour ? "\u{1b}[\(code)m\(text)\u{1b}[0m" : text
    }
}

extension String {
    /// nil for "", for optional display fields.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
