import ArgumentParser
import Foundation

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
            let scored = subcommands.map { ($0._commandName, distance(typed, $0._commandName)) }
            guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= (typed.count >= 5 ? 2 : 1),
                  scored.filter({ $0.1 == best.1 }).count == 1 else { return nil }
            return Mistyped(typed: argument, group: path.joined(separator: " "), meant: (path + [best.0]).joined(separator: " "))
        }
        return nil
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// two neighbouring letters ("serach" is one from "search").
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
