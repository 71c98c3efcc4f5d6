import Foundation

extension FHIRMapper {
    /// An Appointment: with the practitioner or place that is not the patient, at its start.
    /// FHIR gives an instant with an offset; the appointment is put in the user's zone.
    func appointment(_ resource: FHIRResource) throws -> Mapped<Appointment> {
        let status = try self.status(resource) ?? "booked"
        if status == "entered-in-error" { return .skip("entered in error") }
        guard let startTime = try FHIRElements.dateTime(resource["start"], field: "start") else { return .skip("has no start time") }
        guard let start = FHIRElements.instant(startTime) else {
            throw FHIRFieldError(field: "start", reason: "'\(startTime.text.prefix(40))' is not an instant with a time and offset in the years phr accepts")
        }
        var minutes = AppointmentStore.defaultDurationMinutes
        let longest = RecordValidation.maximumAppointmentMinutes
        if let endTime = try repairs.optional({ try FHIRElements.dateTime(resource["end"], field: "end") }) {
            // An end phr cannot use costs the appointment its length, not the appointment.
            if let end = FHIRElements.instant(endTime) {
                if end < start {
                    repairs.note("end: '\(endTime.text.prefix(40))' is before start; left out")
                } else if end.timeIntervalSince(start) > TimeInterval(longest * 60) {
                    repairs.note("end: the appointment lasts longer than 31 days, the longest phr keeps; left out")
                } else {
                    minutes = max(1, Int(end.timeIntervalSince(start) / 60))
                }
            } else {
                repairs.note("end: '\(endTime.text.prefix(40))' is not an instant with a time and offset in the years phr accepts; left out")
            }
        } else if let value = try FHIRElements.wholeNumber(resource["minutesDuration"], field: "minutesDuration", range: 1...longest) {
            minutes = value
        }
        var with: String?
        var location: String?
        for (index, participant) in (resource["participant"]?.elements ?? []).enumerated() {
            let field = "participant[\(index)].actor"
            let target = bundle.resolve(try FHIRElements.reference(participant["actor"], field: field), from: resource)
            if target?.type == "Patient" { continue }
            let name = try actorName(participant["actor"], field: field, from: resource)
            let reference = try FHIRElements.reference(participant["actor"], field: field)
            if target?.type == "Location" || (target == nil && reference?.hasPrefix("Location/") == true) {
                location = location ?? name
            } else if with == nil {
                with = name
            }
        }
        let reasonConcept = try FHIRElements.concept(resource["reasonCode"]?[0], field: "reasonCode[0]")
        let serviceType = try FHIRElements.concept(resource["serviceType"]?[0], field: "serviceType[0]")?.name()
        let description = try FHIRElements.string(resource["description"], field: "description")
        let appointmentStatus: Appointment.Status
        switch status {
        case "cancelled", "noshow": appointmentStatus = .cancelled
        case "proposed", "pending", "waitlist": appointmentStatus = .tentative
        default: appointmentStatus = .confirmed
        }
        let zone = time.zone
        return .record(Appointment(
            id: "", uid: "", with: with ?? serviceType ?? description ?? "Appointment",
            start: LocalDateTime(start, in: zone), timeZone: zone.identifier, durationMinutes: minutes, allDay: false,
            location: location, reason: reasonConcept?.name() ?? description, notes: try FHIRElements.string(resource["comment"], field: "comment"),
            documentID: nil, status: appointmentStatus, remindMinutes: nil, sequence: 0, source: source(resource),
            createdAt: now, updatedAt: now))
    }
}
