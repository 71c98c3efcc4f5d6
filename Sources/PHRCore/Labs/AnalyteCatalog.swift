import Foundation

/// One analyte phr knows: its LOINC codes (a set of codes may mean one analyte: mass and molar
/// forms, calculated and direct), the names labs print for it in English and a few other
/// languages, its panel, and its conventional (US) and SI units with the conversion between them.
public struct Analyte: Sendable {
    public enum Specimen: String, Sendable { case blood, urine }

    /// A stable key: "ferritin", "hemoglobin", "neutrophils-abs".
    public let key: String
    public let name: String
    /// The first is the code phr writes; all of them are read as this analyte.
    public let loinc: [String]
    public let panel: String
    public let specimen: Specimen
    /// UCUM; conventional (US) first, then SI when it differs.
    public let conventionalUnit: String?
    public let siUnit: String?
    public let synonyms: [String]
    let conversions: [UnitConversion]

    /// The unit to show in the user's unit system (`phr log settings --units`).
    public func preferredUnit(_ units: HealthSettings.Units) -> String? {
        units == .us ? conventionalUnit ?? siUnit : siUnit ?? conventionalUnit
    }
}

/// The curated table of common analytes (CBC, metabolic panel, lipids, thyroid, HbA1c, iron
/// studies, vitamins, kidney and liver function, coagulation, urinalysis basics). Names map to
/// an analyte through `lookup`; unknown names stay as the lab wrote them.
public enum AnalyteCatalog {
    public static let entries: [Analyte] = blood + urine

    private static func a(_ key: String, _ name: String, _ loinc: [String], _ panel: String, _ units: (String?, String?),
                          _ synonyms: [String], specimen: Analyte.Specimen = .blood, _ conversions: [UnitConversion] = []) -> Analyte {
        Analyte(key: key, name: name, loinc: loinc, panel: panel, specimen: specimen, conventionalUnit: units.0, siUnit: units.1,
                synonyms: synonyms, conversions: conversions)
    }

    private static func molar(_ conventional: String, _ si: String, _ factor: Double) -> [UnitConversion] {
        [UnitConversion(conventional, si, factor: factor)]
    }

    static let cbc = "Complete blood count"
    static let chemistry = "Metabolic panel"
    static let lipids = "Lipid panel"
    static let thyroid = "Thyroid"
    static let diabetes = "Diabetes"
    static let iron = "Iron studies"
    static let vitamins = "Vitamins"
    static let kidney = "Kidney function"
    static let liver = "Liver function"
    static let coagulation = "Coagulation"
    static let inflammation = "Inflammation"
    static let cardiac = "Cardiac"
    static let hormones = "Hormones"
    static let pancreas = "Pancreas"
    static let urinalysis = "Urinalysis"
    static let markers = "Tumour markers"
    static let serology = "Serology"

