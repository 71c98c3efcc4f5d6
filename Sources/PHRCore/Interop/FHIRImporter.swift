import Foundation
import GRDB

/// Imports a FHIR R4 Bundle into one profile, inside the caller's transaction.
///
/// A resource with bad data (a field that breaks the FHIR spec, a number or date out of range,
/// a text over the limit typed input has: `RecordValidation`) is refused and reported, and the
/// others are imported; the command then exits 65.
///
/// Records: MedicationRequest and MedicationStatement become medications, AllergyIntolerance
/// allergies, Condition conditions, Immunization immunizations, Observation observations,
/// Appointment appointments, the Patient's contacts contacts. The Patient (and blood group,
/// height and weight observations) fill the medical ID's empty fields; fields already set are
/// kept. Every other resource is listed as skipped, with the reason.
struct FHIRImporter {
    let bundle: FHIRBundle
    let path: String
    let profileID: Int64
    let time: TimeContext
    /// What the mapper left out of the resource being imported.
    private let repairs = ImportRepairs()

    /// LOINC codes that fill the medical ID.
    static let bloodGroupCode = "882-1"
    static let heightCode = "8302-2"
    static let weightCode = "29463-7"

    func run(_ db: Database, report: inout ImportReport) throws {
        let mapper = FHIRMapper(bundle: bundle, time: time, repairs: repairs)
        let subject = try subjectPatient(mapper)
        var facts: FHIRMapper.PatientFacts?
        var measured = MeasuredFacts()
        // Devices in use and advance directives: lines of the medical ID's notes.
        var noteLines: [String] = []
        // Records imported by earlier versions carry the identifier alone as key; it names this
        // resource only when no other resource in the bundle has the same identifier.
        let identifierKeys = bundle.resources.compactMap(mapper.identifierKey)
        let sharedKeys = Set(Dictionary(grouping: identifierKeys, by: { $0 }).filter { $0.value.count > 1 }.keys)
        func formerKey(_ resource: FHIRResource, suffix: String = "") -> String? {
            mapper.identifierKey(resource).flatMap { sharedKeys.contains($0) ? nil : $0 + suffix }
        }
        for (entry, reason) in bundle.unreadable {
            report.reject(entry, type: "entry", Message(reason))
        }
        for resource in bundle.resources {
            mapper.repairs.reset()
            do {
                if let reason = try aboutAnotherPatient(resource, subject: subject, mapper) {
                    report.skip("entry[\(resource.index)]", type: resource.type, Message(reason))
                    continue
                }
                switch resource.type {
                case "Patient":
                    let patient = try mapper.patient(resource)
                    facts = patient
                    for (index, (location, mapped)) in patient.contacts.enumerated() {
                        try take(mapped, location: location, type: "Patient.contact", kind: "contacts",
                                 formerKey: formerKey(resource, suffix: "#contact[\(index)]"), check: RecordValidation.check, db, &report)
                    }
                case "MedicationRequest", "MedicationStatement":
                    try take(try mapper.medication(resource), location: "entry[\(resource.index)]", type: resource.type, kind: "medications",
                             formerKey: formerKey(resource), check: RecordValidation.check, db, &report)
                case "AllergyIntolerance":
                    try take(try mapper.allergy(resource), location: "entry[\(resource.index)]", type: resource.type, kind: "allergies",
                             formerKey: formerKey(resource), check: RecordValidation.check, db, &report)
                case "Condition":
                    try take(try mapper.condition(resource), location: "entry[\(resource.index)]", type: resource.type, kind: "conditions",
                             formerKey: formerKey(resource), check: RecordValidation.check, db, &report)
                case "Immunization":
                    try take(try mapper.immunization(resource), location: "entry[\(resource.index)]", type: resource.type, kind: "immunizations",
                             formerKey: formerKey(resource), check: RecordValidation.check, db, &report)
                case "Procedure":
                    try take(try mapper.procedure(resource), location: "entry[\(resource.index)]", type: resource.type, kind: "procedures",
                             formerKey: formerKey(resource), check: RecordValidation.check, db, &report)
                case "FamilyMemberHistory":
                    // Each condition reports only what was left out of it.
                    for entry in try mapper.familyHistory(resource) {
                        mapper.repairs.reset()
                        entry.repairs.forEach(mapper.repairs.note)
                        try take(entry.mapped, location: entry.location, type: resource.type, kind: "family_history",
                                 formerKey: formerKey(resource, suffix: entry.keySuffix), check: RecordValidation.check, db, &report)
                    }
                case "Observation":
                    let mapped = try mapper.observation(resource)
                    if let observation = try take(mapped, location: "entry[\(resource.index)]", type: resource.type, kind: "observations",
                                                  formerKey: formerKey(resource), check: RecordValidation.check, db, &report) {
                        measured.note(observation)
                    }
                case "Appointment":
                    try take(try mapper.appointment(resource), location: "entry[\(resource.index)]", type: resource.type, kind: "appointments",
                             formerKey: formerKey(resource), check: RecordValidation.check, db, &report)
                case "DeviceUseStatement", "Consent":
                    switch try mapper.noteLine(resource) {
                    case .skip(let reason): report.skip("entry[\(resource.index)]", type: resource.type, Message(reason))
                    case .record(let line): noteLines.append(line)
                    }
                case "Device":
                    report.skip("entry[\(resource.index)]", type: resource.type, "a device's description, read with the DeviceUseStatement that refers to it")
                case "Medication":
                    report.skip("entry[\(resource.index)]", type: resource.type, "a drug definition, read with the entries that refer to it")
                case "Composition":
                    report.skip("entry[\(resource.index)]", type: resource.type, "the document's table of contents; its entries are imported")
                case "Practitioner", "PractitionerRole", "Organization", "Location", "RelatedPerson":
                    report.skip("entry[\(resource.index)]", type: resource.type, "not a record about the patient; its name is used where entries refer to it")
                default:
                    report.skip("entry[\(resource.index)]", type: resource.type, "phr does not keep \(resource.type) resources")
                }
            } catch let error as FHIRFieldError {
                report.reject("entry[\(resource.index)]", type: resource.type, "\(error.field): \(error.reason)")
            }
        }
        try fillMedicalID(db, facts: facts, measured: measured, noteLines: noteLines, report: &report)
    }

