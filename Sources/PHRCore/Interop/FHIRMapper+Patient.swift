import Foundation

extension FHIRMapper {
    /// What a Patient resource tells the medical ID, and its contacts.
    struct PatientFacts {
        var name: String?
        var dateOfBirth: CalendarDate?
        var sex: MedicalID.Sex?
        var identifiers: [SourceIdentifier]
        var contacts: [(location: String, mapped: Mapped<Contact>)]
    }

    func patient(_ resource: FHIRResource) throws -> PatientFacts {
        var dateOfBirth: CalendarDate?
        if let birth = try FHIRElements.dateTime(resource["birthDate"], field: "birthDate") {
            guard !birth.hasTime else { throw FHIRFieldError(field: "birthDate", reason: "'\(birth.text)' is not a FHIR date") }
            dateOfBirth = birth.date.calendarDate
        }
        let gender = try FHIRElements.string(resource["gender"], field: "gender")
        if let gender, !["male", "female", "other", "unknown"].contains(gender) {
            throw FHIRFieldError(field: "gender", reason: "'\(gender)' is not male, female, other or unknown")
        }
        var contacts: [(String, Mapped<Contact>)] = []
        let patientKey = sourceKey(resource)
        for (index, contact) in (resource["contact"]?.elements ?? []).enumerated() {
            let location = "\(resource.location) contact[\(index)]"
            let name = FHIRElements.humanName(contact["name"])
                ?? contact["organization"]?["display"]?.string
            let phone = (contact["telecom"]?.elements ?? []).first { $0["system"]?.string == "phone" }?["value"]?.string
            guard let name else {
                contacts.append((location, .skip("has no name")))
                continue
            }
            guard let phone, let checked = try? RecordFields.phone(phone, field: Field.path("telecom")) else {
                contacts.append((location, .skip("has no phone number")))
                continue
            }
            let codes = try (contact["relationship"]?.elements ?? []).enumerated().compactMap { i, item in
                try FHIRElements.concept(item, field: "contact[\(index)].relationship[\(i)]")
            }
            let codings = codes.flatMap(\.codings)
            // v2-0131 C (emergency contact) and N (next of kin) are who to call in an emergency.
            let emergency = codings.contains { $0.system == "http://terminology.hl7.org/CodeSystem/v2-0131" && ["C", "N"].contains($0.code) }
            // The relation in words wins over a role code: phr's summaries write "spouse" beside
            // the v2-0131 "emergency contact" code, and the contact is both.
            let relation = codes.lazy.compactMap(\.text).first
                ?? codes.lazy.compactMap { concept in concept.codings.lazy.compactMap(Self.relationName).first }.first
            let email = (contact["telecom"]?.elements ?? []).first { $0["system"]?.string == "email" }?["value"]?.string
            contacts.append((location, .record(Contact(
                id: "", uid: "", name: name, phone: checked, relation: relation,
                email: email.flatMap { try? RecordFields.email($0, field: Field.path("telecom")) }, emergency: emergency, notes: nil,
                source: RecordSource(key: "\(patientKey)#contact[\(index)]"), createdAt: now, updatedAt: now))))
        }
        let identifiers = FHIRElements.identifiers(resource["identifier"])
        guard identifiers.count <= 100, identifiers.allSatisfy({ $0.value.count <= 1000 && ($0.system?.count ?? 0) <= 1000 }) else {
            throw FHIRFieldError(field: "identifier", reason: "at most 100 identifiers of at most 1000 characters")
        }
        var name: String?
        do {
            name = try RecordFields.optionalText(FHIRElements.preferredName(resource["name"]), field: Field.path("name"), limit: RecordFields.maximumNameLength)
        } catch RecordError.invalidField(let field, let reason) {
            throw FHIRFieldError(field: field.name, reason: reason.description)
        }
        return PatientFacts(name: name, dateOfBirth: dateOfBirth,
                            sex: gender.flatMap(MedicalID.Sex.init(rawValue:)),
                            identifiers: identifiers, contacts: contacts)
    }

    /// A relationship code in words: HL7 v3 RoleCode and v2-0131 codes phr knows, else the display.
    static func relationName(_ coding: Coding) -> String? {
        let names = ["MTH": "mother", "FTH": "father", "PRN": "parent", "SPS": "spouse", "HUSB": "husband", "WIFE": "wife",
                     "DOMPART": "partner", "SIB": "sibling", "BRO": "brother", "SIS": "sister", "CHILD": "child", "SON": "son",
                     "DAU": "daughter", "GRMTH": "grandmother", "GRFTH": "grandfather", "FRND": "friend", "NBOR": "neighbour",
                     "GUARD": "guardian", "C": "emergency contact", "N": "next of kin", "E": "employer", "U": "unknown"]
        return names[coding.code] ?? coding.display
    }
}
