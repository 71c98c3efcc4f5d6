import ArgumentParser
import Foundation
import PHRService

/// "Did you mean": a word in the place of a subcommand that is not one, but is one or two
/// keystrokes from one (`phr serach`, `phr med lst`), is answered with the command meant.
enum CommandSuggestion {
    struct Mistyped: Equatable {
        /// What was typed.
        var typed: String
        /// The command group it was typed in ("phr", "phr med").
        var group: String
        /// The whole command meant ("phr search").
        var meant: String
    }

    /// The first word of `arguments` that stands where a subcommand should and is not one, with
    /// the subcommand closest to it; nil when every word is a command, an option comes first, or
    /// nothing is close.
    static func mistyped(_ arguments: [String]) -> Mistyped? {
        var command: ParsableCommand.Type = PHR.self
        var path = ["phr"]
        for argument in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !argument.hasPrefix("-"), argument != "help" else { return nil }
            if let next = subcommands.first(where: { $0._commandName == argument || $0.configuration.aliases.contains(argument) }) {
                command = next
                path.append(argument)
                continue
            }
            let typed = argument.lowercased()
            let limit = typed.count >= 5 ? 2 : 1
            let scored = subcommands.compactMap { command in
                EditDistance.optimalAlignment(Array(typed.unicodeScalars), Array(command._commandName.unicodeScalars), limit: limit)
                    .map { (command._commandName, $0) }
            }
            guard let best = scored.min(by: { $0.1 < $1.1 }),
                  scored.filter({ $0.1 == best.1 }).count == 1 else { return nil }
            return Mistyped(typed: argument, group: path.joined(separator: " "), meant: (path + [best.0]).joined(separator: " "))
        }
        return nil
    }
}
