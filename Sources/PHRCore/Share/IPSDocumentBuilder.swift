import Foundation

/// `phr share --fhir`: the same facts as the bundle's summary as an HL7 International Patient
/// Summary, a FHIR R4 document Bundle.
///
/// The Bundle's first entry is the Composition (LOINC 60591-5, "Patient summary Document"),
/// then the Patient, then the resources its sections list. The three sections IPS requires are
/// always present, each with entries or an `emptyReason`: problems (11450-4), allergies
/// (48765-2) and medications (10160-0); past illnesses (11348-0), immunizations (11369-6) and
/// results (30954-2, lab results), vital signs (8716-3) and social history (29762-2) appear when
/// there is something to put in them. Every reference is a
/// `urn:uuid:` that is the fullUrl of an entry in the same Bundle. Records keep their own UUID
/// as resource id, and the Patient the profile's (`IPSPatientID`), so summaries made at different
/// times name the same record the same way.
/// http://hl7.org/fhir/uv/ips/StructureDefinition-Bundle-uv-ips.html
struct IPSDocumentBuilder {
    let content: ShareContent
    let time: TimeContext
    let generator: String
    /// The Patient's id, the same in every summary of the profile (`IPSPatientID`).
    let patientID: String
    /// Sections the user left out: a required one says "withheld" (not "none recorded"), an
    /// optional one is left out. `content` holds none of their records (`limited(to:)`).
    var withheld: Set<ShareSection> = []

    static let loinc = "http://loinc.org"
    static let emptyReasonSystem = "http://terminology.hl7.org/CodeSystem/list-empty-reason"

    struct Section {
        var title: String
        var code: String
        var display: String
        var narrative: String
        var entries: [String]
        /// Shown when there are no entries, in the narrative and as the empty reason's text.
        var emptyText: String
        /// The list-empty-reason code: "unavailable" (none recorded), "withheld" (left out by the user).
        var emptyCode = "unavailable"
    }