    // Conversion factors: mg/dL → mmol/L is 10 / molar mass (g/mol); glucose 180.16,
    // cholesterol 386.65, triglycerides (as triolein) 885.7, creatinine 113.12 (→ µmol/L ×88.42).
    private static let blood: [Analyte] = [
        a("wbc", "White blood cells", ["6690-2", "26464-8"], cbc, ("10*3/uL", "10*9/L"),
          ["wbc", "white blood cells", "white blood cell count", "white cell count", "leukocytes", "leukocyte count", "total leukocyte count",
           "leukozyten", "leucocytes", "leucocitos", "leucociti", "leukocyten", "globules blancs", "globuli bianchi"]),
        a("rbc", "Red blood cells", ["789-8", "26453-1"], cbc, ("10*6/uL", "10*12/L"),
          ["rbc", "red blood cells", "red blood cell count", "red cell count", "erythrocytes", "erythrozyten", "hematies", "globules rouges",
           "eritrocitos", "eritrociti", "erytrocyten", "globuli rossi", "hemacias"]),
        a("hemoglobin", "Hemoglobin", ["718-7"], cbc, ("g/dL", "g/L"),
          ["hemoglobin", "haemoglobin", "hgb", "hb", "hamoglobin", "haemoglobin hb", "hemoglobine", "hemoglobina", "emoglobina"],
          [UnitConversion("g/dL", "mmol/L", factor: 0.6206)]),
        a("hematocrit", "Hematocrit", ["4544-3", "20570-8"], cbc, ("%", "L/L"),
          ["hematocrit", "haematocrit", "hct", "hamatokrit", "hematocrite", "hematocrito", "ematocrito", "packed cell volume", "pcv"]),
        a("mcv", "MCV", ["787-2"], cbc, ("fL", nil), ["mcv", "mean corpuscular volume", "mean cell volume", "vgm", "vcm", "mittleres zellvolumen"]),
        a("mch", "MCH", ["785-6"], cbc, ("pg", nil), ["mch", "mean corpuscular hemoglobin", "mean cell hemoglobin", "tcmh", "hcm"]),
        a("mchc", "MCHC", ["786-4"], cbc, ("g/dL", "g/L"), ["mchc", "mean corpuscular hemoglobin concentration", "ccmh", "chcm"]),
        a("rdw", "RDW", ["788-0"], cbc, ("%", nil), ["rdw", "rdw cv", "red cell distribution width", "red blood cell distribution width", "ery verteilungsbreite", "idr"]),
        a("rdw-sd", "RDW-SD", ["21000-5"], cbc, ("fL", nil), ["rdw sd"]),
        a("platelets", "Platelets", ["777-3", "26515-7"], cbc, ("10*3/uL", "10*9/L"),
          ["platelets", "platelet count", "plt", "thrombocytes", "thrombozyten", "plaquettes", "plaquetas", "piastrine", "trombocyten", "trombociti"]),
        a("mpv", "MPV", ["32623-1"], cbc, ("fL", nil), ["mpv", "mean platelet volume", "vpm"]),
        a("neutrophils-pct", "Neutrophils %", ["770-8"], cbc, ("%", nil),
          ["neutrophils", "neutrophils %", "neutrophils percent", "neut", "neut %", "neutrophile", "neutrophiles", "neutrofilos", "neutrofili", "segmented neutrophils"]),
        a("neutrophils-abs", "Neutrophils", ["751-8"], cbc, ("10*3/uL", "10*9/L"),
          ["neutrophils", "neutrophils absolute", "neutrophil count", "absolute neutrophil count", "absolute neutrophils", "neutrophils #", "neut #", "neut", "neut absolute", "neutrophils abs", "anc", "neutrophile absolut"]),
        a("lymphocytes-pct", "Lymphocytes %", ["736-9"], cbc, ("%", nil),
          ["lymphocytes", "lymphocytes %", "lymphs", "lymph %", "lymphozyten", "lymphocytes percent", "linfocitos", "linfociti"]),
        a("lymphocytes-abs", "Lymphocytes", ["731-0"], cbc, ("10*3/uL", "10*9/L"),
          ["lymphocytes", "lymphocytes absolute", "lymphocyte count", "absolute lymphocyte count", "absolute lymphocytes", "lymphocytes #", "lymph #", "lymphs", "lymphs absolute", "lymph absolute", "lymphocytes abs", "lymphozyten absolut"]),
        a("monocytes-pct", "Monocytes %", ["5905-5"], cbc, ("%", nil), ["monocytes", "monocytes %", "monos", "mono %", "monozyten", "monocitos", "monociti"]),
        a("monocytes-abs", "Monocytes", ["742-7"], cbc, ("10*3/uL", "10*9/L"),
          ["monocytes", "monocytes absolute", "monocyte count", "absolute monocyte count", "absolute monocytes", "monocytes #", "mono #", "monos", "monos absolute", "mono absolute", "monocytes abs", "monozyten absolut"]),
        a("eosinophils-pct", "Eosinophils %", ["713-8"], cbc, ("%", nil), ["eosinophils", "eosinophils %", "eos", "eos %", "eosinophile", "eosinofilos", "eosinofili"]),
        a("eosinophils-abs", "Eosinophils", ["711-2"], cbc, ("10*3/uL", "10*9/L"),
          ["eosinophils", "eosinophils absolute", "eosinophil count", "absolute eosinophil count", "absolute eosinophils", "eosinophils #", "eos #", "eos", "eos absolute", "eosinophils abs", "eosinophile absolut"]),
        a("basophils-pct", "Basophils %", ["706-2"], cbc, ("%", nil), ["basophils", "basophils %", "basos", "baso", "baso %", "basophile", "basofilos", "basofili"]),
        a("basophils-abs", "Basophils", ["704-7"], cbc, ("10*3/uL", "10*9/L"),
          ["basophils", "basophils absolute", "basophil count", "absolute basophil count", "absolute basophils", "basophils #", "baso #", "basos", "baso", "baso absolute", "basos absolute", "basophils abs", "basophile absolut"]),

        a("glucose", "Glucose", ["2345-7", "2339-0", "14749-6", "15074-8"], chemistry, ("mg/dL", "mmol/L"),
          ["glucose", "blood glucose", "glucose random", "random glucose", "glukose", "glucose serum", "glycemie", "glucosa", "glicemia", "glucosio",
           "blutzucker", "glucose plasma", "glicose", "glucose serum plasma"], molar("mg/dL", "mmol/L", 1 / 18.016)),
        a("glucose-fasting", "Glucose (fasting)", ["1558-6"], diabetes, ("mg/dL", "mmol/L"),
          ["fasting glucose", "glucose fasting", "fasting blood glucose", "fasting plasma glucose", "fbg", "fpg", "fasting blood sugar", "fbs",
           "fasting sugar", "blood sugar fasting", "nuchternglukose", "glycemie a jeun",
           "glucosa en ayunas"], molar("mg/dL", "mmol/L", 1 / 18.016)),
        a("bun", "Urea nitrogen (BUN)", ["3094-0"], kidney, ("mg/dL", "mmol/L"),
          ["bun", "urea nitrogen", "blood urea nitrogen", "urea nitrogen bun"], molar("mg/dL", "mmol/L", 1 / 2.801)),
        a("urea", "Urea", ["22664-7", "3091-6"], kidney, ("mg/dL", "mmol/L"),
          ["urea", "harnstoff", "uree", "urea serum", "ureum"], molar("mg/dL", "mmol/L", 1 / 6.006)),
        a("creatinine", "Creatinine", ["2160-0", "14682-9", "38483-4"], kidney, ("mg/dL", "umol/L"),
          ["creatinine", "creat", "creatinine serum", "kreatinin", "creatinina", "kreatinine", "creatinine enzymatic"], molar("mg/dL", "umol/L", 88.42)),
        a("egfr", "eGFR", ["33914-3", "62238-1", "98979-8", "48642-3", "48643-1", "50044-7"], kidney, ("mL/min/{1.73_m2}", nil),
          ["egfr", "estimated gfr", "gfr estimated", "egfr ckd epi", "egfr ckd epi 2021", "egfr non afr american", "egfr mdrd", "estimated glomerular filtration rate",
           "glomerular filtration rate", "gfr", "e gfr", "dfg", "dfg estime", "fg estimado", "egfr creatinine", "egfr cr"]),
        a("bun-creatinine", "BUN/creatinine ratio", ["3097-3"], kidney, ("{ratio}", nil), ["bun creatinine ratio", "bun creat ratio", "urea creatinine ratio"]),
        a("cystatin-c", "Cystatin C", ["33863-2"], kidney, ("mg/L", nil), ["cystatin c", "cystatine c", "cistatina c"]),
        a("sodium", "Sodium", ["2951-2"], chemistry, ("mmol/L", nil), ["sodium", "na", "natrium", "sodio", "sodium serum"]),
        a("potassium", "Potassium", ["2823-3"], chemistry, ("mmol/L", nil), ["potassium", "k", "kalium", "potasio", "potassio", "potassium serum"]),
        a("chloride", "Chloride", ["2075-0"], chemistry, ("mmol/L", nil), ["chloride", "cl", "chlorid", "chlorure", "cloruro", "chlorures"]),
        a("co2", "Carbon dioxide (bicarbonate)", ["2028-9", "1963-8"], chemistry, ("mmol/L", nil),
          ["co2", "carbon dioxide", "carbon dioxide total", "total co2", "bicarbonate", "hco3", "bikarbonat", "bicarbonato", "co2 total"]),
        a("calcium", "Calcium", ["17861-6", "2000-8"], chemistry, ("mg/dL", "mmol/L"),
          ["calcium", "ca", "calcium total", "total calcium", "kalzium", "calcio", "calcium serum"], molar("mg/dL", "mmol/L", 1 / 4.008)),
        a("magnesium", "Magnesium", ["19123-9"], chemistry, ("mg/dL", "mmol/L"), ["magnesium", "mg", "magnesio"], molar("mg/dL", "mmol/L", 1 / 2.431)),
        a("phosphate", "Phosphate", ["2777-1"], chemistry, ("mg/dL", "mmol/L"),
          ["phosphate", "phosphorus", "phosphorus inorganic", "phosphat", "fosfato", "fosforo", "phosphore"], molar("mg/dL", "mmol/L", 1 / 3.097)),
        a("uric-acid", "Uric acid", ["3084-1"], chemistry, ("mg/dL", "umol/L"),
          ["uric acid", "urate", "harnsaure", "acide urique", "acido urico"], molar("mg/dL", "umol/L", 59.48)),
        a("anion-gap", "Anion gap", ["33037-3"], chemistry, ("mmol/L", nil), ["anion gap", "anionenlucke"]),
        a("protein-total", "Protein, total", ["2885-2"], liver, ("g/dL", "g/L"),
          ["total protein", "protein total", "protein", "gesamteiweiss", "gesamtprotein", "proteines totales", "proteinas totales", "proteine totali", "totaal eiwit"]),
        a("albumin", "Albumin", ["1751-7", "61151-7"], liver, ("g/dL", "g/L"), ["albumin", "alb", "albumine", "albumina", "albumin serum"]),
        a("globulin", "Globulin", ["10834-0"], liver, ("g/dL", "g/L"), ["globulin", "globulin total", "globuline", "globulina"]),
        a("albumin-globulin", "Albumin/globulin ratio", ["1759-0"], liver, ("{ratio}", nil), ["a g ratio", "albumin globulin ratio", "alb glob ratio"]),
        a("bilirubin-total", "Bilirubin, total", ["1975-2", "14631-6"], liver, ("mg/dL", "umol/L"),
          ["bilirubin total", "total bilirubin", "bilirubin", "bili total", "gesamtbilirubin", "bilirubine totale", "bilirrubina total", "bilirubina totale"],
          molar("mg/dL", "umol/L", 17.1)),
        a("bilirubin-direct", "Bilirubin, direct", ["1968-7", "14629-0"], liver, ("mg/dL", "umol/L"),
          ["bilirubin direct", "direct bilirubin", "conjugated bilirubin", "bilirubin conjugated", "direktes bilirubin", "bilirubine conjuguee", "bilirrubina directa"],
          molar("mg/dL", "umol/L", 17.1)),
        a("alp", "Alkaline phosphatase", ["6768-6"], liver, ("U/L", nil),
          ["alkaline phosphatase", "alk phos", "alp", "alk phosphatase", "alkalische phosphatase", "ap", "phosphatase alcaline", "pal", "fosfatasa alcalina", "fosfatasi alcalina"]),
        a("ast", "AST", ["1920-8"], liver, ("U/L", nil),
          ["ast", "sgot", "ast sgot", "aspartate aminotransferase", "got", "asat", "got ast", "aspartato aminotransferasa", "transaminase got"]),
        a("alt", "ALT", ["1742-6"], liver, ("U/L", nil),
          ["alt", "sgpt", "alt sgpt", "alanine aminotransferase", "gpt", "alat", "gpt alt", "alanina aminotransferasa", "transaminase gpt"]),
        a("ggt", "GGT", ["2324-2"], liver, ("U/L", nil),
          ["ggt", "gamma gt", "gamma glutamyl transferase", "gamma glutamyltransferase", "y gt", "γ gt", "gammagt", "ggtp"]),
        a("ldh", "LDH", ["2532-0", "14804-9"], liver, ("U/L", nil), ["ldh", "lactate dehydrogenase", "ld", "laktatdehydrogenase", "lacticodeshidrogenasa"]),

        a("cholesterol-total", "Cholesterol, total", ["2093-3", "14647-2"], lipids, ("mg/dL", "mmol/L"),
          ["cholesterol total", "total cholesterol", "cholesterol", "chol", "cholesterin", "gesamtcholesterin", "cholesterol gesamt", "cholesterin gesamt", "cholesterol totaal",
           "cholesterol tot", "colesterol total", "colesterolo totale", "cholesterol serum"], molar("mg/dL", "mmol/L", 1 / 38.67)),
        a("hdl", "HDL cholesterol", ["2085-9", "14646-4"], lipids, ("mg/dL", "mmol/L"),
          ["hdl", "hdl cholesterol", "hdl c", "cholesterol hdl", "hdl cholesterin", "colesterol hdl", "colesterolo hdl"], molar("mg/dL", "mmol/L", 1 / 38.67)),
        a("ldl", "LDL cholesterol", ["13457-7", "18262-6", "2089-1", "22748-8"], lipids, ("mg/dL", "mmol/L"),
          ["ldl", "ldl cholesterol", "ldl c", "ldl calc", "ldl calculated", "ldl cholesterol calc", "ldl chol calc nih", "ldl direct", "cholesterol ldl",
           "ldl cholesterin", "colesterol ldl", "colesterolo ldl", "ldl friedewald"], molar("mg/dL", "mmol/L", 1 / 38.67)),
        a("triglycerides", "Triglycerides", ["2571-8", "14927-8"], lipids, ("mg/dL", "mmol/L"),
          ["triglycerides", "triglyceride", "trig", "tg", "triglyceride gesamt", "triglyzeride", "triglycerides serum", "triglycerides trig", "triglycerides tg",
           "triglycerides", "trigliceridos", "trigliceridi", "triglyceriden"], molar("mg/dL", "mmol/L", 1 / 88.57)),
        a("non-hdl", "Non-HDL cholesterol", ["43396-1"], lipids, ("mg/dL", "mmol/L"),
          ["non hdl cholesterol", "non hdl", "non hdl c", "cholesterol non hdl", "nicht hdl cholesterin"], molar("mg/dL", "mmol/L", 1 / 38.67)),
        a("vldl", "VLDL cholesterol", ["13458-5"], lipids, ("mg/dL", "mmol/L"), ["vldl", "vldl cholesterol", "vldl cholesterol cal"], molar("mg/dL", "mmol/L", 1 / 38.67)),
        a("chol-hdl", "Cholesterol/HDL ratio", ["9830-1"], lipids, ("{ratio}", nil), ["cholesterol hdl ratio", "chol hdl ratio", "total cholesterol hdl ratio", "tc hdl ratio", "chol hdlc ratio", "cholesterol hdl c ratio"]),
        a("apob", "Apolipoprotein B", ["1884-6"], lipids, ("mg/dL", "g/L"), ["apolipoprotein b", "apo b", "apob"], [UnitConversion("mg/dL", "g/L", factor: 0.01)]),
        a("lpa", "Lipoprotein(a)", ["10835-7"], lipids, ("mg/dL", nil), ["lipoprotein a", "lp a", "lpa", "lipoprotein little a"]),

        a("tsh", "TSH", ["3016-3", "11580-8"], thyroid, ("u[IU]/mL", "m[IU]/L"),
          ["tsh", "thyrotropin", "thyroid stimulating hormone", "tsh basal", "tsh sensitive", "tsh 3rd generation", "thyreotropin", "tsh us"]),
        a("free-t4", "Free T4", ["3024-7", "14920-3"], thyroid, ("ng/dL", "pmol/L"),
          ["free t4", "ft4", "t4 free", "free thyroxine", "thyroxine free", "freies t4", "t4 libre", "t4 libera", "t4 free direct"], molar("ng/dL", "pmol/L", 12.87)),
        a("free-t3", "Free T3", ["3051-0"], thyroid, ("pg/mL", "pmol/L"),
          ["free t3", "ft3", "t3 free", "free triiodothyronine", "triiodothyronine free", "freies t3", "t3 libre", "t3 libera"], molar("pg/mL", "pmol/L", 1.536)),
        a("t4-total", "T4, total", ["3026-2"], thyroid, ("ug/dL", "nmol/L"), ["t4 total", "total t4", "thyroxine", "thyroxine t4", "t4"], molar("ug/dL", "nmol/L", 12.87)),
        a("t3-total", "T3, total", ["3053-6"], thyroid, ("ng/dL", "nmol/L"), ["t3 total", "total t3", "triiodothyronine", "t3"], molar("ng/dL", "nmol/L", 0.01536)),
        a("tpo-ab", "Thyroid peroxidase antibodies", ["8099-4"], thyroid, ("[IU]/mL", nil),
          ["tpo antibodies", "anti tpo", "tpo ab", "thyroid peroxidase ab", "thyroid peroxidase antibodies", "tpo ak", "anti tpo antikorper"]),

        a("hba1c", "Hemoglobin A1c", ["4548-4", "17856-6", "59261-8"], diabetes, ("%", "mmol/mol"),
          ["hba1c", "hemoglobin a1c", "haemoglobin a1c", "a1c", "glycated hemoglobin", "glycohemoglobin", "glycosylated hemoglobin", "hb a1c", "glykohamoglobin",
           "hemoglobine glyquee", "hemoglobina glicosilada", "hemoglobina glicada", "emoglobina glicata", "hba1c ifcc", "hba1c ngsp"],
          [UnitConversion("%", "mmol/mol", forward: { ($0 - 2.15) * 10.929 }, backward: { $0 / 10.929 + 2.15 })]),
        a("insulin", "Insulin", ["20448-7"], diabetes, ("u[IU]/mL", "pmol/L"), ["insulin", "insulin fasting", "insuline", "insulina"], molar("u[IU]/mL", "pmol/L", 6.0)),
        a("c-peptide", "C-peptide", ["1986-9"], diabetes, ("ng/mL", "nmol/L"), ["c peptide", "c peptid", "peptide c", "peptido c"], molar("ng/mL", "nmol/L", 0.331)),
        a("uacr", "Albumin/creatinine ratio (urine)", ["9318-7", "14959-1"], kidney, ("mg/g", "mg/mmol"),
          ["albumin creatinine ratio", "microalbumin creatinine ratio", "uacr", "acr", "urine albumin creatinine ratio", "albumin kreatinin quotient"],
          specimen: .urine, molar("mg/g", "mg/mmol", 0.113)),
        a("microalbumin", "Albumin (urine)", ["14957-5"], kidney, ("mg/L", nil), ["microalbumin", "urine albumin", "albumin urine", "mikroalbumin"], specimen: .urine),
        a("creatinine-urine", "Creatinine (urine)", ["2161-8"], kidney, ("mg/dL", "mmol/L"), ["urine creatinine", "creatinine urine", "creatinine random urine"],
          specimen: .urine, molar("mg/dL", "mmol/L", 0.08842)),

        a("iron", "Iron", ["2498-4", "14798-3"], iron, ("ug/dL", "umol/L"),
          ["iron", "serum iron", "iron serum", "iron total", "fe", "eisen", "fer", "fer serique", "hierro", "ferro", "sideremia", "ijzer"], molar("ug/dL", "umol/L", 0.1791)),
        a("tibc", "Total iron-binding capacity", ["2500-7"], iron, ("ug/dL", "umol/L"),
          ["tibc", "total iron binding capacity", "iron binding capacity", "iron binding capacity total", "totale eisenbindungskapazitat"], molar("ug/dL", "umol/L", 0.1791)),
        a("uibc", "Unsaturated iron-binding capacity", ["2501-5"], iron, ("ug/dL", "umol/L"),
          ["uibc", "unsaturated iron binding capacity", "latent iron binding capacity"], molar("ug/dL", "umol/L", 0.1791)),
        a("transferrin", "Transferrin", ["3034-6"], iron, ("mg/dL", "g/L"), ["transferrin", "transferrine", "transferrina"], [UnitConversion("mg/dL", "g/L", factor: 0.01)]),
        a("transferrin-saturation", "Transferrin saturation", ["2502-3"], iron, ("%", nil),
          ["transferrin saturation", "iron saturation", "tsat", "saturation", "iron saturation percent", "transferrinsattigung", "saturation de la transferrine",
           "coefficient de saturation", "saturacion de transferrina", "tsat transferrin saturation"]),
        a("ferritin", "Ferritin", ["2276-4", "20567-4"], iron, ("ng/mL", "ug/L"), ["ferritin", "ferritin serum", "serum ferritin", "ferritine", "ferritina"]),

        a("vitamin-d", "Vitamin D, 25-hydroxy", ["62292-8", "1989-3", "49054-0"], vitamins, ("ng/mL", "nmol/L"),
          ["vitamin d", "25 oh vitamin d", "25 hydroxyvitamin d", "vitamin d 25 hydroxy", "vitamin d 25 oh", "25 oh d", "vitamin d3 25 oh", "25 oh vitamin d3",
           "vitamin d total", "calcidiol", "25 oh vitamin d total", "vitamine d", "vitamina d", "vitamin d 25 hydroxy total"], molar("ng/mL", "nmol/L", 2.496)),
        a("vitamin-b12", "Vitamin B12", ["2132-9", "14685-2"], vitamins, ("pg/mL", "pmol/L"),
          ["vitamin b12", "b12", "cobalamin", "cyanocobalamin", "vitamine b12", "vitamina b12", "holotranscobalamin total b12"], molar("pg/mL", "pmol/L", 0.7378)),
        a("folate", "Folate", ["2284-8", "14732-2"], vitamins, ("ng/mL", "nmol/L"),
          ["folate", "folic acid", "folate serum", "serum folate", "folsaure", "folates", "acide folique", "acido folico", "folato"], molar("ng/mL", "nmol/L", 2.266)),

        a("pt", "Prothrombin time", ["5902-2"], coagulation, ("s", nil), ["prothrombin time", "pt", "protime", "quick time", "temps de prothrombine"]),
        a("inr", "INR", ["6301-6", "34714-6"], coagulation, ("{ratio}", nil), ["inr", "pt inr", "international normalized ratio"]),
        a("aptt", "aPTT", ["3173-2", "14979-9"], coagulation, ("s", nil), ["aptt", "ptt", "activated partial thromboplastin time", "partial thromboplastin time", "tca", "ttpa"]),
        a("fibrinogen", "Fibrinogen", ["3255-7"], coagulation, ("mg/dL", "g/L"), ["fibrinogen", "fibrinogene", "fibrinogeno"], [UnitConversion("mg/dL", "g/L", factor: 0.01)]),
        a("d-dimer", "D-dimer", ["48065-7", "48066-5"], coagulation, ("ug/mL", "mg/L"), ["d dimer", "d dimere", "d dimero", "d dimers"], [UnitConversion("ug/mL", "mg/L", factor: 1)]),

        a("crp", "C-reactive protein", ["1988-5"], inflammation, ("mg/L", "mg/dL"),
          ["crp", "c reactive protein", "c reaktives protein", "proteine c reactive", "proteina c reactiva", "proteina c reattiva", "c reactive protein crp"]),
        a("hs-crp", "C-reactive protein, high sensitivity", ["30522-7"], inflammation, ("mg/L", nil),
          ["hs crp", "hscrp", "high sensitivity crp", "crp high sensitivity", "c reactive protein cardiac", "hs c reactive protein", "crp hs"]),
        a("esr", "Erythrocyte sedimentation rate", ["30341-2", "4537-7"], inflammation, ("mm/h", nil),
          ["esr", "sed rate", "sedimentation rate", "erythrocyte sedimentation rate", "bsg", "bsr", "blutsenkung", "vs", "vsg", "vitesse de sedimentation", "westergren"]),
        a("procalcitonin", "Procalcitonin", ["33959-8"], inflammation, ("ng/mL", "ug/L"), ["procalcitonin", "pct", "procalcitonine", "procalcitonina"]),

        a("troponin-i", "Troponin I", ["10839-9", "89579-7"], cardiac, ("ng/L", nil), ["troponin i", "troponin i cardiac", "ctni", "tni", "hs troponin i", "troponine i"]),
        a("troponin-t", "Troponin T", ["6598-7", "67151-1"], cardiac, ("ng/L", nil), ["troponin t", "troponin t cardiac", "ctnt", "tnt", "hs troponin t", "troponine t"]),
        a("bnp", "BNP", ["30934-4"], cardiac, ("pg/mL", "ng/L"), ["bnp", "b type natriuretic peptide", "brain natriuretic peptide"]),
        a("nt-probnp", "NT-proBNP", ["33762-6"], cardiac, ("pg/mL", "ng/L"), ["nt probnp", "ntprobnp", "n terminal pro bnp", "nt pro bnp"]),
        a("ck", "Creatine kinase", ["2157-6"], cardiac, ("U/L", nil), ["ck", "cpk", "creatine kinase", "creatine kinase total", "kreatinkinase", "ck total", "creatine phosphokinase"]),

        a("lipase", "Lipase", ["3040-3"], pancreas, ("U/L", nil), ["lipase", "lipasa", "lipasi"]),
        a("amylase", "Amylase", ["1798-8"], pancreas, ("U/L", nil), ["amylase", "amilasa", "amilasi", "alpha amylase", "amylase total"]),

        a("psa", "PSA", ["2857-1"], hormones, ("ng/mL", "ug/L"), ["psa", "prostate specific antigen", "psa total", "total psa", "gesamt psa", "psa totale"]),
        a("psa-free", "PSA, free", ["10886-0"], hormones, ("ng/mL", "ug/L"), ["free psa", "psa free", "freies psa", "psa libre"]),
        a("testosterone", "Testosterone", ["2986-8"], hormones, ("ng/dL", "nmol/L"), ["testosterone", "testosterone total", "total testosterone", "testosteron", "testosterona"],
          molar("ng/dL", "nmol/L", 0.03467)),
        a("estradiol", "Estradiol", ["2243-4"], hormones, ("pg/mL", "pmol/L"), ["estradiol", "oestradiol", "e2", "ostradiol"], molar("pg/mL", "pmol/L", 3.671)),
        a("lh", "LH", ["10501-5"], hormones, ("m[IU]/mL", "[IU]/L"), ["lh", "luteinizing hormone", "luteinising hormone", "lutropin"]),
        a("fsh", "FSH", ["15067-2"], hormones, ("m[IU]/mL", "[IU]/L"), ["fsh", "follicle stimulating hormone", "follitropin"]),
        a("prolactin", "Prolactin", ["2842-3"], hormones, ("ng/mL", "ug/L"), ["prolactin", "prl", "prolactine", "prolactina"]),
        a("cortisol", "Cortisol", ["2143-6"], hormones, ("ug/dL", "nmol/L"), ["cortisol", "cortisol am", "cortisol morning", "kortisol", "cortisol serum"],
          molar("ug/dL", "nmol/L", 27.59)),
        a("pth", "Parathyroid hormone, intact", ["2731-8"], hormones, ("pg/mL", "pmol/L"), ["pth", "pth intact", "intact pth", "parathyroid hormone", "parathormon"],
          molar("pg/mL", "pmol/L", 0.106)),
        a("homocysteine", "Homocysteine", ["13965-9"], cardiac, ("umol/L", nil), ["homocysteine", "homocystein", "homocisteina", "homocysteine total"]),
        a("progesterone", "Progesterone", ["2839-9"], hormones, ("ng/mL", "nmol/L"), ["progesterone", "progesteron", "progesterona"], molar("ng/mL", "nmol/L", 3.18)),
        a("dhea-s", "DHEA sulfate", ["2191-5"], hormones, ("ug/dL", "umol/L"),
          ["dhea s", "dhea sulfate", "dhea sulphate", "dheas", "dehydroepiandrosterone sulfate", "dhea so4"], molar("ug/dL", "umol/L", 0.02714)),
        a("shbg", "Sex hormone binding globulin", ["13967-5"], hormones, ("nmol/L", nil), ["shbg", "sex hormone binding globulin"]),
        a("hcg", "hCG, quantitative", ["21198-7", "2106-3"], hormones, ("m[IU]/mL", "[IU]/L"),
          ["hcg", "beta hcg", "b hcg", "hcg quantitative", "beta hcg quantitative", "human chorionic gonadotropin", "total hcg"]),
        a("eag", "Estimated average glucose", ["27353-2"], diabetes, ("mg/dL", "mmol/L"),
          ["estimated average glucose", "eag", "average glucose"], molar("mg/dL", "mmol/L", 1 / 18.016)),

        a("cea", "CEA", ["2039-6"], markers, ("ng/mL", "ug/L"), ["cea", "carcinoembryonic antigen", "carcinoembryonales antigen", "antigene carcino embryonnaire"]),
        a("ca-125", "CA 125", ["10334-1"], markers, ("U/mL", nil), ["ca 125", "ca125", "cancer antigen 125"]),
        a("ca-19-9", "CA 19-9", ["24108-3"], markers, ("U/mL", nil), ["ca 19 9", "ca19 9", "ca 199", "cancer antigen 19 9"]),
        a("ca-15-3", "CA 15-3", ["6875-9"], markers, ("U/mL", nil), ["ca 15 3", "ca15 3", "cancer antigen 15 3"]),
        a("afp", "Alpha-fetoprotein", ["1834-1"], markers, ("ng/mL", "[IU]/mL"), ["afp", "alpha fetoprotein", "alpha 1 fetoprotein", "alfa fetoproteina"]),

        a("hbsag", "Hepatitis B surface antigen", ["5196-1"], serology, (nil, nil),
          ["hbsag", "hepatitis b surface antigen", "hbs antigen", "hbs ag", "hepatitis b surface ag", "hbs antigen qualitative"]),
        a("anti-hbs", "Hepatitis B surface antibody", ["16935-9"], serology, ("m[IU]/mL", nil),
          ["anti hbs", "hbsab", "hbs ab", "hepatitis b surface antibody", "hepatitis b surface ab"]),
        a("anti-hcv", "Hepatitis C antibody", ["13955-0"], serology, (nil, nil),
          ["anti hcv", "hcv ab", "hcv antibody", "hepatitis c antibody", "hepatitis c ab", "hepatitis c virus antibody"]),
        a("hiv-ag-ab", "HIV-1/2 antigen and antibodies", ["56888-1"], serology, (nil, nil),
          ["hiv 1 2 antigen antibody", "hiv 1 2 ag ab", "hiv ag ab", "hiv 1 2 antibodies", "hiv antigen antibody", "hiv screen", "hiv combo",
           "hiv 1 2 antigen antibodies", "hiv"]),
    ]

