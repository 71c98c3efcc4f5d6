import PHRTypesetting

/// One synthetic document: its file name, PDF metadata, page template and content.
///
/// `compose` must draw the same thing every time it is called: the renderer calls it twice,
/// once to count pages and once to write the file.
protocol SampleDocument: Sendable {
    /// The file name under the output directory, e.g. "prescription-amoxicillin.pdf".
    var fileName: String { get }
    var metadata: PDFMetadata { get }
    var template: PageTemplate { get }
    func compose(in flow: DocumentFlow)
}

/// Every sample, in the order they are written and listed in Samples/README.md.
let allSampleDocuments: [any SampleDocument] = [
    PrescriptionDocument(),
    InsuranceCardDocument(),
    LabReportDocument(),
    DischargeSummaryDocument(),
    VaccinationRecordDocument(),
    ReferralLetterGreekDocument(),
    ImagingReportDocument(),
    LabReportUSPanelDocument(),
    LabReportEuropeanDocument(),
    LabReportTwoColumnDocument(),
    LabReportMultiPageDocument(),
]
