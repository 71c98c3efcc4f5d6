/// Reading a column whose values are a fixed set (a status, a kind, a metric) back into its enum.
/// The schema's CHECK constraints keep other values out, so one that is there anyway is damage or
/// a vault written by a newer phr: an error naming the table and column (exit 80), never a guess
/// such as "active" that would show a stopped medication as taken.
enum StoredValue {
    static func decode<T: RawRepresentable>(_ raw: String?, as type: T.Type, table: String, column: String) throws -> T
    where T.RawValue == String {
        guard let raw, let value = T(rawValue: raw) else {
            throw VaultError.integrity(["\(table).\(column) holds \(raw.map { "'\($0.prefix(40))'" } ?? "nothing"), which this phr does not know (damage, or a vault from a newer phr)"])
        }
        return value
    }
}
