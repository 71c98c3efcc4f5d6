import CCDASamples
import Foundation
import GRDB
import Testing
@testable import PHRCore

/// C-CDA import of the project's generated documents (CCD, Discharge Summary, Referral Note; R2.1
/// and R1.1): every section's mapping, idempotence, dry runs, the medical ID filled only where
/// empty, bad entries refused one by one, and XML that must never be expanded or fetched.
@Suite struct CCDAImportTests {
    typealias F = RecordFixtures
    typealias Expected = CCDASampleDocument.Expected
    static let time = F.time("2026-05-10T10:00:00Z", "Europe/Berlin")

    static func write(_ text: String, _ directory: String, _ name: String) throws -> String {
        let path = "\(directory)/\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func rejection(_ path: String, _ vault: Vault) throws -> InteropError? {
        do {
            _ = try RecordImport.run(path: path, vault: vault, profileName: nil, time: time)
            return nil
        } catch let error as InteropError {
            return error
        }
    }

    @Test(arguments: CCDASampleDocument.Kind.allCases, CCDASampleDocument.Release.allCases)
    func everySectionIsImported(kind: CCDASampleDocument.Kind, release: CCDASampleDocument.Release) throws {
        let (vault, profile, directory) = try F.vault("ccda")
        defer { TestSupport.remove(directory) }
        let path = try Self.write(CCDASampleDocument(kind: kind, release: release).xml, directory, "document.xml")
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        let name = switch kind {
        case .ccd: "Continuity of Care Document (CCD)"
        case .dischargeSummary: "Discharge Summary"
        case .referralNote: "Referral Note"
        }
        #expect(report.format == "C-CDA \(release == .r21 ? "R2.1" : "R1.1") \(name)")
        let smoking = kind == .ccd ? Expected.smokingStatus : 0
        #expect(report.added == ["medical_id": 1, "medications": Expected.medications, "allergies": Expected.allergies,
                                 "conditions": Expected.problems, "immunizations": Expected.immunizations,
                                 "observations": Expected.results + Expected.vitalSigns + smoking, "appointments": Expected.encounters,
                                 "procedures": Expected.procedures, "family_history": Expected.familyHistory]
                .merging(kind == .ccd ? ["medical_id_notes": Expected.medicalIDNoteLines.count] : [:]) { a, _ in a })
        #expect(report.rejectedCount == 0, "\(report.skipped)")
        let reasons = Set(report.skipped.map(\.reason))
        #expect(reasons.isSuperset(of: ["names no medication (nullFlavor NI)", "recorded as not taken (negationInd)",
                                        "states that there is no known allergy, which is not an allergy to list",
                                        "names no problem (value nullFlavor UNK)", "not given (negationInd)", "has no value",
                                        "planned, not done (moodCode INT)", "names no procedure (code nullFlavor UNK)",
                                        "names no relative (subject/relatedSubject/code)"]))
        #expect(reasons.contains("phr keeps only the smoking status of the social history") == (kind == .ccd))
        #expect(reasons.contains("names no device (playingDevice code)") == (kind == .ccd))
        // A device and an advance directive: lines of the medical ID's notes (shown on the
        // emergency card), each once however often the document is imported.
        let notes = try MedicalIDStore(vault: vault, profile: profile, time: Self.time).get()?.notes ?? ""
        #expect(notes.components(separatedBy: "\n") == (kind == .ccd ? Expected.medicalIDNoteLines : [""]).filter { !$0.isEmpty } || (kind != .ccd && notes.isEmpty), "\(notes)")
        if kind == .ccd {
            _ = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
            #expect(try MedicalIDStore(vault: vault, profile: profile, time: Self.time).get()?.notes == Expected.medicalIDNoteLines.joined(separator: "\n"))
        }
        let sections = report.skipped.filter { $0.type.hasSuffix(" section") }.map { "\($0.type): \($0.reason.description)" }
        // Procedures, family history and (a CCD's) smoking status are kept as records.
        let procedures = try ProcedureStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(procedures.map(\.name) == ["Colonoscopy", "Appendectomy"])
        #expect(procedures.map { $0.date?.description } == ["2024-03-02", "2009"])
        #expect(procedures.last?.bodySite == "Appendix structure" && procedures.last?.performer == "Jordan Surgeon")
        #expect(procedures.last?.codes.code(in: Coding.System.snomed) == "80146002" && procedures.allSatisfy { $0.status == .completed })
        let family = try FamilyHistoryStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(family.map { "\($0.relation)/\($0.relationCode ?? "-"): \($0.condition) \($0.onsetAge.map(String.init) ?? "-") \($0.causeOfDeath == true)" }
                == ["mother/MTH: Hypertensive disorder - false", "mother/MTH: Malignant neoplasm of breast 52 false",
                    "father/FTH: Myocardial infarction 61 true"], "\(family)")
        let smokingStatus = try ObservationStore(vault: vault, profile: profile).list().filter { $0.category == "social-history" }
        #expect(smokingStatus.map { "\($0.name): \($0.valueText ?? "")" } == (kind == .ccd ? ["Tobacco smoking status: Ex-smoker"] : []))
        switch kind {
        case .ccd:
            #expect(sections == ["Plan of Treatment section: phr does not keep this section (LOINC 18776-5)"])
        case .dischargeSummary:
            #expect(sections == ["Hospital Course section: phr does not keep this section (LOINC 8648-8)"])
        case .referralNote:
            #expect(sections == ["Reason for Referral section: phr does not keep this section (LOINC 42349-1)"])
        }

        let medications = try MedicationStore(vault: vault, profile: profile, time: Self.time).list(all: true)
        #expect(medications.compactMap { $0.codes.code(in: Coding.System.rxNorm) }.sorted() == ["308191", "314076", "745679", "861007"])
        let lisinopril = try #require(medications.first { $0.codes.code(in: Coding.System.rxNorm) == "314076" })
        #expect(lisinopril.name == "Lisinopril 10 MG Oral Tablet" && lisinopril.status == .active && lisinopril.schedule == .interval(minutes: 1440))
        #expect(lisinopril.start?.description == "2024-01-15" && lisinopril.prescriber == "Robin Example")
        #expect(lisinopril.instructions == "oral; Take with water")
        let amoxicillin = try #require(medications.first { $0.codes.code(in: Coding.System.rxNorm) == "308191" })
        #expect(amoxicillin.status == .stopped && amoxicillin.end?.description == "2025-03-10" && amoxicillin.stoppedOn?.description == "2025-03-11")
        #expect(amoxicillin.schedule == .interval(minutes: 480))
        let metformin = try #require(medications.first { $0.codes.code(in: Coding.System.rxNorm) == "861007" })
        #expect(metformin.dose == "500 mg" && metformin.schedule == .interval(minutes: 720))
        #expect(medications.first { $0.codes.code(in: Coding.System.rxNorm) == "745679" }?.schedule == .asNeeded)

        let allergies = try AllergyStore(vault: vault, profile: profile, time: Self.time).list()
        let penicillin = try #require(allergies.first { $0.substance == "Penicillin G" })
        #expect(penicillin.reaction == "Hives" && penicillin.severity == .moderate && penicillin.category == .medication)
        #expect(penicillin.criticality == (release == .r21 ? .high : nil) && penicillin.status == .active)
        #expect(penicillin.codes.code(in: Coding.System.rxNorm) == "7980" && penicillin.since?.description == "2005-01-01")
        let peanut = try #require(allergies.first { $0.substance == "Peanut" })
        #expect(peanut.severity == .severe && peanut.category == .food && peanut.reaction == "Anaphylaxis")
        let codeine = try #require(allergies.first { $0.substance == "Codeine" })
        #expect(codeine.status == .resolved && codeine.severity == .mild)

        let conditions = try ConditionStore(vault: vault, profile: profile, time: Self.time).list()
        let hypertension = try #require(conditions.first { $0.name == "Essential hypertension" })
        #expect(hypertension.codes.code(in: Coding.System.snomed) == "59621000" && hypertension.codes.code(in: Coding.System.icd10CM) == "I10")
        #expect(hypertension.status == .active && hypertension.since?.description == "2018-03-10")
        // The second problem of one concern (HL7's own examples and discharge summaries list several).
        let asthma = try #require(conditions.first { $0.name == "Asthma" })
        #expect(asthma.codes.code(in: Coding.System.icd10CM) == "J45.909" && asthma.status == .active && asthma.since?.description == "2020-01-05")
        #expect(conditions.contains { $0.name == "Diabetes mellitus type 2" })
        let bronchitis = try #require(conditions.first { $0.name == "Acute bronchitis" })
        #expect(bronchitis.status == .resolved && bronchitis.resolved?.description == "2024-01-25")

        let immunizations = try ImmunizationStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(immunizations.compactMap { $0.codes.code(in: Coding.System.cvx) }.sorted() == ["115", "141", "208"])
        let flu = try #require(immunizations.first { $0.codes.code(in: Coding.System.cvx) == "141" })
        #expect(flu.date?.description == "2025-10-15" && flu.lot == "FLU-SAMPLE-25")

        let observations = try ObservationStore(vault: vault, profile: profile).list()
        let hemoglobin = try #require(observations.first { $0.codes.code(in: Coding.System.loinc) == "718-7" })
        #expect(hemoglobin.valueNumber == 13.2 && hemoglobin.valueUnit == "g/dL" && hemoglobin.category == "laboratory")
        #expect(hemoglobin.status == .final && hemoglobin.effective == "2026-02-15T08:30:00-05:00")
        // Range, interpretation, UCUM unit and panel land in the lab fields (issue 15), not in notes.
        #expect(hemoglobin.notes == nil)
        #expect(hemoglobin.lab?.range == ReferenceRange(low: 12, high: 16, text: nil))
        #expect(hemoglobin.lab?.flag == .normal && hemoglobin.lab?.unitUCUM == "g/dL" && hemoglobin.lab?.origin == .fhir)
        #expect(hemoglobin.lab?.panel == "CBC panel - Blood by Automated count")
        #expect(hemoglobin.lab?.analyte != nil, "hemoglobin is in the analyte catalog")
        let glucose = try #require(observations.first { $0.codes.code(in: Coding.System.loinc) == "2345-7" })
        #expect(glucose.lab?.flag == .high)
        #expect(glucose.lab?.range == ReferenceRange(low: nil, high: nil, text: "70-99 mg/dL fasting"))
        let hiv = try #require(observations.first { $0.codes.code(in: Coding.System.loinc) == "5221-7" })
        #expect(hiv.valueText == "Negative" && hiv.valueCodes?.code(in: Coding.System.snomed) == "260385009")
        #expect(observations.first { $0.codes.code(in: Coding.System.loinc) == "48767-8" }?.valueText == "Specimen slightly hemolyzed")
        let systolic = try #require(observations.first { $0.codes.code(in: Coding.System.loinc) == "8480-6" })
        #expect(systolic.category == "vital-signs" && systolic.valueNumber == 128 && systolic.valueUnit == "mm[Hg]")

        let appointments = try AppointmentStore(vault: vault, profile: profile, time: Self.time).list(.all)
        // Visits keep the wall-clock time and offset the document gave (10:00 -05:00), not Berlin's 16:00.
        let visit = try #require(appointments.first { $0.with == "Robin Example" && $0.reason == "Essential hypertension" })
        #expect(visit.start.display == "2026-03-01 10:00" && visit.timeZone == "GMT-0500")
        #expect(visit.durationMinutes == 30 && visit.location == "Sampletown Community Clinic")
        #expect(visit.notes == "Office outpatient visit 15 minutes" && visit.status == .confirmed)
        let newPatient = try #require(appointments.first { $0.with == "Office outpatient new 45 minutes" })
        #expect(newPatient.allDay && newPatient.start.display == "2025-03-10 00:00")
        #expect(appointments.contains { $0.with == "Robin Example" && $0.start.display == "2024-11-05 14:00" })

        let id = try #require(try MedicalIDStore(vault: vault, profile: profile, time: Self.time).get())
        #expect(id.name == Expected.patientName && id.dateOfBirth?.description == Expected.birthDate && id.sex == .female)
        #expect(id.heightCm == 170 && id.weightKg == 68.5)
        #expect(id.identifiers == [SourceIdentifier(system: "urn:oid:2.16.840.1.113883.19.5.99999.2", value: "SAMPLE-MRN-0042")])
    }

    @Test func aSecondImportAddsNothingAndADryRunWritesNothing() throws {
        let (vault, _, directory) = try F.vault("ccda-again")
        defer { TestSupport.remove(directory) }
        let path = try Self.write(CCDASampleDocument().xml, directory, "ccd.xml")
        let dry = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time, dryRun: true)
        #expect(dry.dryRun && dry.added["medications"] == Expected.medications)
        #expect(try FHIRImportTests.fingerprint(vault).allSatisfy { $0.hasPrefix("profile:") }, "a dry run writes nothing")
        let first = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        let before = try FHIRImportTests.fingerprint(vault)
        let again = try RecordImport.run(path: path, vault: vault, profileName: nil, time: F.time("2026-06-01T00:00:00Z", "Europe/Berlin"))
        #expect(again.changedCount == 0)
        #expect(again.unchanged == first.added)
        #expect(again.skipped == first.skipped)
        #expect(try FHIRImportTests.fingerprint(vault) == before)
    }

    /// An Allergy Concern Act with two allergy observations and an R1.1-style Problem Concern Act
    /// (no entry templates) with three problems keep every one, each placed by its number, and
    /// the report's counts add up.
    @Test func everyObservationOfAConcernIsKept() throws {
        let (vault, profile, directory) = try F.vault("ccda-concern")
        defer { TestSupport.remove(directory) }
        func substance(_ code: String, _ name: String) -> String {
            """
            <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
              <templateId root="2.16.840.1.113883.10.20.22.4.7"/><id root="1.2.3" extension="\(code)"/>
              <code code="ASSERTION" codeSystem="2.16.840.1.113883.5.4"/><statusCode code="completed"/>
              <effectiveTime><low value="20100101"/></effectiveTime>
              <value xsi:type="CD" code="416098002" codeSystem="2.16.840.1.113883.6.96"/>
              <participant typeCode="CSM"><participantRole><playingEntity>
                <code code="\(code)" codeSystem="2.16.840.1.113883.6.88" displayName="\(name)"/></playingEntity></participantRole></participant>
            </observation></entryRelationship>
            """
        }
        func problem(_ code: String, _ name: String) -> String {
            """
            <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
              <code code="64572001" codeSystem="2.16.840.1.113883.6.96"/><statusCode code="completed"/>
              <effectiveTime><low value="20230704"/></effectiveTime>
              <value xsi:type="CD" code="\(code)" codeSystem="2.16.840.1.113883.6.96" displayName="\(name)"/>
            </observation></entryRelationship>
            """
        }
        let xml = """
        <ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
          <templateId root="2.16.840.1.113883.10.20.22.1.1"/><code code="34133-9" codeSystem="2.16.840.1.113883.6.1"/>
          <component><structuredBody>
            <component><section><templateId root="2.16.840.1.113883.10.20.22.2.6.1"/><code code="48765-2" codeSystem="2.16.840.1.113883.6.1"/>
              <entry><act classCode="ACT" moodCode="EVN"><templateId root="2.16.840.1.113883.10.20.22.4.30"/>
                <id root="1.2.3" extension="concern-a"/><statusCode code="active"/>
                \(substance("7980", "Penicillin G"))\(substance("2670", "Codeine"))
              </act></entry></section></component>
            <component><section><code code="11450-4" codeSystem="2.16.840.1.113883.6.1"/>
              <entry><act classCode="ACT" moodCode="EVN"><id root="1.2.3" extension="concern-p"/><statusCode code="active"/>
                \(problem("195967001", "Asthma"))\(problem("194828000", "Angina"))\(problem("38341003", "Hypertensive disorder"))
                <entryRelationship typeCode="REFR"><observation classCode="OBS" moodCode="EVN"><code code="33999-4" codeSystem="2.16.840.1.113883.6.1"/>
                  <value xsi:type="CD" code="55561003" codeSystem="2.16.840.1.113883.6.96" displayName="Active"/></observation></entryRelationship>
              </act></entry></section></component>
          </structuredBody></component>
        </ClinicalDocument>
        """
        let path = try Self.write(xml, directory, "concerns.xml")
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(report.added["allergies"] == 2 && report.added["conditions"] == 3, "\(report.added) \(report.skipped)")
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        let allergies = try AllergyStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(Set(allergies.map(\.substance)) == ["Penicillin G", "Codeine"])
        let conditions = try ConditionStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(Set(conditions.map(\.name)) == ["Asthma", "Angina", "Hypertensive disorder"])
        #expect(conditions.allSatisfy { $0.since?.description == "2023-07-04" && $0.status == .active })
        let again = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(again.changedCount == 0 && again.unchanged == report.added, "the three problems are told apart on a second import")
    }

    /// Issue 26, items 6 to 8: one unreadable attribute never costs the entry, an uncoded item
    /// that names itself is kept by its name, and an encounter keeps the time its document gave.
    @Test func entriesAreKeptWithoutTheAttributesPhrCannotRead() throws {
        let (vault, profile, directory) = try F.vault("ccda-repairs")
        defer { TestSupport.remove(directory) }
        func section(_ template: String, _ code: String, _ entries: String) -> String {
            """
            <component><section><templateId root="2.16.840.1.113883.10.20.22.2.\(template)"/><code code="\(code)" codeSystem="2.16.840.1.113883.6.1"/>
            \(entries)</section></component>
            """
        }
        func medication(_ id: String, _ code: String, low: String, high: String? = nil) -> String {
            """
            <entry><substanceAdministration classCode="SBADM" moodCode="EVN"><id root="1.2.3" extension="\(id)"/><statusCode code="active"/>
              <effectiveTime xsi:type="IVL_TS"><low value="\(low)"/>\(high.map { "<high value=\"\($0)\"/>" } ?? "")</effectiveTime>
              <consumable><manufacturedProduct><manufacturedMaterial>\(code)</manufacturedMaterial></manufacturedProduct></consumable>
            </substanceAdministration></entry>
            """
        }
        func encounter(_ id: String, low: String, high: String) -> String {
            """
            <entry><encounter classCode="ENC" moodCode="EVN"><id root="1.2.3" extension="\(id)"/>
              <code code="99223" codeSystem="2.16.840.1.113883.6.12" displayName="Initial hospital care"/>
              <effectiveTime><low value="\(low)"/><high value="\(high)"/></effectiveTime></encounter></entry>
            """
        }
        func result(_ id: String, _ code: String, value: String) -> String {
            """
            <component><observation classCode="OBS" moodCode="EVN"><id root="1.2.3" extension="\(id)"/>\(code)<statusCode code="completed"/>
              <effectiveTime value="20250102083000-0500"/>\(value)</observation></component>
            """
        }
        let xml = """
        <ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
          <templateId root="2.16.840.1.113883.10.20.22.1.1"/><code code="34133-9" codeSystem="2.16.840.1.113883.6.1"/>
          <component><structuredBody>
          \(section("1.1", "10160-0", medication("m1", "<code code=\"\" codeSystem=\"2.16.840.1.113883.6.88\" displayName=\"Warfarin 5 MG Oral Tablet\"/>", low: "00010101000000")
            + medication("m2", "<code nullFlavor=\"OTH\"><translation code=\"\" displayName=\"insulin glargine\"/></code>", low: "2024031", high: "000000")
            + medication("m3", "<code code=\"197361\" codeSystem=\"2.16.840.1.113883.6.88\" displayName=\"Amlodipine 5 MG\"/>", low: "20240301", high: "20230101")))
          \(section("22.1", "46240-8", encounter("e1", low: "20130710214400-0500", high: "20130710223000-0500")
            + encounter("e2", low: "20240101080000+0100", high: "20240315120000+0100")
            + encounter("e3", low: "20240601090000+0200", high: "20240501090000+0200")))
          \(section("3.1", "30954-2", """
            <entry><organizer classCode="BATTERY" moodCode="EVN"><statusCode code="completed"/>
            \(result("r1", "<code nullFlavor=\"UNK\" displayName=\"WBC\"/>", value: "<value xsi:type=\"PQ\" value=\"6.7\" unit=\"10*3/uL\"/>"))
            \(result("r2", "<code nullFlavor=\"OTH\"><originalText>Hemoglobin</originalText></code>", value: "<value xsi:type=\"PQ\" value=\"13.2\" unit=\"g/dL\"/>"))
            \(result("", "<code code=\"6301-6\" codeSystem=\"2.16.840.1.113883.6.1\" displayName=\"INR\"/>", value: "<value xsi:type=\"PQ\" value=\"1.1\" unit=\"1\"/>"))
            </organizer></entry>
            """))
          \(section("2.1", "11369-6", """
            <entry><substanceAdministration classCode="SBADM" moodCode="EVN"><id root="1.2.3" extension="v1"/><statusCode code="completed"/>
              <effectiveTime value="00000000"/>
              <consumable><manufacturedProduct><manufacturedMaterial><code code="141" codeSystem="2.16.840.1.113883.12.292" displayName="Influenza"/></manufacturedMaterial></manufacturedProduct></consumable>
            </substanceAdministration></entry>
            """))
          \(section("6.1", "48765-2", """
            <entry><act classCode="ACT" moodCode="EVN"><statusCode code="active"/><entryRelationship typeCode="SUBJ">
              <observation classCode="OBS" moodCode="EVN"><templateId root="2.16.840.1.113883.10.20.22.4.7"/><id root="1.2.3" extension="a1"/>
                <value xsi:type="CD" code="419199007" codeSystem="2.16.840.1.113883.6.96" displayName="Allergy to substance"><originalText>Shellfish</originalText></value>
                <participant typeCode="CSM"><participantRole><playingEntity><code nullFlavor="UNK"/></playingEntity></participantRole></participant>
              </observation></entryRelationship></act></entry>
            """))
          </structuredBody></component>
        </ClinicalDocument>
        """
        let path = try Self.write(xml, directory, "repairs.xml")
        // phr runs in UTC here: the evening visit at 21:44 -05:00 must not become the next day's.
        let utc = F.time("2026-05-10T10:00:00Z", "UTC")
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: utc)
        #expect(report.rejectedCount == 0, "\(report.skipped)")
        // A vaccine whose date is a vendor's "unknown" sentinel is kept undated (issue 26, item 7).
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        #expect(report.added == ["medications": 3, "appointments": 3, "observations": 3, "allergies": 1, "immunizations": 1], "\(report.added)")
        #expect(try ImmunizationStore(vault: vault, profile: profile, time: utc).list().map(\.date) == [nil])
        let repaired = Dictionary(uniqueKeysWithValues: report.repaired.map { ($0.entry, $0.reason.description) })
        #expect(repaired["section[0] entry[0]"] == "effectiveTime.low: '00010101000000' stands for an unknown time; left out")
        #expect(repaired["section[0] entry[1]"] == "effectiveTime.low: '2024031' has too few digits for its precision; read as a month; effectiveTime.high: '000000' stands for an unknown time; left out")
        #expect(repaired["section[0] entry[2]"] == "effectiveTime.high: 2023-01-01 is before the start, 2024-03-01; left out")
        #expect(repaired["section[1] entry[1]"] == "effectiveTime.high: the stay lasts 74 days, longer than an appointment in phr (31 days); its end is kept in the notes")
        #expect(repaired["section[1] entry[2]"] == "effectiveTime.high: 2024-05-01T09:00:00+02:00 is before the start; left out")
        #expect(report.repaired.count == 5)

        let medications = try MedicationStore(vault: vault, profile: profile, time: utc).list(all: true)
        #expect(Set(medications.map(\.name)) == ["Warfarin 5 MG Oral Tablet", "insulin glargine", "Amlodipine 5 MG"])
        #expect(medications.first { $0.name == "insulin glargine" }?.start?.description == "2024-03")
        #expect(medications.first { $0.name == "Amlodipine 5 MG" }?.end == nil)
        let visits = try AppointmentStore(vault: vault, profile: profile, time: utc).list(.all)
        let evening = try #require(visits.first { $0.start.date.description == "2013-07-10" })
        #expect(evening.start.display == "2013-07-10 21:44" && evening.timeZone == "GMT-0500" && evening.durationMinutes == 46)
        let stay = try #require(visits.first { $0.start.date.description == "2024-01-01" })
        #expect(stay.notes == "until 2024-03-15 12:00" && stay.durationMinutes == AppointmentStore.defaultDurationMinutes)
        let observations = try ObservationStore(vault: vault, profile: profile).list()
        #expect(observations.first { $0.name == "WBC" }?.valueNumber == 6.7)
        #expect(observations.first { $0.name == "Hemoglobin" }?.valueUnit == "g/dL")
        // An id with an empty extension is its root alone; the dimensionless unit "1" is kept as the UCUM unit.
        let inr = try #require(observations.first { $0.name == "INR" })
        #expect(inr.valueNumber == 1.1 && inr.valueUnit == nil && inr.lab?.unitUCUM == "1")
        #expect(try AllergyStore(vault: vault, profile: profile, time: utc).list().map(\.substance) == ["Shellfish"])
        let again = try RecordImport.run(path: path, vault: vault, profileName: nil, time: utc)
        #expect(again.changedCount == 0 && again.unchanged == report.added)
    }

    @Test func theMedicalIDKeepsWhatIsAlreadySet() throws {
        let (vault, profile, directory) = try F.vault("ccda-id")
        defer { TestSupport.remove(directory) }
        let store = MedicalIDStore(vault: vault, profile: profile, time: Self.time)
        var edit = MedicalIDStore.Input()
        edit.name = "Alex Sample-Jones"
        _ = try store.set(edit)
        let path = try Self.write(CCDASampleDocument().xml, directory, "ccd.xml")
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(report.notes.contains("medical ID: kept your name; the document says otherwise"))
        let id = try #require(try store.get())
        #expect(id.name == "Alex Sample-Jones" && id.dateOfBirth?.description == Expected.birthDate)
    }

    /// A start date phr cannot keep costs the medication its start, not the medication: the
    /// entry is kept, and the report says what was left out. A value it cannot keep is the
    /// observation itself, which is refused.
    @Test func aBadEntryIsRefusedAndTheRestImported() throws {
        let (vault, profile, directory) = try F.vault("ccda-bad")
        defer { TestSupport.remove(directory) }
        var xml = CCDASampleDocument().xml
        xml = xml.replacingOccurrences(of: "<low value=\"20240115\"/>", with: "<low value=\"18000115\"/>")
        xml = xml.replacingOccurrences(of: "value=\"13.2\" unit=\"g/dL\"", with: "value=\"1e999\" unit=\"g/dL\"")
        let path = try Self.write(xml, directory, "ccd.xml")
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        let refused = report.skipped.filter(\.rejected).map { "\($0.entry) \($0.type): \($0.reason.description)" }
        #expect(refused == ["section[4] entry[0] component[0] Result Observation: value: '1e999' is not a number phr can keep"])
        #expect(report.repaired.map { "\($0.entry) \($0.type): \($0.reason.description)" } == [
            "section[1] entry[0] Medication Activity: effectiveTime.low: '18000115': year 1800 is outside the years phr accepts (1900 to 2200); left out",
        ])
        #expect(report.added["medications"] == Expected.medications && report.added["observations"] == Expected.results + Expected.vitalSigns + Expected.smokingStatus - 1)
        let lisinopril = try #require(try MedicationStore(vault: vault, profile: profile, time: Self.time).list(all: true)
            .first { $0.codes.code(in: Coding.System.rxNorm) == "314076" })
        #expect(lisinopril.start == nil && lisinopril.status == .active)
    }

    @Test func xmlThatIsNotCCDAOrIsHostileIsRefused() throws {
        let (vault, _, directory) = try F.vault("ccda-refused")
        defer { TestSupport.remove(directory) }
        let before = try FHIRImportTests.fingerprint(vault)
        let started = Date()
        let bomb = try #require(try Self.rejection(try Self.write(CCDASampleDocument.entityBomb, directory, "bomb.xml"), vault))
        #expect(bomb.errorDescription == "\(directory)/bomb.xml: XML: declares entities (<!ENTITY> in a document type declaration), which phr never expands; C-CDA documents have none")
        #expect(bomb.exitStatus == .dataError)
        for target in ["/etc/passwd", "file:///etc/passwd", "http://127.0.0.1:9/secret"] {
            let refused = try Self.rejection(try Self.write(CCDASampleDocument.externalEntity(target), directory, "xxe.xml"), vault)
            #expect(refused?.errorDescription?.contains("declares entities") == true)
        }
        #expect(Date().timeIntervalSince(started) < 5, "refused at the declaration, without expanding anything")

        let other = try Self.rejection(try Self.write("<?xml version=\"1.0\"?>\n<rss version=\"2.0\"/>", directory, "feed.xml"), vault)
        #expect(other?.errorDescription == "\(directory)/feed.xml: an XML file whose root is <rss>, not a C-CDA document; phr reads C-CDA documents (<ClinicalDocument> in urn:hl7-org:v3), Apple Health exports (<HealthData>), FHIR R4 Bundles (JSON), its own exports and iCalendar (.ics) files")
        // A Blue Button report saved as a web page gets advice, not an XML parse error.
        for page in ["<!DOCTYPE html>\n<html><head><title>My HealtheVet Blue Button</title></head><body><p>Allergies<br>Penicillin</body></html>",
                     "<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>CCD</body></html>"] {
            let html = try Self.rejection(try Self.write(page, directory, "bluebutton.html"), vault)
            #expect(html?.errorDescription == "\(directory)/bluebutton.html: a web page (HTML), such as a Blue Button report or a C-CDA shown in a browser, not the C-CDA document itself; download the XML file from the portal (often CCD.xml or a .xml in the Blue Button download) and import that")
        }
        let wrongNamespace = try Self.rejection(try Self.write("<ClinicalDocument xmlns=\"urn:example\"/>", directory, "cda.xml"), vault)
        #expect(wrongNamespace?.errorDescription?.contains("whose root is <ClinicalDocument> (namespace urn:example), not a C-CDA document") == true)
        let truncated = String(CCDASampleDocument().xml.prefix(3000))
        let broken = try Self.rejection(try Self.write(truncated, directory, "truncated.xml"), vault)
        #expect(broken?.errorDescription?.hasPrefix("\(directory)/truncated.xml: XML line ") == true)
        #expect(broken?.errorDescription?.contains(": not well-formed (") == true)
        let deep = "<ClinicalDocument xmlns=\"urn:hl7-org:v3\">" + String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200) + "</ClinicalDocument>"
        let tooDeep = try Self.rejection(try Self.write(deep, directory, "deep.xml"), vault)
        #expect(tooDeep?.errorDescription == "\(directory)/deep.xml: XML: elements nested more than 80 deep")
        let scanned = "<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><component><nonXMLBody><text mediaType=\"application/pdf\" representation=\"B64\">JVBERi0=</text></nonXMLBody></component></ClinicalDocument>"
        let unstructured = try Self.rejection(try Self.write(scanned, directory, "scan.xml"), vault)
        #expect(unstructured?.errorDescription?.contains("a C-CDA document without structured entries") == true)
        #expect(try FHIRImportTests.fingerprint(vault) == before, "a refused file changes nothing")
    }
}
