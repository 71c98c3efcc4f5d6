/// How far two words are apart in keystrokes: insertions, deletions, substitutions and swaps of
/// two neighbouring letters ("serach" is one from "search"). Search's typo tolerance and the
/// CLI's "did you mean" use it.
public enum EditDistance {
    /// Optimal string alignment distance, or nil if it exceeds `limit` (computed with early exit).
    public static func optimalAlignment(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        if a == b { return 0 }
        // An empty word is as far from another as that one is long.
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        let n = a.count, m = b.count
        var previous2 = [Int](repeating: 0, count: m + 1)
        var previous = Array(0...m)
        var current = [Int](repeating: 0, count: m + 1)
        for i in 1...n {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...max(m, 1) where m > 0 {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return nil }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[m] <= limit ? previous[m] : nil
    }
}
