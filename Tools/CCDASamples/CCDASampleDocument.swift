// Synthetic C-CDA documents for phr's tests and benchmarks: every section phr imports, with the
// variants real files have (nullFlavor, negated and missing values, R1.1's status observations
// and severities inside reactions), written from the structure of the C-CDA R2.1 templates.
// The people and facts are made up; nothing is copied from anyone's files.
import Foundation

/// A C-CDA document to write: a CCD, Discharge Summary or Referral Note, in R2.1 or R1.1.
public struct CCDASampleDocument: Sendable {
    public enum Kind: Sendable, CaseIterable {
        case ccd, dischargeSummary, referralNote
    }

    public enum Release: Sendable, CaseIterable {
        case r21, r11
    }

    public var kind: Kind
    public var release: Release
    /// Extra result panels (six results each, a day apart going back from 2016-01-01, so even a
    /// 256 MB document stays after 1900 and before today), to make large documents.
    public var extraPanels: Int

    public init(kind: Kind = .ccd, release: Release = .r21, extraPanels: Int = 0) {
        self.kind = kind
        self.release = release
        self.extraPanels = extraPanels
    }

    /// What the generated document holds, for tests to compare against.
    public enum Expected {
        public static let patientName = "Alex Q Sample"
        public static let birthDate = "1975-05-01"
        public static let medications = 4
        public static let allergies = 3
        public static let problems = 4
        public static let immunizations = 3
        /// Results in the base document (entries of the results section).
        public static let results = 8
        public static let vitalSigns = 6
        public static let encounters = 3
        /// Procedures done (a planned one and an unnamed one are skipped).
        public static let procedures = 2
        /// Relatives' conditions: the mother's two and the father's one (a relative not named is skipped).
        public static let familyHistory = 3
        /// The CCD's smoking status, kept as a social-history observation (its alcohol entry is skipped).
        public static let smokingStatus = 1
        /// The CCD's device and advance directive, as lines of the medical ID's notes.
        public static let medicalIDNoteLines = ["Device: Cardiac pacemaker (since 2019-05-02)",
                                                "Advance directive: Resuscitation status: Not for resuscitation (from 2024-01-10)"]
        /// Results each extra panel adds.
        public static let resultsPerPanel = 6
    }

    /// A document of at least `bytes` bytes (extra result panels added until it is).
    public static func large(bytes: Int, kind: Kind = .ccd) -> String {
        let base = CCDASampleDocument(kind: kind).xml.utf8.count
        let panel = CCDASampleDocument(kind: kind, extraPanels: 1).xml.utf8.count - base
        let panels = max(0, (bytes - base + panel - 1) / panel)
        return CCDASampleDocument(kind: kind, extraPanels: panels).xml
    }

