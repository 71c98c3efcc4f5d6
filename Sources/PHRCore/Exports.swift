// PHRCore's users (the phr program, the benchmarks, the tests) see the shared value types
// through PHRCore, as they did before the types moved to PHRModel.
@_exported import PHRModel

/// GRDB, which most of PHRCore imports, has a `RecordError` of its own; while phr's was declared
/// in this module it shadowed GRDB's. The alias keeps it that way now that it lives in PHRModel.
typealias RecordError = PHRModel.RecordError