    private static let urine: [Analyte] = [
        a("urine-ph", "pH (urine)", ["5803-2"], urinalysis, ("[pH]", nil), ["ph", "urine ph", "ph urine", "ph wert", "ph urin"], specimen: .urine),
        a("urine-specific-gravity", "Specific gravity (urine)", ["5811-5"], urinalysis, (nil, nil),
          ["specific gravity", "spec grav", "sg", "urine specific gravity", "spezifisches gewicht", "densite urinaire", "densidad"], specimen: .urine),
        a("urine-protein", "Protein (urine)", ["20454-5", "2888-6"], urinalysis, ("mg/dL", nil),
          ["protein", "urine protein", "protein urine", "eiweiss", "proteines", "proteinas", "albumin dipstick"], specimen: .urine),
        a("urine-glucose", "Glucose (urine)", ["25428-4", "5792-7"], urinalysis, ("mg/dL", nil),
          ["glucose", "urine glucose", "glucose urine", "glukose", "zucker", "glucosa"], specimen: .urine),
        a("urine-ketones", "Ketones (urine)", ["5797-6", "33903-6"], urinalysis, ("mg/dL", nil),
          ["ketones", "ketone", "urine ketones", "ketone bodies", "ketonkorper", "acetone", "cetonas", "corps cetoniques"], specimen: .urine),
        a("urine-blood", "Blood (urine)", ["5794-3"], urinalysis, (nil, nil),
          ["blood", "occult blood", "urine blood", "hemoglobin", "blut", "sang", "sangre", "erythrocytes dipstick", "hgb"], specimen: .urine),
        a("urine-nitrite", "Nitrite (urine)", ["5802-4"], urinalysis, (nil, nil), ["nitrite", "nitrites", "urine nitrite", "nitrit", "nitritos"], specimen: .urine),
        a("urine-leukocyte-esterase", "Leukocyte esterase (urine)", ["5799-2"], urinalysis, (nil, nil),
          ["leukocyte esterase", "leukocytes", "leucocyte esterase", "leukozyten", "leucocytes", "leucocitos", "wbc esterase"], specimen: .urine),
        a("urine-bilirubin", "Bilirubin (urine)", ["5770-3"], urinalysis, (nil, nil), ["bilirubin", "urine bilirubin", "bilirubine", "bilirrubina"], specimen: .urine),
        a("urine-urobilinogen", "Urobilinogen (urine)", ["5818-0", "20405-7"], urinalysis, ("mg/dL", nil),
          ["urobilinogen", "urobilinogene", "urobilinogeno"], specimen: .urine),
        a("urine-color", "Color (urine)", ["5778-6"], urinalysis, (nil, nil), ["color", "colour", "urine color", "farbe", "couleur", "color de orina"], specimen: .urine),
        a("urine-appearance", "Appearance (urine)", ["5767-9"], urinalysis, (nil, nil),
          ["appearance", "clarity", "urine appearance", "aussehen", "aspect", "aspecto", "trubung"], specimen: .urine),
        a("urine-wbc", "White blood cells (urine sediment)", ["5821-4"], urinalysis, ("/[HPF]", nil),
          ["wbc", "wbc urine", "white blood cells", "leukocytes sediment", "wbc hpf", "leukozyten sediment"], specimen: .urine),
        a("urine-rbc", "Red blood cells (urine sediment)", ["13945-1"], urinalysis, ("/[HPF]", nil),
          ["rbc", "rbc urine", "red blood cells", "erythrocytes sediment", "rbc hpf", "erythrozyten sediment"], specimen: .urine),
    ]

