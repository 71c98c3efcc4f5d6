import CCDASamples
import Foundation
import PHRCore

/// Issue 16's import budgets, as a user runs them (a whole release `phr import` process into a
/// fresh vault): a 4 MB FHIR R4 bundle (near 1 s and 50 MB, as before C-CDA) and a 5 MB C-CDA
/// document (under 2 s, peak resident set under 100 MB). Memory is VmHWM polled from /proc
/// (RSSMonitor), for phr and for the largest child (phr-render's C-CDA reader).
///
/// Both files are synthetic and the same on every run: the FHIR bundle is a Patient and
/// observations, medications and conditions written here; the C-CDA document is the project's
/// sample CCD (Tools/CCDASamples) grown with result panels to 5 MB.
enum ImportBenchmark {
    static let passphrase = "benchmark passphrase"
    static let runs = 3

    static func run() throws {
        let phr = try BenchProcess.phrExecutable()
        let directory = try Benchmark.scratchDirectory("import")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fhir = "\(directory)/bundle.json"
        try fhirBundle(bytes: 4 << 20).write(to: URL(fileURLWithPath: fhir))
        let ccda = "\(directory)/ccd.xml"
        try CCDASampleDocument.large(bytes: 5 << 20).write(toFile: ccda, atomically: true, encoding: .utf8)

        Benchmark.row("", ["size", "median", "phr peak", "reader peak", "budget"])
        for (label, path, budget) in [("FHIR R4 bundle", fhir, "~1 s, ~50 MB"), ("C-CDA R2.1 CCD", ccda, "2 s, 100 MB")] {
            var times: [Double] = []
            var peaks: [RSSMonitor.Peaks] = []
            var added = 0
            for run in 0..<runs {
                let (seconds, memory, records) = try timedImport(phr: phr, vault: "\(directory)/vault-\(label.prefix(4))-\(run)", file: path)
                times.append(seconds)
                peaks.append(memory)
                added = records
            }
            let size = Double(FileSystem.fileSize(path) ?? 0) / 1e6
            let median = times.sorted()[times.count / 2]
            let main = peaks.map(\.main).max() ?? 0
            let child = peaks.map(\.largestChild).max() ?? 0
            Benchmark.row("\(label) (\(added) records)", [String(format: "%.1f MB", size), String(format: "%.2f s", median),
                                                         String(format: "%.0f MB", main), child > 0 ? String(format: "%.0f MB", child) : "—", budget])
        }
    }

    /// One `phr import` into a new vault: seconds, peaks, records added.
    static func timedImport(phr: String, vault: String, file: String) throws -> (Double, RSSMonitor.Peaks, Int) {
        _ = try Vault.create(at: VaultLocation(path: vault), passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                             parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
        var environment = ProcessInfo.processInfo.environment
        environment["PHR_PASSPHRASE"] = passphrase
        let output = vault + ".json"
        let errors = vault + ".stderr"
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try BenchProcess.spawn([phr, "import", "--vault", vault, "--json", file], environment: environment,
                                         stdout: .file(output), stderr: .file(errors))
        let monitor = RSSMonitor(pid: pid)
        let (status, _) = BenchProcess.wait(pid)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let memory = monitor.stop()
        guard status == 0 else {
            let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw BenchmarkError.failed("phr import exited \(status): \(message.suffix(2000))")
        }
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        let added = (report?["added"] as? [String: Int])?.values.reduce(0, +) ?? 0
        return (seconds, memory, added)
    }

    /// A FHIR R4 collection bundle of at least `bytes`: a Patient, then laboratory observations
    /// with a medication statement and a condition every fiftieth entry.
    static func fhirBundle(bytes: Int) throws -> Data {
        var entries: [[String: Any]] = [[
            "fullUrl": "urn:uuid:00000000-0000-4000-8000-000000000000",
            "resource": ["resourceType": "Patient", "id": "p", "name": [["family": "Sample", "given": ["Alex"]]], "gender": "female",
                         "birthDate": "1975-05-01"],
        ]]
        var size = 0
        var index = 0
        let tests = [("718-7", "Hemoglobin [Mass/volume] in Blood", "g/dL"), ("2345-7", "Glucose [Mass/volume] in Serum or Plasma", "mg/dL"),
                     ("2823-3", "Potassium [Moles/volume] in Serum or Plasma", "mmol/L"), ("6690-2", "Leukocytes [#/volume] in Blood", "10*3/uL")]
        while size < bytes {
            index += 1
            let day = String(format: "20%02d-%02d-%02d", 10 + index / 3000 % 15, 1 + index / 28 % 12, 1 + index % 28)
            let resource: [String: Any]
            if index % 50 == 0 {
                resource = ["resourceType": "MedicationStatement", "id": "m\(index)", "status": "active", "subject": ["reference": "Patient/p"],
                            "medicationCodeableConcept": ["coding": [["system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "\(300000 + index)",
                                                                      "display": "Drug \(index) 10 MG Oral Tablet"]]],
                            "effectivePeriod": ["start": day]]
            } else if index % 50 == 25 {
                resource = ["resourceType": "Condition", "id": "c\(index)", "subject": ["reference": "Patient/p"],
                            "clinicalStatus": ["coding": [["system": "http://terminology.hl7.org/CodeSystem/condition-clinical", "code": "active"]]],
                            "code": ["coding": [["system": "http://snomed.info/sct", "code": "\(100000 + index)", "display": "Condition \(index)"]]],
                            "onsetDateTime": day]
            } else {
                let (code, name, unit) = tests[index % tests.count]
                resource = ["resourceType": "Observation", "id": "o\(index)", "status": "final", "subject": ["reference": "Patient/p"],
                            "category": [["coding": [["system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "laboratory"]]]],
                            "code": ["coding": [["system": "http://loinc.org", "code": code, "display": name]]],
                            "effectiveDateTime": "\(day)T08:30:00-05:00",
                            "valueQuantity": ["value": Double(index % 200) / 10 + 1, "unit": unit, "system": "http://unitsofmeasure.org", "code": unit]]
            }
            let entry: [String: Any] = ["fullUrl": "urn:uuid:00000000-0000-4000-8000-\(String(format: "%012d", index))", "resource": resource]
            size += try JSONSerialization.data(withJSONObject: entry).count + 1
            entries.append(entry)
        }
        return try JSONSerialization.data(withJSONObject: ["resourceType": "Bundle", "type": "collection", "entry": entries], options: [.sortedKeys])
    }
}
