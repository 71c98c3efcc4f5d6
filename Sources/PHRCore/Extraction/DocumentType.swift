/// The kinds of health document phr tells apart (DESIGN.md section 4). The raw values are stored
/// in the vault and typed by users (`--type lab`, `type:lab` in searches); never rename them.
public enum DocumentType: String, Codable, Sendable, CaseIterable {
    case prescription, insurance, lab, imaging, discharge, visit, vaccination, referral, bill, other
}
