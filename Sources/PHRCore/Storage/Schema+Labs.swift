import GRDB

extension Schema {
    /// Migration "v3-lab-results" (Schema.migrations): lab results are observations with the
    /// facts a lab report gives beside the value. Every column is optional, so FHIR-imported
    /// observations from before stay as they were; those imported from FHIR are marked so.
    /// `lab_document_id` is not a foreign key: a result a person accepted outlives the document
    /// it was read from (`phr doc rm`), and keeps saying where it came from.
    static let labResultsSQL = """
        ALTER TABLE observation ADD COLUMN lab_analyte TEXT;
        ALTER TABLE observation ADD COLUMN lab_unit_ucum TEXT;
        ALTER TABLE observation ADD COLUMN lab_range_low REAL;
        ALTER TABLE observation ADD COLUMN lab_range_high REAL;
        ALTER TABLE observation ADD COLUMN lab_range_text TEXT;
        ALTER TABLE observation ADD COLUMN lab_flag TEXT CHECK (lab_flag IS NULL OR lab_flag IN ('H', 'L', 'HH', 'LL', 'A', 'N'));
        ALTER TABLE observation ADD COLUMN lab_panel TEXT;
        ALTER TABLE observation ADD COLUMN lab_origin TEXT CHECK (lab_origin IS NULL OR lab_origin IN ('typed', 'document', 'fhir'));
        ALTER TABLE observation ADD COLUMN lab_document_id TEXT;
        ALTER TABLE observation ADD COLUMN lab_page INTEGER CHECK (lab_page IS NULL OR lab_page >= 1);
        ALTER TABLE observation ADD COLUMN lab_confidence REAL CHECK (lab_confidence IS NULL OR lab_confidence BETWEEN 0 AND 1);
        ALTER TABLE observation ADD COLUMN lab_reviewed INTEGER CHECK (lab_reviewed IS NULL OR lab_reviewed IN (0, 1));
        UPDATE observation SET lab_origin = 'fhir', lab_reviewed = 0 WHERE source_key LIKE 'fhir:%';
        CREATE INDEX observation_lab_analyte ON observation (profile_id, lab_analyte, effective);
        """
}