    /// Every key to its entry.
    private static let byKey: [String: Analyte] = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

    /// Normalised name → the entries it may mean (a name shared by a percentage and a count, or
    /// by a blood and a urine test, is told apart by unit and panel).
    private static let byName: [String: [Analyte]] = {
        var table: [String: [Analyte]] = [:]
        for entry in entries {
            for name in Set(entry.synonyms.map(normalized) + [normalized(entry.name), normalized(entry.key)]) where !name.isEmpty {
                table[name, default: []].append(entry)
            }
        }
        return table
    }()

    private static let byCode: [String: Analyte] = Dictionary(entries.flatMap { entry in entry.loinc.map { ($0, entry) } },
                                                              uniquingKeysWith: { first, _ in first })

    public static func entry(key: String) -> Analyte? { byKey[key] }

    /// The analyte a LOINC code means.
    public static func entry(loinc: String) -> Analyte? { byCode[loinc] }

    /// Lowercase, accents and punctuation removed, words single-spaced: "Hämoglobin (Hb)" → "hamoglobin hb".
    public static func normalized(_ name: String) -> String {
        // Plain ASCII needs no Foundation folding, which is most of the cost on a report's words.
        let folded = name.utf8.allSatisfy({ $0 < 0x80 }) ? name.lowercased()
            : name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var words: [String] = []
        var current = ""
        for character in folded {
            if character.isLetter || character.isNumber || character == "%" || character == "#" || character == "γ" {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.joined(separator: " ")
    }

    /// Words that say where the sample came from or how it was measured, not what.
    private static let qualifiers: Set<String> = ["serum", "plasma", "blood", "whole", "s", "p", "b", "se", "pl", "level", "result", "venous",
                                                   "calc", "calculated", "measured", "random", "auto", "automated", "count", "direct", "ser", "plas"]

    /// The analyte a name as printed on a report means, told apart by unit (a percentage or a
    /// count) and specimen (the report section is a urinalysis); nil when the name is unknown.
    public static func lookup(_ name: String, unit: String? = nil, specimen: Analyte.Specimen = .blood) -> Analyte? {
        let ucum = unit.flatMap(LabUnits.ucum)
        for candidate in candidates(name) {
            if let entries = byName[candidate], let chosen = choose(entries, ucum: ucum, specimen: specimen) { return chosen }
        }
        return nil
    }

    /// A name OCR read with the letters it confuses ("lron" for Iron, "HbAlc" for HbA1c,
    /// "Hemoglobin Alc"): the name with them put right and the analyte it then names, when
    /// only such a swap keeps it from being known; nil otherwise.
    public static func ocrCorrected(_ name: String, unit: String? = nil, specimen: Analyte.Specimen = .blood) -> (name: String, analyte: Analyte)? {
        guard name.count <= 60, lookup(name, unit: unit, specimen: specimen) == nil else { return nil }
        // In a fixed order, so that the same name is always put right the same way.
        let swaps: [(Character, [Character])] = [("l", ["I", "1"]), ("I", ["l", "1"]), ("1", ["l", "I"]), ("0", ["O"]), ("O", ["0"]), ("|", ["l", "I"])]
        let characters = Array(name)
        var candidates: [String] = []
        for (from, tos) in swaps {
            for to in tos {
                candidates.append(String(characters.map { $0 == from ? to : $0 }))
                for index in characters.indices where characters[index] == from {
                    var swapped = characters
                    swapped[index] = to
                    candidates.append(String(swapped))
                }
            }
        }
        for candidate in candidates where candidate != name {
            if let analyte = lookup(candidate, unit: unit, specimen: specimen) { return (candidate, analyte) }
        }
        return nil
    }

    /// The name itself, then without the bracketed part, the bracketed part alone, and without
    /// qualifier words at the end ("Creatinine, serum").
    private static func candidates(_ name: String) -> [String] {
        var result = [normalized(name)]
        if let open = name.firstIndex(where: { $0 == "(" || $0 == "[" }) {
            let outside = String(name[..<open])
            result.append(normalized(outside))
            let inside = name[name.index(after: open)...].prefix { $0 != ")" && $0 != "]" }
            result.append(normalized(String(inside)))
            let after = name[name.index(after: open)...].drop { $0 != ")" && $0 != "]" }.dropFirst()
            result.append(normalized(outside + " " + after))
        }
        for text in result {
            var words = text.split(separator: " ").map(String.init)
            while words.count > 1, let last = words.last, qualifiers.contains(last) {
                words.removeLast()
                result.append(words.joined(separator: " "))
            }
            words = text.split(separator: " ").map(String.init)
            while words.count > 1, let first = words.first, qualifiers.contains(first) {
                words.removeFirst()
                result.append(words.joined(separator: " "))
            }
            // Both ends: "Serum TSH level".
            while words.count > 1, let last = words.last, qualifiers.contains(last) {
                words.removeLast()
                result.append(words.joined(separator: " "))
            }
        }
        return result.filter { !$0.isEmpty }
    }

    private static func choose(_ entries: [Analyte], ucum: String?, specimen: Analyte.Specimen) -> Analyte? {
        guard entries.count > 1 else { return entries.first }
        let sameSpecimen = entries.filter { $0.specimen == specimen }
        let pool = sameSpecimen.isEmpty ? entries : sameSpecimen
        if pool.count == 1 { return pool[0] }
        if let ucum {
            let byUnit = pool.filter { entry in
                [entry.conventionalUnit, entry.siUnit].contains(ucum)
                    || [entry.conventionalUnit, entry.siUnit].compactMap { $0 }.contains { LabUnits.convert(1, from: ucum, to: $0, analyte: nil) != nil }
            }
            if let first = byUnit.first { return first }
        }
        return pool.first
    }
}
