import Foundation

/// SASLprep (RFC 4013), the stringprep profile PDF 2.0 requires for AES-256 (revision 6) passwords.
///
/// ISO 32000-2 section 7.6.4.3.3 says an R6 password is "processed with the SASLprep profile",
/// then encoded as UTF-8 and cut to 127 bytes. poppler does not do it, so "Ⅸ" typed by the user
/// would not open a file protected with "IX", nor a decomposed "é" one protected with a
/// precomposed "é". The steps, in order (RFC 4013 section 2, RFC 3454 sections 3 to 6):
/// 1. map: characters of table B.1 to nothing, non-ASCII spaces (C.1.2) to U+0020;
/// 2. normalise with Unicode NFKC;
/// 3. prohibit tables C.1.2, C.2.1, C.2.2, C.3 to C.9;
/// 4. the bidirectional rule: a string with any R/AL character has no L character, and starts
///    and ends with an R/AL character;
/// 5. for stored strings only, prohibit code points unassigned in Unicode 3.2 (table A.1).
///
/// NFKC comes from Foundation, which follows the current Unicode version rather than 3.2; the two
/// agree on every code point assigned in 3.2 apart from five CJK compatibility ideographs whose
/// decompositions were corrected in Unicode 4.0 (Corrigendum #4).
/// https://www.rfc-editor.org/rfc/rfc4013 , https://www.rfc-editor.org/rfc/rfc3454
public enum SASLprep {
    /// Prepares `string`.
    ///
    /// - Parameter storedString: true when preparing a password that will be stored (set on a new
    ///   file), which also rejects code points unassigned in Unicode 3.2; false (the default) for
    ///   a "query", such as a password typed to open an existing PDF.
    /// - Throws: `ExtractionError.passwordProhibitedCharacter` or
    ///   `ExtractionError.passwordBidirectionalText`. Neither names the offending character.
    public static func prepare(_ string: String, storedString: Bool = false) throws -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            if StringprepTables.contains(StringprepTables.mappedToNothing, scalar.value) { continue }
            if StringprepTables.contains(StringprepTables.nonASCIISpace, scalar.value) {
                mapped.append(" ")
            } else {
                mapped.append(scalar)
            }
        }
        let normalized = String(mapped).precomposedStringWithCompatibilityMapping

        var hasRandAL = false
        var hasL = false
        for scalar in normalized.unicodeScalars {
            let value = scalar.value
            if StringprepTables.contains(StringprepTables.nonASCIISpace, value)
                || StringprepTables.contains(StringprepTables.prohibited, value)
                || (storedString && isUnassignedInUnicode32(scalar)) {
                throw ExtractionError.passwordProhibitedCharacter
            }
            if StringprepTables.contains(StringprepTables.randALCat, value) { hasRandAL = true }
            if StringprepTables.contains(StringprepTables.lCat, value) { hasL = true }
        }
        if hasRandAL {
            let scalars = normalized.unicodeScalars
            guard !hasL,
                  let first = scalars.first, StringprepTables.contains(StringprepTables.randALCat, first.value),
                  let last = scalars.last, StringprepTables.contains(StringprepTables.randALCat, last.value)
            else { throw ExtractionError.passwordBidirectionalText }
        }
        return normalized
    }

    /// Table A.1, derived: a scalar first assigned after Unicode 3.2, or never. Noncharacters
    /// have an age and are caught by table C.4 instead, exactly as A.1 leaves them out.
    static func isUnassignedInUnicode32(_ scalar: Unicode.Scalar) -> Bool {
        guard let age = scalar.properties.age else { return true }
        return age.major > 3 || (age.major == 3 && age.minor > 2)
    }
}