    /// The patient the bundle is about: its only Patient (entries repeating it are the same
    /// patient), or with several, the one the Composition names as subject (an IPS or other
    /// document may list relatives or a donor as Patients too). Several and no Composition to
    /// choose: the bundle is refused.
    private func subjectPatient(_ mapper: FHIRMapper) throws -> FHIRResource? {
        let patients = bundle.resources.filter { $0.type == "Patient" }
        guard Set(patients.map(mapper.sourceKey)).count > 1 else { return patients.first }
        for composition in bundle.resources where composition.type == "Composition" {
            let reference = try? FHIRElements.reference(composition["subject"], field: "subject")
            if let target = bundle.resolve(reference, from: composition), target.type == "Patient" { return target }
        }
        throw InteropError.severalPatients(path: path, entries: patients.map { "entry[\($0.index)]" })
    }

    /// Why a resource is not taken into this profile: it is another Patient than the subject, or
    /// its `subject` or `patient` (an Appointment: a participant) is one. A reference that names
    /// no entry of the bundle is another patient when it is `Patient/<id>` and the subject has a
    /// different id; a reference phr cannot place (an identifier, a display) is taken as the
    /// subject's.
    private func aboutAnotherPatient(_ resource: FHIRResource, subject: FHIRResource?, _ mapper: FHIRMapper) throws -> String? {
        guard let subject else { return nil }
        let subjectKey = mapper.sourceKey(subject)
        if resource.type == "Patient" {
            return mapper.sourceKey(resource) == subjectKey ? nil
                : "another patient than the bundle's subject (entry[\(subject.index)], named by the Composition)"
        }
        var references: [(field: String, value: StrictJSON)] = []
        for field in ["subject", "patient"] {
            if let value = resource[field] { references.append((field, value)) }
        }
        if resource.type == "Appointment" {
            for (index, participant) in (resource["participant"]?.elements ?? []).enumerated() {
                if let actor = participant["actor"] { references.append(("participant[\(index)].actor", actor)) }
            }
        }
        for (field, value) in references {
            guard let reference = try FHIRElements.reference(value, field: field) else { continue }
            if let target = bundle.resolve(reference, from: resource) {
                if target.type == "Patient", mapper.sourceKey(target) != subjectKey {
                    return "about another patient (\(field) is entry[\(target.index)], not the bundle's subject entry[\(subject.index)])"
                }
                continue
            }
            let parts = reference.split(separator: "/").map(String.init)
            if let at = parts.lastIndex(of: "Patient"), at + 1 < parts.count, let id = subject.id, parts[at + 1] != id {
                return "about another patient (\(field) is \(reference), not the bundle's subject Patient/\(id))"
            }
        }
        return nil
    }

