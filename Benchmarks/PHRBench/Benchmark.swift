import Foundation

/// Timing and reporting helpers shared by the benchmarks.
enum Benchmark {
    static var hostDescription: String {
        let model = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        return model
    }

    /// Wall-clock seconds of `body`.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The median of `runs` timings of `body`.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try time(body)) }
        times.sort()
        return times[times.count / 2]
    }

    static func scratchDirectory(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "phr-bench-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Peak resident set size of this process so far, in MB (VmHWM).
    static var peakRSSMegabytes: Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        let kb = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return kb / 1024
    }

    static func row(_ label: String, _ columns: [String]) {
        print(label.padding(toLength: 34, withPad: " ", startingAt: 0) + columns.map { $0.padding(toLength: 16, withPad: " ", startingAt: 0) }.joined())
    }
}
