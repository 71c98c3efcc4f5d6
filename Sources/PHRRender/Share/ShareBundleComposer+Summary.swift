import PHRModel
import PHRTypesetting

/// The patient summary section: the medical ID as a grid of facts, its notes, and the next
/// appointment.
extension ShareBundleComposer {
    func drawPatientSummary(_ flow: DocumentFlow) {
        guard let id = content.medicalID, !id.isEmpty else {
            noneRecorded(flow, "No medical ID recorded: date of birth, sex, blood type, height and weight are not known.")
            return
        }
        var fields = [Field("Name", id.name ?? content.profile.name, emphasized: true)]
        if let born = id.dateOfBirth {
            fields.append(Field("Date of birth", "\(born)" + (id.age(on: today).map { " (age \($0))" } ?? "")))
        }
        fields.append(Field("Sex", id.sex?.rawValue ?? BundleStyle.missing))
        fields.append(Field("Blood type", id.bloodType ?? BundleStyle.missing, emphasized: id.bloodType != nil))
        if let height = id.heightCm { fields.append(Field("Height", "\(Self.number(height)) cm")) }
        if let weight = id.weightKg { fields.append(Field("Weight", "\(Self.number(weight)) kg")) }
        if let donor = id.organDonor { fields.append(Field("Organ donor", donor ? "yes" : "no")) }
        for identifier in id.identifiers {
            fields.append(Field("Identifier", identifier.value + (identifier.system.map { " (\(Self.systemLabel($0)))" } ?? "")))
        }
        flow.fields(fields, columns: 2, boxed: true, style: BundleStyle.body, after: 8)
        if let notes = id.notes {
            flow.paragraph(.markup("<b>Medical notes.</b> \(escapeMarkup(notes))"), style: BundleStyle.body.spaced(1.1), after: 6)
        }
        if let next = content.appointments.first {
            flow.paragraph(.markup("<b>Next appointment:</b> \(escapeMarkup(appointmentWhen(next))) with \(escapeMarkup(next.with))"
                                   + (next.reason.map { " (\(escapeMarkup($0)))" } ?? "")),
                           style: BundleStyle.body, after: 4)
        }
    }

    /// An identifier system short enough for a grid cell: an OID as it is, a URL by its last
    /// path segment ("http://hl7.org/fhir/sid/us-ssn" is "us-ssn").
    static func systemLabel(_ system: String) -> String {
        guard system.hasPrefix("http://") || system.hasPrefix("https://") else { return system }
        let segments = system.split(separator: "/").dropFirst(2)
        return segments.last.map(String.init) ?? system
    }

    /// "72", "72.5".
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