    /// Billion laughs: ten nested entities, each ten times the one before.
    public static let entityBomb: String = {
        var lines = ["<?xml version=\"1.0\"?>", "<!DOCTYPE ClinicalDocument [", "  <!ENTITY lol0 \"lol\">"]
        for level in 1...9 {
            lines.append("  <!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">")
        }
        lines += ["]>", "<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>&lol9;</title></ClinicalDocument>"]
        return lines.joined(separator: "\n")
    }()

    /// An external entity naming `systemID` (a file or URL), used in the title.
    public static func externalEntity(_ systemID: String) -> String {
        """
        <?xml version="1.0"?>
        <!DOCTYPE ClinicalDocument [ <!ENTITY secret SYSTEM "\(systemID)"> ]>
        <ClinicalDocument xmlns="urn:hl7-org:v3"><title>&secret;</title></ClinicalDocument>
        """
    }

    /// The document.
    public var xml: String {
        let body: [String]
        switch kind {
        case .ccd:
            body = [allergies, medications(discharge: false), problems(discharge: false), immunizations, results, vitalSigns, encounters,
                    procedures, familyHistory, socialHistory, medicalEquipment, advanceDirectives, planOfTreatment]
        case .dischargeSummary:
            body = [hospitalCourse, problems(discharge: true), medications(discharge: true), allergies, immunizations, results, vitalSigns,
                    encounters, procedures, familyHistory]
        case .referralNote:
            body = [reasonForReferral, allergies, medications(discharge: false), problems(discharge: false), immunizations, results,
                    vitalSigns, encounters, procedures, familyHistory]
        }
        return header + body.joined(separator: "\n") + "\n</structuredBody></component>\n</ClinicalDocument>\n"
    }

    // MARK: Header

    private func template(_ root: String, r21Extension: String? = "2015-08-01") -> String {
        if release == .r21, let r21Extension { return "<templateId root=\"\(root)\" extension=\"\(r21Extension)\"/>" }
        return "<templateId root=\"\(root)\"/>"
    }

    private var header: String {
        let (documentTemplate, code, name, title): (String, String, String, String) = switch kind {
        case .ccd: ("2.16.840.1.113883.10.20.22.1.2", "34133-9", "Summarization of Episode Note", "Continuity of Care Document")
        case .dischargeSummary: ("2.16.840.1.113883.10.20.22.1.8", "18842-5", "Discharge summary", "Discharge Summary")
        case .referralNote: ("2.16.840.1.113883.10.20.22.1.14", "57133-1", "Referral note", "Referral Note")
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <?xml-stylesheet type="text/xsl" href="CDA.xsl"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:sdtc="urn:hl7-org:sdtc">
        <realmCode code="US"/>
        <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
        \(template("2.16.840.1.113883.10.20.22.1.1"))
        \(template(documentTemplate))
        <id root="2.16.840.1.113883.19.5.99999.1" extension="SAMPLE-DOC-0001"/>
        <code code="\(code)" codeSystem="2.16.840.1.113883.6.1" codeSystemName="LOINC" displayName="\(name)"/>
        <title>\(title) (synthetic sample)</title>
        <effectiveTime value="20260301120000-0500"/>
        <confidentialityCode code="N" codeSystem="2.16.840.1.113883.5.25"/>
        <languageCode code="en-US"/>
        <recordTarget>
          <patientRole>
            <id root="2.16.840.1.113883.19.5.99999.2" extension="SAMPLE-MRN-0042"/>
            <id nullFlavor="UNK"/>
            <addr use="HP"><streetAddressLine>1 Example Street</streetAddressLine><city>Sampletown</city><state>OR</state><postalCode>97000</postalCode><country>US</country></addr>
            <telecom value="tel:+1(555)555-0100" use="HP"/>
            <patient>
              <name use="L"><given>Alex</given><given>Q</given><family>Sample</family></name>
              <name use="P"><given>Al</given><family>Sample</family></name>
              <administrativeGenderCode code="F" codeSystem="2.16.840.1.113883.5.1" displayName="Female"/>
              <birthTime value="19750501"/>
              <sdtc:deceasedInd value="false"/>
              <raceCode code="2106-3" codeSystem="2.16.840.1.113883.6.238" displayName="White"/>
              <languageCommunication><languageCode code="en"/></languageCommunication>
            </patient>
          </patientRole>
        </recordTarget>
        <author><time value="20260301120000-0500"/><assignedAuthor><id root="2.16.840.1.113883.4.6" extension="9999999999"/>
          <assignedPerson><name><prefix>Dr.</prefix><given>Robin</given><family>Example</family></name></assignedPerson></assignedAuthor></author>
        <custodian><assignedCustodian><representedCustodianOrganization><id root="2.16.840.1.113883.19.5.99999"/>
          <name>Sampletown Community Clinic</name></representedCustodianOrganization></assignedCustodian></custodian>
        <component><structuredBody>

        """
    }

    // MARK: Sections

    private func section(_ template: String, _ code: String, _ name: String, _ title: String, _ entries: [String],
                         r21Extension: String? = "2015-08-01") -> String {
        """
        <component><section>
        \(self.template(template, r21Extension: r21Extension))
        <code code="\(code)" codeSystem="2.16.840.1.113883.6.1" displayName="\(name)"/>
        <title>\(title)</title>
        <text><table><thead><tr><th>Item</th><th>Detail</th></tr></thead><tbody><tr><td>See the coded entries</td><td>synthetic</td></tr></tbody></table></text>
        \(entries.joined(separator: "\n"))
        </section></component>
        """
    }

    private static func code(_ code: String, _ system: String, _ display: String, translations: [String] = []) -> String {
        "<code code=\"\(code)\" codeSystem=\"\(system)\" displayName=\"\(display)\">"
            + "<originalText><reference value=\"#ref-\(code)\"/></originalText>" + translations.joined() + "</code>"
    }

    static let rxNorm = "2.16.840.1.113883.6.88"
    static let snomed = "2.16.840.1.113883.6.96"
    static let loinc = "2.16.840.1.113883.6.1"
    static let cvx = "2.16.840.1.113883.12.292"
    static let icd10 = "2.16.840.1.113883.6.90"

    private func medication(_ id: String, rxnorm: String, _ name: String, status: String, low: String, high: String? = nil,
                            periodHours: Int? = nil, dose: String, unit: String? = nil, asNeeded: Bool = false, negated: Bool = false,
                            nullProduct: Bool = false) -> String {
        let period = periodHours.map {
            "<effectiveTime xsi:type=\"PIVL_TS\" institutionSpecified=\"true\" operator=\"A\"><period value=\"\($0)\" unit=\"h\"/></effectiveTime>"
        } ?? ""
        let product = nullProduct ? "<code nullFlavor=\"NI\"/>"
            : "<code code=\"\(rxnorm)\" codeSystem=\"\(Self.rxNorm)\" codeSystemName=\"RxNorm\" displayName=\"\(name)\"><originalText><reference value=\"#med-\(id)\"/></originalText></code>"
        return """
        <substanceAdministration classCode="SBADM" moodCode="\(status == "active" ? "INT" : "EVN")"\(negated ? " negationInd=\"true\"" : "")>
          \(template("2.16.840.1.113883.10.20.22.4.16", r21Extension: "2014-06-09"))
          <id root="2.16.840.1.113883.19.5.99999.3" extension="MED-\(id)"/>
          <text><reference value="#med-\(id)"/></text>
          <statusCode code="\(status)"/>
          <effectiveTime xsi:type="IVL_TS"><low value="\(low)"/>\(high.map { "<high value=\"\($0)\"/>" } ?? "<high nullFlavor=\"UNK\"/>")</effectiveTime>
          \(period)
          <routeCode code="C38288" codeSystem="2.16.840.1.113883.3.26.1.1" codeSystemName="NCI Thesaurus" displayName="Oral"/>
          <doseQuantity value="\(dose)"\(unit.map { " unit=\"\($0)\"" } ?? "")/>
          <consumable><manufacturedProduct classCode="MANU">
            \(template("2.16.840.1.113883.10.20.22.4.23", r21Extension: "2014-06-09"))
            <manufacturedMaterial>\(product)</manufacturedMaterial>
            <manufacturerOrganization><name>Generic Pharma (synthetic)</name></manufacturerOrganization>
          </manufacturedProduct></consumable>
          <author><time value="\(low)"/><assignedAuthor><id root="2.16.840.1.113883.4.6" extension="9999999999"/>
            <assignedPerson><name><given>Robin</given><family>Example</family></name></assignedPerson></assignedAuthor></author>
          \(asNeeded ? "<precondition typeCode=\"PRCN\"><criterion><code code=\"ASSERTION\" codeSystem=\"2.16.840.1.113883.5.4\"/><value xsi:type=\"CD\" code=\"56018004\" codeSystem=\"\(Self.snomed)\" displayName=\"Wheezing\"/></criterion></precondition>" : "")
          <entryRelationship typeCode="SUBJ" inversionInd="true"><act classCode="ACT" moodCode="INT">
            \(template("2.16.840.1.113883.10.20.22.4.20", r21Extension: "2014-06-09"))
            <code code="422037009" codeSystem="\(Self.snomed)" displayName="Provider medication administration instructions"/>
            <text>Take with water</text><statusCode code="completed"/></act></entryRelationship>
        </substanceAdministration>
        """
    }

    private func medications(discharge: Bool) -> String {
        let statements = [
            medication("1", rxnorm: "314076", "Lisinopril 10 MG Oral Tablet", status: "active", low: "20240115", periodHours: 24, dose: "1"),
            medication("2", rxnorm: "861007", "Metformin hydrochloride 500 MG Oral Tablet", status: "active", low: "20200105",
                       periodHours: 12, dose: "500", unit: "mg"),
            medication("3", rxnorm: "308191", "Amoxicillin 500 MG Oral Capsule", status: "completed", low: "20250301", high: "20250310",
                       periodHours: 8, dose: "1"),
            medication("4", rxnorm: "745679", "200 ACTUAT Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler", status: "active",
                       low: "20220601", dose: "2", asNeeded: true),
            medication("5", rxnorm: "", "", status: "active", low: "20260301", dose: "1", nullProduct: true),
            medication("6", rxnorm: "197361", "Amlodipine 5 MG Oral Tablet", status: "completed", low: "20230101", dose: "1", negated: true),
        ]
        if discharge {
            let wrapped = statements.map { statement in
                """
                <entry><act classCode="ACT" moodCode="EVN">
                  \(template("2.16.840.1.113883.10.20.22.4.35", r21Extension: "2016-03-01"))
                  <code code="10183-2" codeSystem="\(Self.loinc)" displayName="Hospital discharge medication"/>
                  <statusCode code="active"/>
                  <entryRelationship typeCode="SUBJ">\(statement)</entryRelationship>
                </act></entry>
                """
            }
            return section("2.16.840.1.113883.10.20.22.2.11.1", "10183-2", "Hospital discharge medication", "Discharge Medications", wrapped)
        }
        return section("2.16.840.1.113883.10.20.22.2.1.1", "10160-0", "History of medication use", "Medications",
                       statements.map { "<entry typeCode=\"DRIV\">\($0)</entry>" })
    }

    private func allergy(_ id: String, type: (String, String), substance: (String, String, String)?, reaction: (String, String),
                         severity: (String, String), criticality: String?, concern: String, low: String, high: String? = nil,
                         negated: Bool = false) -> String {
        let severityObservation = """
        <observation classCode="OBS" moodCode="EVN">
          \(template("2.16.840.1.113883.10.20.22.4.8", r21Extension: "2014-06-09"))
          <code code="SEV" codeSystem="2.16.840.1.113883.5.4"/><statusCode code="completed"/>
          <value xsi:type="CD" code="\(severity.0)" codeSystem="\(Self.snomed)" displayName="\(severity.1)"/>
        </observation>
        """
        let reactionObservation = """
        <observation classCode="OBS" moodCode="EVN">
          \(template("2.16.840.1.113883.10.20.22.4.9", r21Extension: "2014-06-09"))
          <id root="2.16.840.1.113883.19.5.99999.5" extension="RX-\(id)"/>
          <code code="ASSERTION" codeSystem="2.16.840.1.113883.5.4"/><statusCode code="completed"/>
          <effectiveTime><low value="\(low)"/></effectiveTime>
          <value xsi:type="CD" code="\(reaction.0)" codeSystem="\(Self.snomed)" displayName="\(reaction.1)"/>
          \(release == .r11 ? "<entryRelationship typeCode=\"SUBJ\" inversionInd=\"true\">\(severityObservation)</entryRelationship>" : "")
        </observation>
        """
        let participant = substance.map { item -> String in
            let (code, system, name) = item
            return """
            <participant typeCode="CSM"><participantRole classCode="MANU"><playingEntity classCode="MMAT">
              <code code="\(code)" codeSystem="\(system)" displayName="\(name)"><originalText><reference value="#allergen-\(id)"/></originalText></code>
              <name>\(name)</name>
            </playingEntity></participantRole></participant>
            """
        } ?? "<participant typeCode=\"CSM\"><participantRole classCode=\"MANU\"><playingEntity classCode=\"MMAT\"><code nullFlavor=\"NA\"/></playingEntity></participantRole></participant>"
        let status = release == .r11 ? """
            <entryRelationship typeCode="SUBJ" inversionInd="true"><observation classCode="OBS" moodCode="EVN">
              <templateId root="2.16.840.1.113883.10.20.22.4.28"/><code code="33999-4" codeSystem="\(Self.loinc)" displayName="Status"/>
              <statusCode code="completed"/>
              <value xsi:type="CE" code="\(high == nil ? "55561003" : "413322009")" codeSystem="\(Self.snomed)" displayName="\(high == nil ? "Active" : "Resolved")"/>
            </observation></entryRelationship>
            """ : ""
        let criticalityObservation = criticality.flatMap { code -> String? in
            release == .r21 ? """
            <entryRelationship typeCode="SUBJ" inversionInd="true"><observation classCode="OBS" moodCode="EVN">
              <templateId root="2.16.840.1.113883.10.20.22.4.145"/><code code="82606-5" codeSystem="\(Self.loinc)" displayName="Criticality"/>
              <statusCode code="completed"/><value xsi:type="CD" code="\(code)" codeSystem="2.16.840.1.113883.5.1063"/>
            </observation></entryRelationship>
            """ : nil
        } ?? ""
        return """
        <entry typeCode="DRIV"><act classCode="ACT" moodCode="EVN">
          \(template("2.16.840.1.113883.10.20.22.4.30", r21Extension: "2015-08-01"))
          <id root="2.16.840.1.113883.19.5.99999.4" extension="ALG-CONCERN-\(id)"/>
          <code code="CONC" codeSystem="2.16.840.1.113883.5.6" displayName="Concern"/>
          <statusCode code="\(concern)"/>
          <effectiveTime><low value="\(low)"/>\(high.map { "<high value=\"\($0)\"/>" } ?? "")</effectiveTime>
          <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN"\(negated ? " negationInd=\"true\"" : "")>
            \(template("2.16.840.1.113883.10.20.22.4.7", r21Extension: "2014-06-09"))
            <id root="2.16.840.1.113883.19.5.99999.4" extension="ALG-\(id)"/>
            <code code="ASSERTION" codeSystem="2.16.840.1.113883.5.4"/>
            <statusCode code="completed"/>
            <effectiveTime><low value="\(low)"/>\(high.map { "<high value=\"\($0)\"/>" } ?? "")</effectiveTime>
            <value xsi:type="CD" code="\(type.0)" codeSystem="\(Self.snomed)" displayName="\(type.1)"/>
            \(participant)
            <entryRelationship typeCode="MFST" inversionInd="true">\(reactionObservation)</entryRelationship>
            \(release == .r21 ? "<entryRelationship typeCode=\"SUBJ\" inversionInd=\"true\">\(severityObservation)</entryRelationship>" : "")
            \(criticalityObservation)
            \(status)
          </observation></entryRelationship>
        </act></entry>
        """
    }

    private var allergies: String {
        section("2.16.840.1.113883.10.20.22.2.6.1", "48765-2", "Allergies and adverse reactions", "Allergies", [
            allergy("1", type: ("416098002", "Allergy to drug"), substance: ("7980", Self.rxNorm, "Penicillin G"),
                    reaction: ("247472004", "Hives"), severity: ("6736007", "Moderate"), criticality: "CRITH", concern: "active", low: "20050101"),
            allergy("2", type: ("414285001", "Allergy to food"), substance: ("QE1QX6B99R", "2.16.840.1.113883.4.9", "Peanut"),
                    reaction: ("39579001", "Anaphylaxis"), severity: ("24484000", "Severe"), criticality: "CRITH", concern: "active", low: "19800601"),
            allergy("3", type: ("59037007", "Intolerance to drug"), substance: ("2670", Self.rxNorm, "Codeine"),
                    reaction: ("422587007", "Nausea"), severity: ("255604002", "Mild"), criticality: "CRITL", concern: "completed",
                    low: "20100301", high: "20150301"),
            allergy("4", type: ("419199007", "Allergy to substance"), substance: nil, reaction: ("404684003", "Clinical finding"),
                    severity: ("255604002", "Mild"), criticality: nil, concern: "active", low: "20260301", negated: true),
        ])
    }

    /// A concern (or a discharge diagnosis act) holding one problem observation, or more: `also`
    /// lists further problems (code, name, ICD-10) the same concern holds, as HL7's own examples
    /// and real discharge summaries do.
    private func problem(_ id: String, _ code: String, _ name: String, icd: String?, concern: String, low: String, high: String? = nil,
                         nullValue: Bool = false, discharge: Bool, also: [(String, String, String)] = []) -> String {
        let observations = [problemObservation(id, code, name, icd: icd, low: low, high: high, nullValue: nullValue)]
            + also.enumerated().map { index, problem in
                problemObservation("\(id).\(index + 1)", problem.0, problem.1, icd: problem.2, low: low, high: high, nullValue: false)
            }
        let (actTemplate, actCode) = discharge ? ("2.16.840.1.113883.10.20.22.4.33", "<code code=\"11535-2\" codeSystem=\"\(Self.loinc)\" displayName=\"Hospital discharge diagnosis\"/>")
            : ("2.16.840.1.113883.10.20.22.4.3", "<code code=\"CONC\" codeSystem=\"2.16.840.1.113883.5.6\" displayName=\"Concern\"/>")
        return """
        <entry typeCode="DRIV"><act classCode="ACT" moodCode="EVN">
          \(template(actTemplate, r21Extension: "2015-08-01"))
          <id root="2.16.840.1.113883.19.5.99999.6" extension="CONCERN-\(id)"/>
          \(actCode)
          <statusCode code="\(concern)"/>
          <effectiveTime><low value="\(low)"/>\(high.map { "<high value=\"\($0)\"/>" } ?? "")</effectiveTime>
          \(observations.map { "<entryRelationship typeCode=\"SUBJ\">\($0)</entryRelationship>" }.joined(separator: "\n  "))
        </act></entry>
        """
    }

    private func problemObservation(_ id: String, _ code: String, _ name: String, icd: String?, low: String, high: String?, nullValue: Bool) -> String {
        let value = nullValue ? "<value xsi:type=\"CD\" nullFlavor=\"UNK\"/>"
            : "<value xsi:type=\"CD\" code=\"\(code)\" codeSystem=\"\(Self.snomed)\" displayName=\"\(name)\">"
            + (icd.map { "<translation code=\"\($0)\" codeSystem=\"\(Self.icd10)\" displayName=\"\(name)\"/>" } ?? "") + "</value>"
        let status = release == .r11 ? """
            <entryRelationship typeCode="REFR"><observation classCode="OBS" moodCode="EVN">
              <templateId root="2.16.840.1.113883.10.20.22.4.6"/><code code="33999-4" codeSystem="\(Self.loinc)" displayName="Status"/>
              <statusCode code="completed"/>
              <value xsi:type="CD" code="\(high == nil ? "55561003" : "413322009")" codeSystem="\(Self.snomed)" displayName="\(high == nil ? "Active" : "Resolved")"/>
            </observation></entryRelationship>
            """ : ""
        return """
        <observation classCode="OBS" moodCode="EVN">
          \(template("2.16.840.1.113883.10.20.22.4.4", r21Extension: "2015-08-01"))
          <id root="2.16.840.1.113883.19.5.99999.6" extension="PROB-\(id)"/>
          <code code="55607006" codeSystem="\(Self.snomed)" displayName="Problem"><translation code="75326-9" codeSystem="\(Self.loinc)" displayName="Problem"/></code>
          <statusCode code="completed"/>
          <effectiveTime><low value="\(low)"/>\(high.map { "<high value=\"\($0)\"/>" } ?? "")</effectiveTime>
          \(value)
          \(status)
        </observation>
        """
    }

    private func problems(discharge: Bool) -> String {
        let entries = [
            problem("1", "59621000", "Essential hypertension", icd: "I10", concern: "active", low: "20180310", discharge: discharge),
            problem("2", "44054006", "Diabetes mellitus type 2", icd: "E11.9", concern: "active", low: "20200105", discharge: discharge,
                    also: [("195967001", "Asthma", "J45.909")]),
            problem("3", "10509002", "Acute bronchitis", icd: "J20.9", concern: "completed", low: "20240110", high: "20240125", discharge: discharge),
            problem("4", "", "", icd: nil, concern: "active", low: "20260301", nullValue: true, discharge: discharge),
        ]
        if discharge {
            return section("2.16.840.1.113883.10.20.22.2.24", "11535-2", "Hospital discharge diagnosis", "Discharge Diagnosis", entries)
        }
        return section("2.16.840.1.113883.10.20.22.2.5.1", "11450-4", "Problem list", "Problems", entries)
    }

    private func immunization(_ id: String, cvx: String, _ name: String, date: String, lot: String?, negated: Bool = false) -> String {
        """
        <entry typeCode="DRIV"><substanceAdministration classCode="SBADM" moodCode="EVN" negationInd="\(negated)">
          \(template("2.16.840.1.113883.10.20.22.4.52", r21Extension: "2015-08-01"))
          <id root="2.16.840.1.113883.19.5.99999.7" extension="IMM-\(id)"/>
          <statusCode code="completed"/>
          <effectiveTime value="\(date)"/>
          <routeCode code="C28161" codeSystem="2.16.840.1.113883.3.26.1.1" displayName="Intramuscular injection"/>
          <doseQuantity value="0.5" unit="mL"/>
          <consumable><manufacturedProduct classCode="MANU">
            \(template("2.16.840.1.113883.10.20.22.4.54", r21Extension: "2014-06-09"))
            <manufacturedMaterial>
              <code code="\(cvx)" codeSystem="\(Self.cvx)" codeSystemName="CVX" displayName="\(name)"><originalText><reference value="#imm-\(id)"/></originalText></code>
              \(lot.map { "<lotNumberText>\($0)</lotNumberText>" } ?? "")
            </manufacturedMaterial>
          </manufacturedProduct></consumable>
          \(negated ? "<entryRelationship typeCode=\"RSON\"><observation classCode=\"OBS\" moodCode=\"EVN\"><templateId root=\"2.16.840.1.113883.10.20.22.4.53\"/><code code=\"PATOBJ\" codeSystem=\"2.16.840.1.113883.5.8\" displayName=\"Patient objection\"/><statusCode code=\"completed\"/></observation></entryRelationship>" : "")
        </substanceAdministration></entry>
        """
    }

    private var immunizations: String {
        section("2.16.840.1.113883.10.20.22.2.2.1", "11369-6", "History of immunizations", "Immunizations", [
            immunization("1", cvx: "141", "Influenza, seasonal, injectable", date: "20251015", lot: "FLU-SAMPLE-25"),
            immunization("2", cvx: "115", "Tdap", date: "20230612", lot: "TDAP-SAMPLE-23"),
            immunization("3", cvx: "208", "SARS-COV-2 (COVID-19) vaccine, mRNA", date: "20240920", lot: nil),
            immunization("4", cvx: "33", "Pneumococcal polysaccharide PPV23", date: "20250101", lot: nil, negated: true),
        ])
    }

    private func resultObservation(_ id: String, _ loinc: String, _ name: String, value: String, interpretation: String?,
                                   range: String?, time: String, template: String = "2.16.840.1.113883.10.20.22.4.2") -> String {
        """
        <component><observation classCode="OBS" moodCode="EVN">
          \(self.template(template, r21Extension: "2015-08-01"))
          <id root="2.16.840.1.113883.19.5.99999.8" extension="OBS-\(id)"/>
          \(Self.code(loinc, Self.loinc, name))
          <statusCode code="completed"/>
          <effectiveTime value="\(time)"/>
          \(value)
          \(interpretation.map { "<interpretationCode code=\"\($0)\" codeSystem=\"2.16.840.1.113883.5.83\"/>" } ?? "")
          \(range.map { "<referenceRange><observationRange>\($0)</observationRange></referenceRange>" } ?? "")
        </observation></component>
        """
    }

    private static func quantity(_ value: String, _ unit: String) -> String { "<value xsi:type=\"PQ\" value=\"\(value)\" unit=\"\(unit)\"/>" }

    private static func range(_ low: String, _ high: String, _ unit: String) -> String {
        "<value xsi:type=\"IVL_PQ\"><low value=\"\(low)\" unit=\"\(unit)\"/><high value=\"\(high)\" unit=\"\(unit)\"/></value>"
    }

    private func organizer(_ id: String, _ loinc: String, _ name: String, time: String, _ components: [String],
                           template: String = "2.16.840.1.113883.10.20.22.4.1", classCode: String = "BATTERY") -> String {
        """
        <entry typeCode="DRIV"><organizer classCode="\(classCode)" moodCode="EVN">
          \(self.template(template, r21Extension: "2015-08-01"))
          <id root="2.16.840.1.113883.19.5.99999.9" extension="ORG-\(id)"/>
          \(Self.code(loinc, Self.loinc, name))
          <statusCode code="completed"/>
          <effectiveTime><low value="\(time)"/><high value="\(time)"/></effectiveTime>
          \(components.joined(separator: "\n"))
        </organizer></entry>
        """
    }

    private func bloodCount(_ id: String, time: String, hemoglobin: String) -> String {
        organizer("CBC-\(id)", "58410-2", "CBC panel - Blood by Automated count", time: time, [
            resultObservation("HGB-\(id)", "718-7", "Hemoglobin [Mass/volume] in Blood", value: Self.quantity(hemoglobin, "g/dL"),
                              interpretation: "N", range: Self.range("12.0", "16.0", "g/dL"), time: time),
            resultObservation("WBC-\(id)", "6690-2", "Leukocytes [#/volume] in Blood by Automated count", value: Self.quantity("11.8", "10*3/uL"),
                              interpretation: "H", range: Self.range("4.5", "11.0", "10*3/uL"), time: time),
            resultObservation("PLT-\(id)", "777-3", "Platelets [#/volume] in Blood by Automated count", value: Self.quantity("250", "10*3/uL"),
                              interpretation: "N", range: Self.range("150", "400", "10*3/uL"), time: time),
            resultObservation("GLU-\(id)", "2345-7", "Glucose [Mass/volume] in Serum or Plasma", value: Self.quantity("142", "mg/dL"),
                              interpretation: "H", range: "<text>70-99 mg/dL fasting</text>", time: time),
            resultObservation("K-\(id)", "2823-3", "Potassium [Moles/volume] in Serum or Plasma", value: Self.quantity("4.1", "mmol/L"),
                              interpretation: "N", range: Self.range("3.5", "5.1", "mmol/L"), time: time),
            resultObservation("A1C-\(id)", "4548-4", "Hemoglobin A1c/Hemoglobin.total in Blood", value: Self.quantity("7.1", "%"),
                              interpretation: "H", range: nil, time: time),
        ])
    }

    private var results: String {
        var entries = [
            bloodCount("0", time: "20260215083000-0500", hemoglobin: "13.2"),
            organizer("SER", "5221-7", "HIV 1 Ab [Presence] in Serum", time: "20260215083000-0500", [
                resultObservation("HIV", "5221-7", "HIV 1 Ab [Presence] in Serum",
                                  value: "<value xsi:type=\"CD\" code=\"260385009\" codeSystem=\"\(Self.snomed)\" displayName=\"Negative\"/>",
                                  interpretation: "N", range: nil, time: "20260215083000-0500"),
                resultObservation("NOTE", "48767-8", "Annotation comment", value: "<value xsi:type=\"ST\">Specimen slightly hemolyzed</value>",
                                  interpretation: nil, range: nil, time: "20260215083000-0500"),
                resultObservation("MISSING", "2093-3", "Cholesterol [Mass/volume] in Serum or Plasma",
                                  value: "<value xsi:type=\"PQ\" nullFlavor=\"NI\"/>", interpretation: nil, range: nil, time: "20260215083000-0500"),
            ]),
        ]
        var day = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: 2016, month: 1, day: 1).date!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd"
        // C-CDA shows every entry in the section's narrative too: one table row per result.
        var rows: [String] = []
        for index in 0..<extraPanels {
            let hemoglobin = String(format: "%.1f", 12.0 + Double(index % 30) / 10)
            let date = formatter.string(from: day)
            entries.append(bloodCount("X\(index)", time: date + "0800-0500", hemoglobin: hemoglobin))
            for (test, value, range) in [("Hemoglobin", "\(hemoglobin) g/dL", "12.0-16.0 g/dL"), ("Leukocytes", "11.8 10*3/uL (H)", "4.5-11.0 10*3/uL"),
                                         ("Platelets", "250 10*3/uL", "150-400 10*3/uL"), ("Glucose", "142 mg/dL (H)", "70-99 mg/dL fasting"),
                                         ("Potassium", "4.1 mmol/L", "3.5-5.1 mmol/L"), ("Hemoglobin A1c", "7.1 % (H)", "")] {
                rows.append("<tr ID=\"res-X\(index)-\(test.prefix(3))\"><td>\(test)</td><td>\(value)</td><td>\(range)</td><td>\(date)</td><td>Final</td></tr>")
            }
            day = day.addingTimeInterval(-86_400)
        }
        var results = section("2.16.840.1.113883.10.20.22.2.3.1", "30954-2", "Relevant diagnostic tests/laboratory data", "Results", entries)
        if !rows.isEmpty, let end = results.range(of: "</tbody></table></text>") {
            results.insert(contentsOf: rows.joined(separator: "\n"), at: end.lowerBound)
        }
        return results
    }

    private var vitalSigns: String {
        let time = "20260301093000-0500"
        func vital(_ id: String, _ loinc: String, _ name: String, _ value: String, _ unit: String) -> String {
            resultObservation("VS-\(id)", loinc, name, value: Self.quantity(value, unit), interpretation: nil, range: nil, time: time,
                              template: "2.16.840.1.113883.10.20.22.4.27")
        }
        return section("2.16.840.1.113883.10.20.22.2.4.1", "8716-3", "Vital signs", "Vital Signs", [
            organizer("VS", "46680005", "Vital signs", time: time, [
                vital("HT", "8302-2", "Body height", "170", "cm"),
                vital("WT", "29463-7", "Body weight", "68.5", "kg"),
                vital("SYS", "8480-6", "Systolic blood pressure", "128", "mm[Hg]"),
                vital("DIA", "8462-4", "Diastolic blood pressure", "82", "mm[Hg]"),
                vital("HR", "8867-4", "Heart rate", "72", "/min"),
                vital("BMI", "39156-5", "Body mass index (BMI) [Ratio]", "23.7", "kg/m2"),
            ], template: "2.16.840.1.113883.10.20.22.4.26", classCode: "CLUSTER"),
        ])
    }

    private func encounter(_ id: String, code: String?, _ name: String, low: String, high: String?, performer: Bool, place: Bool,
                           diagnosis: Bool) -> String {
        let codeElement = code.map {
            "<code code=\"\($0)\" codeSystem=\"2.16.840.1.113883.6.12\" codeSystemName=\"CPT-4\" displayName=\"\(name)\"><originalText><reference value=\"#enc-\(id)\"/></originalText></code>"
        } ?? "<code nullFlavor=\"UNK\"/>"
        let time = high.map { "<effectiveTime><low value=\"\(low)\"/><high value=\"\($0)\"/></effectiveTime>" } ?? "<effectiveTime value=\"\(low)\"/>"
        return """
        <entry typeCode="DRIV"><encounter classCode="ENC" moodCode="EVN">
          \(template("2.16.840.1.113883.10.20.22.4.49", r21Extension: "2015-08-01"))
          <id root="2.16.840.1.113883.19.5.99999.10" extension="ENC-\(id)"/>
          \(codeElement)
          \(time)
          \(performer ? "<performer><assignedEntity><id root=\"2.16.840.1.113883.4.6\" extension=\"9999999999\"/><assignedPerson><name><prefix>Dr.</prefix><given>Robin</given><family>Example</family></name></assignedPerson></assignedEntity></performer>" : "")
          \(place ? "<participant typeCode=\"LOC\"><participantRole classCode=\"SDLOC\"><templateId root=\"2.16.840.1.113883.10.20.22.4.32\"/><code code=\"1160-1\" codeSystem=\"2.16.840.1.113883.6.259\" displayName=\"Urgent Care Center\"/><playingEntity classCode=\"PLC\"><name>Sampletown Community Clinic</name></playingEntity></participantRole></participant>" : "")
          \(diagnosis ? "<entryRelationship typeCode=\"REFR\"><act classCode=\"ACT\" moodCode=\"EVN\">\(template("2.16.840.1.113883.10.20.22.4.80", r21Extension: "2015-08-01"))<code code=\"29308-4\" codeSystem=\"\(Self.loinc)\" displayName=\"Diagnosis\"/><entryRelationship typeCode=\"SUBJ\"><observation classCode=\"OBS\" moodCode=\"EVN\"><templateId root=\"2.16.840.1.113883.10.20.22.4.4\"/><code code=\"282291009\" codeSystem=\"\(Self.snomed)\"/><statusCode code=\"completed\"/><value xsi:type=\"CD\" code=\"59621000\" codeSystem=\"\(Self.snomed)\" displayName=\"Essential hypertension\"/></observation></entryRelationship></act></entryRelationship>" : "")
        </encounter></entry>
        """
    }

    private var encounters: String {
        section("2.16.840.1.113883.10.20.22.2.22.1", "46240-8", "Encounters", "Encounters", [
            encounter("1", code: "99213", "Office outpatient visit 15 minutes", low: "20260301100000-0500", high: "20260301103000-0500",
                      performer: true, place: true, diagnosis: true),
            encounter("2", code: "99204", "Office outpatient new 45 minutes", low: "20250310", high: nil, performer: false, place: true,
                      diagnosis: false),
            encounter("3", code: nil, "", low: "202411051400-0500", high: nil, performer: true, place: false, diagnosis: false),
        ])
    }

    private var socialHistory: String {
        section("2.16.840.1.113883.10.20.22.2.17", "29762-2", "Social history", "Social History", [
            """
            <entry typeCode="DRIV"><observation classCode="OBS" moodCode="EVN">
              \(template("2.16.840.1.113883.10.20.22.4.78", r21Extension: "2014-06-09"))
              <id root="2.16.840.1.113883.19.5.99999.11" extension="SOC-1"/>
              <code code="72166-2" codeSystem="\(Self.loinc)" displayName="Tobacco smoking status"/>
              <statusCode code="completed"/><effectiveTime value="20260301"/>
              <value xsi:type="CD" code="8517006" codeSystem="\(Self.snomed)" displayName="Ex-smoker"/>
            </observation></entry>
            """,
            """
            <entry typeCode="DRIV"><observation classCode="OBS" moodCode="EVN">
              \(template("2.16.840.1.113883.10.20.22.4.38", r21Extension: "2015-08-01"))
              <id root="2.16.840.1.113883.19.5.99999.11" extension="SOC-2"/>
              <code code="74013-4" codeSystem="\(Self.loinc)" displayName="Alcoholic drinks per day"/>
              <statusCode code="completed"/><effectiveTime value="20260301"/>
              <value xsi:type="PQ" value="1" unit="{drinks}/d"/>
            </observation></entry>
            """,
        ])
    }

    /// Procedure Activity Procedure (4.14) and Observation (4.13): done ones with a date, a
    /// body site and who did it; a planned one (moodCode INT) and one whose code is unknown.
    private var procedures: String {
        func procedure(_ id: String, element: String = "procedure", mood: String = "EVN", code: String?, _ name: String, time: String?,
                       site: (String, String)?, performer: Bool) -> String {
            let codeElement = code.map { Self.code($0, Self.snomed, name) } ?? "<code nullFlavor=\"UNK\"/>"
            return """
            <entry typeCode="DRIV"><\(element) classCode="\(element == "procedure" ? "PROC" : "OBS")" moodCode="\(mood)">
              \(template(element == "procedure" ? "2.16.840.1.113883.10.20.22.4.14" : "2.16.840.1.113883.10.20.22.4.13", r21Extension: "2014-06-09"))
              <id root="2.16.840.1.113883.19.5.99999.12" extension="PROC-\(id)"/>
              \(codeElement)
              <statusCode code="\(mood == "EVN" ? "completed" : "active")"/>
              \(time.map { "<effectiveTime value=\"\($0)\"/>" } ?? "")
              \(element == "observation" ? "<value xsi:type=\"CD\"/>" : "")
              \(site.map { "<targetSiteCode code=\"\($0.0)\" codeSystem=\"\(Self.snomed)\" displayName=\"\($0.1)\"/>" } ?? "")
              \(performer ? "<performer><assignedEntity><id root=\"2.16.840.1.113883.4.6\" extension=\"8888888888\"/><assignedPerson><name><given>Jordan</given><family>Surgeon</family></name></assignedPerson><representedOrganization><name>Sampletown General Hospital</name></representedOrganization></assignedEntity></performer>" : "")
            </\(element)></entry>
            """
        }
        return section("2.16.840.1.113883.10.20.22.2.7.1", "47519-4", "History of Procedures", "Procedures", [
            procedure("1", code: "80146002", "Appendectomy", time: "2009", site: ("66754008", "Appendix structure"), performer: true),
            procedure("2", element: "observation", code: "73761001", "Colonoscopy", time: "20240302", site: ("71854001", "Colon structure"),
                      performer: false),
            procedure("3", mood: "INT", code: "609588000", "Total knee replacement", time: "20270115", site: nil, performer: false),
            procedure("4", code: nil, "", time: "20150601", site: nil, performer: false),
        ])
    }

    /// Family History Organizers (4.45): the mother with two conditions (one with the Age
    /// Observation), the father with one he died of, and a relative not named.
    private var familyHistory: String {
        func organizer(_ id: String, relation: String?, _ relationName: String, _ observations: [String]) -> String {
            let code = relation.map { "<code code=\"\($0)\" codeSystem=\"2.16.840.1.113883.5.111\" displayName=\"\(relationName)\"/>" }
                ?? "<code nullFlavor=\"UNK\"/>"
            return """
            <entry typeCode="DRIV"><organizer classCode="CLUSTER" moodCode="EVN">
              \(template("2.16.840.1.113883.10.20.22.4.45", r21Extension: "2015-08-01"))
              <id root="2.16.840.1.113883.19.5.99999.13" extension="FAM-\(id)"/>
              <statusCode code="completed"/>
              <subject><relatedSubject classCode="PRS">\(code)</relatedSubject></subject>
              \(observations.joined(separator: "\n"))
            </organizer></entry>
            """
        }
        func observation(_ id: String, _ snomedCode: String, _ name: String, age: Int?, died: Bool) -> String {
            """
            <component><observation classCode="OBS" moodCode="EVN">
              \(template("2.16.840.1.113883.10.20.22.4.46", r21Extension: "2015-08-01"))
              <id root="2.16.840.1.113883.19.5.99999.14" extension="FAMOBS-\(id)"/>
              <code code="64572001" codeSystem="\(Self.snomed)" displayName="Disease"/>
              <statusCode code="completed"/>
              <value xsi:type="CD" code="\(snomedCode)" codeSystem="\(Self.snomed)" displayName="\(name)"/>
              \(age.map { "<entryRelationship typeCode=\"SUBJ\" inversionInd=\"true\"><observation classCode=\"OBS\" moodCode=\"EVN\"><templateId root=\"2.16.840.1.113883.10.20.22.4.31\"/><code code=\"445518008\" codeSystem=\"\(Self.snomed)\" displayName=\"Age At Onset\"/><statusCode code=\"completed\"/><value xsi:type=\"PQ\" value=\"\($0)\" unit=\"a\"/></observation></entryRelationship>" } ?? "")
              \(died ? "<entryRelationship typeCode=\"CAUS\"><observation classCode=\"OBS\" moodCode=\"EVN\"><templateId root=\"2.16.840.1.113883.10.20.22.4.47\"/><code code=\"ASSERTION\" codeSystem=\"2.16.840.1.113883.5.4\"/><statusCode code=\"completed\"/><value xsi:type=\"CD\" code=\"419099009\" codeSystem=\"\(Self.snomed)\" displayName=\"Dead\"/></observation></entryRelationship>" : "")
            </observation></component>
            """
        }
        return section("2.16.840.1.113883.10.20.22.2.15", "10157-6", "History of family member diseases", "Family History", [
            organizer("1", relation: "MTH", "Mother", [observation("1", "254837009", "Malignant neoplasm of breast", age: 52, died: false),
                                                      observation("2", "38341003", "Hypertensive disorder", age: nil, died: false)]),
            organizer("2", relation: "FTH", "Father", [observation("3", "22298006", "Myocardial infarction", age: 61, died: true)]),
            organizer("3", relation: nil, "", [observation("4", "44054006", "Diabetes mellitus type 2", age: nil, died: false)]),
        ], r21Extension: nil)
    }

    /// A Non-Medicinal Supply Activity (4.50) naming an implanted pacemaker, and one whose
    /// device is not named (skipped).
    private var medicalEquipment: String {
        func supply(_ id: String, device: String) -> String {
            """
            <entry typeCode="DRIV"><supply classCode="SPLY" moodCode="EVN">
              \(template("2.16.840.1.113883.10.20.22.4.50", r21Extension: "2014-06-09"))
              <id root="2.16.840.1.113883.19.5.99999.15" extension="DEV-\(id)"/>
              <statusCode code="completed"/><effectiveTime xsi:type="IVL_TS"><low value="20190502"/></effectiveTime>
              <participant typeCode="PRD"><participantRole classCode="MANU">
                <templateId root="2.16.840.1.113883.10.20.22.4.37"/>
                <playingDevice>\(device)</playingDevice>
              </participantRole></participant>
            </supply></entry>
            """
        }
        return section("2.16.840.1.113883.10.20.22.2.23", "46264-8", "History of medical device use", "Medical Equipment", [
            supply("1", device: "<code code=\"14106009\" codeSystem=\"\(Self.snomed)\" displayName=\"Cardiac pacemaker\"/>"),
            supply("2", device: "<code nullFlavor=\"UNK\"/>"),
        ], r21Extension: "2014-06-09")
    }

    /// An Advance Directive Observation (4.48): not for resuscitation.
    private var advanceDirectives: String {
        section("2.16.840.1.113883.10.20.22.2.21.1", "42348-3", "Advance directives", "Advance Directives", [
            """
            <entry typeCode="DRIV"><observation classCode="OBS" moodCode="EVN">
              \(template("2.16.840.1.113883.10.20.22.4.48", r21Extension: "2015-08-01"))
              <id root="2.16.840.1.113883.19.5.99999.16" extension="AD-1"/>
              <code code="304251008" codeSystem="\(Self.snomed)" displayName="Resuscitation status"/>
              <statusCode code="completed"/>
              <effectiveTime><low value="20240110"/><high nullFlavor="NA"/></effectiveTime>
              <value xsi:type="CD" code="304253006" codeSystem="\(Self.snomed)" displayName="Not for resuscitation"/>
            </observation></entry>
            """,
        ])
    }

    private var planOfTreatment: String {
        section("2.16.840.1.113883.10.20.22.2.10", "18776-5", "Plan of care note", "Plan of Treatment", [])
    }

    private var hospitalCourse: String {
        section("1.3.6.1.4.1.19376.1.5.3.1.3.5", "8648-8", "Hospital course", "Hospital Course", [], r21Extension: nil)
    }

    private var reasonForReferral: String {
        section("1.3.6.1.4.1.19376.1.5.3.1.3.1", "42349-1", "Reason for referral", "Reason for Referral", [], r21Extension: "2014-06-09")
    }
}
