import PHRTypesetting

/// The fictional patient, clinicians and organisations that appear across the sample documents.
///
/// Kept in one place so the documents tell one consistent story (the pneumonia admission, the
/// anaemia work-up, the referral) and so it is easy to check that nothing here is real:
/// names are "Example"/"Sample"/"Placeholder", phones are in the 555-0100…555-0199 range
/// reserved for fiction, the state is "ZZ", the ZIP is 00000 and identifiers are zeros or say SAMPLE.
enum SampleCast {
    /// Dates in the samples are written the way each issuer would: US documents use MM/DD/YYYY,
    /// the Greek letter uses DD/MM/YYYY. Every day is past the 12th, so neither reading is ambiguous.
    static let patientName = "Alex Example"
    static let patientNameGreek = "Αλέξης Παράδειγμα"
    static let dateOfBirth = "07/22/1984"
    static let dateOfBirthGreek = "22/07/1984"
    static let sex = "Male"
    static let address = "42 Placeholder Lane, Anytown, ZZ 00000"
    static let phone = "555-0123"
    static let recordNumber = "SMP-004217"

    static let familyDoctor = "Dr. Jordan Sample, MD"
    static let hospitalist = "Dr. Casey Sample, MD"
    static let radiologist = "Dr. Robin Placeholder, MD"
    static let labDirector = "Dr. Morgan Specimen, MD"
    static let nurse = "Taylor Example, RN"

    static let familyPractice = Organization(
        name: "Sample Family Practice",
        tagline: "Family medicine · Primary care · A fictitious clinic",
        address: "100 Example Avenue, Suite 5, Anytown, ZZ 00000",
        phone: "555-0110", fax: "555-0111",
        accent: Color(hex: 0x1F6F78), emblem: .cross)

    static let hospital = Organization(
        name: "Sample General Hospital",
        tagline: "Department of Internal Medicine · A fictitious hospital",
        address: "1 Specimen Plaza, Anytown, ZZ 00000",
        phone: "555-0130", fax: "555-0139",
        accent: Color(hex: 0x24478F), emblem: .cross)

    static let radiology = Organization(
        name: "Sample General Hospital",
        tagline: "Department of Radiology · A fictitious hospital",
        address: "1 Specimen Plaza, Anytown, ZZ 00000",
        phone: "555-0131", fax: "555-0139",
        accent: Color(hex: 0x3B4A6B), emblem: .rings)

    static let laboratory = Organization(
        name: "Sample Reference Laboratory",
        tagline: "Clinical chemistry & hematology · CLIA 00D0000000 (sample)",
        address: "77 Assay Road, Anytown, ZZ 00000",
        phone: "555-0160", fax: "555-0161",
        accent: Color(hex: 0x7A3E8E), emblem: .rack)

    static let pharmacy = "Example Pharmacy #0042, 7 Sample Street, Anytown, ZZ 00000 · Tel 555-0140"

    static let insurer = Organization(
        name: "Sample Health Plan",
        tagline: "A fictitious health insurer · Member services 555-0150",
        address: "PO Box 0000, Anytown, ZZ 00000",
        phone: "555-0150", fax: nil,
        accent: Color(hex: 0x0B6E4F), emblem: .shield)

    static let greekClinic = Organization(
        name: "Ιατρείο Δείγμα",
        tagline: "Παθολογικό ιατρείο · Φανταστικό ιατρείο (Sample Clinic)",
        address: "Οδός Παραδείγματος 1, 000 00 Δειγματούπολη",
        phone: "555-0170", fax: "555-0171",
        accent: Color(hex: 0x8A4B14), emblem: .cross,
        phoneWord: "Τηλ.", faxWord: "Φαξ")
}
