import Foundation

/// The process environment, read once. `ProcessInfo.processInfo.environment` builds a new
/// dictionary of every variable on each call, and a `phr search` asked for it half a dozen times.
/// phr never changes its own environment, so one copy stays right for the whole process.
public enum ProcessEnvironment {
    public static let variables: [String: String] = ProcessInfo.processInfo.environment

    public static subscript(name: String) -> String? { variables[name] }
}