    @discardableResult
    private func take<R: StoredRecord>(_ mapped: FHIRMapper.Mapped<R>, location: String, type: String, kind: String,
                                       formerKey: String?, check: (inout R) throws -> Void, _ db: Database, _ report: inout ImportReport) throws -> R? {
        let kept = try ImportedRecords.take(mapped, location: location, type: type, kind: kind, formerKey: formerKey, check: check,
                                            profileID: profileID, now: time.now, db, &report)
        if kept != nil { repairs.report(location, type: type, into: &report) }
        return kept
    }

    /// The latest blood group, height and weight among the imported observations.
    struct MeasuredFacts {
        var bloodType: (effective: String, value: String)?
        var height: (effective: String, value: Double)?
        var weight: (effective: String, value: Double)?

        mutating func note(_ observation: Observation) {
            let loinc = observation.codes.filter { $0.system == Coding.System.loinc }.map(\.code)
            let effective = observation.effective ?? ""
            if loinc.contains(FHIRImporter.bloodGroupCode),
               let text = observation.valueText ?? observation.valueCodes?.preferredDisplay(),
               let type = FHIRMapper.bloodType(from: text), effective >= (bloodType?.effective ?? "") {
                bloodType = (effective, type)
            }
            if loinc.contains(FHIRImporter.heightCode), let value = observation.valueNumber,
               let centimetres = Self.convert(value, unit: observation.valueUnit, to: ["cm": 1, "m": 100, "[in_i]": 2.54, "in": 2.54]),
               effective >= (height?.effective ?? "") {
                height = (effective, (centimetres * 10).rounded() / 10)
            }
            if loinc.contains(FHIRImporter.weightCode), let value = observation.valueNumber,
               let kilograms = Self.convert(value, unit: observation.valueUnit, to: ["kg": 1, "g": 0.001, "[lb_av]": 0.45359237, "lb": 0.45359237]),
               effective >= (weight?.effective ?? "") {
                weight = (effective, (kilograms * 10).rounded() / 10)
            }
        }

        static func convert(_ value: Double, unit: String?, to factors: [String: Double]) -> Double? {
            guard let unit, let factor = factors[unit] else { return nil }
            return value * factor
        }
    }

    private func fillMedicalID(_ db: Database, facts: FHIRMapper.PatientFacts?, measured: MeasuredFacts, noteLines: [String],
                               report: inout ImportReport) throws {
        let patient = facts.map { ImportedRecords.PatientFacts(name: $0.name, dateOfBirth: $0.dateOfBirth, sex: $0.sex, identifiers: $0.identifiers) }
        try ImportedRecords.fillMedicalID(db, profileID: profileID, time: time, facts: patient, measured: measured, source: "the bundle",
                                          noteLines: noteLines, report: &report)
    }
}