    func build() -> OrderedJSON {
        let timestamp = Timestamp.string(time.now)
        let today = time.today()
        let patientURL = "urn:uuid:\(patientID)"
        var resources: [(String, OrderedJSON)] = [(patientURL, IPSResources.patient(id: Self.id(of: patientURL), content: content))]
        func add(_ uid: String, _ make: (String) -> OrderedJSON) -> String {
            let url = Self.urn(for: uid)
            resources.append((url, make(Self.id(of: url))))
            return url
        }

        let current = content.conditions.filter(\.isCurrent)
        let past = content.conditions.filter { !$0.isCurrent }
        let medications = content.currentMedications + content.recentlyStoppedMedications
        var sections = [
            Section(title: "Active Problems", code: "11450-4", display: "Problem list - Reported",
                    narrative: IPSNarrative.table(["Condition", "Status", "Since"], current.map { [$0.name, $0.status.rawValue, $0.since?.description] }),
                    entries: current.map { condition in add(condition.uid) { IPSResources.condition(condition, id: $0, patient: patientURL) } },
                    emptyText: "No current problems are recorded in phr."),
            Section(title: "Allergies and Intolerances", code: "48765-2", display: "Allergies and adverse reactions Document",
                    narrative: IPSNarrative.table(["Substance", "Reaction", "Severity", "Status"],
                                                  content.allergies.map { [$0.substance, $0.reaction, $0.severity?.rawValue, $0.status.rawValue] }),
                    entries: content.allergies.map { allergy in add(allergy.uid) { IPSResources.allergy(allergy, id: $0, patient: patientURL) } },
                    emptyText: "No allergies or intolerances are recorded in phr."),
            Section(title: "Medication Summary", code: "10160-0", display: "History of Medication use Narrative",
                    narrative: IPSNarrative.table(["Medication", "Dose", "How taken", "Status"],
                                                  medications.map { [$0.displayName, $0.dose, $0.schedule.summary, $0.state(today: today)] }),
                    entries: medications.map { medication in
                        add(medication.uid) { IPSResources.medication(medication, id: $0, patient: patientURL, today: today) }
                    },
                    emptyText: "No medications are recorded in phr."),
        ]
        // A required section the user left out says so, rather than "none recorded".
        for (index, section) in [(0, ShareSection.conditions), (1, .allergies), (2, .medications)] where withheld.contains(section) {
            sections[index].emptyText = "Not shared in this summary."
            sections[index].emptyCode = "withheld"
        }
        if !past.isEmpty {
            sections.append(Section(title: "History of Past Illness", code: "11348-0", display: "History of Past illness Narrative",
                                    narrative: IPSNarrative.table(["Condition", "Status", "Since", "Resolved"],
                                                                  past.map { [$0.name, $0.status.rawValue, $0.since?.description, $0.resolved?.description] }),
                                    entries: past.map { condition in add(condition.uid) { IPSResources.condition(condition, id: $0, patient: patientURL) } },
                                    emptyText: ""))
        }
        if !content.immunizations.isEmpty {
            sections.append(Section(title: "Immunizations", code: "11369-6", display: "History of Immunization Narrative",
                                    narrative: IPSNarrative.table(["Vaccine", "Date", "Dose", "Lot"],
                                                                  content.immunizations.map { [$0.vaccine, $0.date?.description ?? "date not known", $0.doseNumber.map(String.init), $0.lot] }),
                                    entries: content.immunizations.map { immunization in
                                        add(immunization.uid) { IPSResources.immunization(immunization, id: $0, patient: patientURL) }
                                    },
                                    emptyText: ""))
        }
        if !content.procedures.isEmpty {
            sections.append(Section(title: "History of Procedures", code: "47519-4", display: "History of Procedures Document",
                                    narrative: IPSNarrative.table(["Procedure", "Date", "Status", "Site"],
                                                                  content.procedures.map { [$0.name, $0.date?.description, $0.status.rawValue, $0.bodySite] }),
                                    entries: content.procedures.map { procedure in
                                        add(procedure.uid) { IPSResources.procedure(procedure, id: $0, patient: patientURL) }
                                    },
                                    emptyText: ""))
        }
        if !content.familyHistory.isEmpty {
            // Not one of IPS's sections; a Composition may carry others (the family history is
            // what a doctor asks after medications and allergies).
            sections.append(Section(title: "Family History", code: "10157-6", display: "History of family member diseases Narrative",
                                    narrative: IPSNarrative.table(["Relative", "Condition", "Age at onset"],
                                                                  content.familyHistory.map { [$0.relation, $0.condition, $0.onsetAge.map(String.init)] }),
                                    entries: content.familyHistory.map { entry in
                                        add(entry.uid) { IPSResources.familyMemberHistory(entry, id: $0, patient: patientURL) }
                                    },
                                    emptyText: ""))
        }
        // Lab results in Results, vital signs and social history in their own sections (IPS
        // section slices); an observation of any other category stays in Results.
        let vitals = content.results.filter { $0.category == "vital-signs" }
        let social = content.results.filter { $0.category == "social-history" }
        let results = content.results.filter { $0.category != "vital-signs" && $0.category != "social-history" }
        func observationSection(_ title: String, _ code: String, _ display: String, _ observations: [Observation]) -> Section {
            Section(title: title, code: code, display: display,
                    narrative: IPSNarrative.table(["Test", "Result", "Reference range", "Flag", "Date"], observations.map { observation in
                        [observation.name, observation.valueDescription, observation.lab?.range.map { $0.text ?? $0.display },
                         observation.effectiveFlag?.words, observation.effective]
                    }),
                    entries: observations.map { observation in
                        add(observation.uid) { IPSResources.observation(observation, id: $0, patient: patientURL) }
                    },
                    emptyText: "")
        }
        if !results.isEmpty {
            sections.append(observationSection("Results", "30954-2", "Relevant diagnostic tests/laboratory data Narrative", results))
        }
        if !vitals.isEmpty {
            sections.append(observationSection("Vital Signs", "8716-3", "Vital signs", vitals))
        }
        if !social.isEmpty {
            sections.append(observationSection("Social History", "29762-2", "Social history Narrative", social))
        }

        let compositionURL = Self.newURN()
        let composition = OrderedJSON.members([
            ("resourceType", .string("Composition")),
            ("id", .string(Self.id(of: compositionURL))),
            ("meta", .object([("profile", .array([.string("http://hl7.org/fhir/uv/ips/StructureDefinition/Composition-uv-ips")]))])),
            ("text", IPSNarrative.text(IPSNarrative.paragraph(
                "Patient summary of \(content.patientName), compiled by the patient from their personal records with \(generator)."))),
            ("status", .string("final")),
            ("type", .object([("coding", .array([IPSResources.coding(Coding(system: Self.loinc, code: "60591-5",
                                                                              display: "Patient summary Document"))]))])),
            ("subject", IPSResources.reference(patientURL)),
            ("date", .string(timestamp)),
            // The patient compiled it: phr only typeset what they recorded.
            ("author", .array([IPSResources.reference(patientURL)])),
            ("title", .string("Patient summary as of \(today)")),
            ("section", .array(sections.map(Self.section))),
        ])

        let bundleURL = Self.newURN()
        let entries = [(compositionURL, composition)] + resources
        return .object([
            ("resourceType", .string("Bundle")),
            ("id", .string(Self.id(of: bundleURL))),
            ("meta", .object([("profile", .array([.string("http://hl7.org/fhir/uv/ips/StructureDefinition/Bundle-uv-ips")]))])),
            ("identifier", .object([("system", .string("urn:ietf:rfc:3986")), ("value", .string(bundleURL))])),
            ("type", .string("document")),
            ("timestamp", .string(timestamp)),
            ("entry", .array(entries.map { url, resource in .object([("fullUrl", .string(url)), ("resource", resource)]) })),
        ])
    }

    private static func section(_ section: Section) -> OrderedJSON {
        let code = OrderedJSON.object([("coding", .array([IPSResources.coding(Coding(system: loinc, code: section.code,
                                                                                        display: section.display))]))])
        if section.entries.isEmpty {
            return .object([
                ("title", .string(section.title)),
                ("code", code),
                ("text", IPSNarrative.text(IPSNarrative.paragraph(section.emptyText))),
                ("emptyReason", .object([
                    ("coding", .array([.object([("system", .string(emptyReasonSystem)), ("code", .string(section.emptyCode)),
                                                ("display", .string(section.emptyCode == "withheld" ? "Information Withheld" : "Unavailable"))])])),
                    ("text", .string(section.emptyText)),
                ])),
            ])
        }
        return .object([
            ("title", .string(section.title)),
            ("code", code),
            ("text", IPSNarrative.text(section.narrative)),
            ("entry", .array(section.entries.map(IPSResources.reference))),
        ])
    }

    /// A record's uid as a URN when it is a UUID (it always is for records phr created).
    static func urn(for uid: String) -> String {
        UUID(uuidString: uid).map { "urn:uuid:\($0.uuidString.lowercased())" } ?? newURN()
    }

    static func newURN() -> String {
        "urn:uuid:\(UUID().uuidString.lowercased())"
    }

    /// The resource id for a `urn:uuid:` fullUrl: the UUID itself, as the IPS examples do.
    static func id(of urn: String) -> String {
        String(urn.dropFirst("urn:uuid:".count))
    }
}
