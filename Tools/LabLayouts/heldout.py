"""Held-out layouts for the lab-report corpus: eight more report styles, written without
looking at how the reader works, so that they measure it rather than train it. Each function
takes the output directory as generate.py's layouts do, and its files are named `heldout-*`.

Everything here is synthetic: laboratories, patient (Alex Example) and values are made up.
"""
from generate import R, c, esc, letterhead, table, write


NOWRAP = "<style>th { white-space: nowrap; }</style>"


def heldout(name):
    return f"heldout-{name}"


def layout_in_range_out_of_range(out):
    """A US reference-lab report (Quest-like): 'Test Name | In Range | Out Of Range | Reference
    Range | Lab', normal values in the In Range column, abnormal ones with H/L in Out Of Range,
    the unit printed after the range, panel components indented under the panel's name and
    stand-alone tests (no panel) at the panel's level."""
    lipids = [
        R("CHOLESTEROL, TOTAL", 224, "mg/dL", None, 200, "<200", flag="H"),
        R("HDL CHOLESTEROL", 38, "mg/dL", 40, None, "> OR = 40", flag="L"),
        R("TRIGLYCERIDES", 142, "mg/dL", None, 150, "<150"),
        R("LDL-CHOLESTEROL", 156, "mg/dL", None, 100, "<100", flag="H"),
        R("CHOL/HDLC RATIO", 5.9, None, None, 5.0, "<5.0", flag="H"),
        R("NON HDL CHOLESTEROL", 186, "mg/dL", None, 130, "<130", flag="H"),
    ]
    cmp_ = [
        R("GLUCOSE", 104, "mg/dL", 65, 99, "65-99", flag="H"),
        R("UREA NITROGEN (BUN)", 15, "mg/dL", 7, 25, "7-25"),
        R("CREATININE", 0.98, "mg/dL", 0.70, 1.33, "0.70-1.33"),
        R("EGFR", 97, "mL/min/1.73m2", 60, None, "> OR = 60"),
        R("SODIUM", 140, "mmol/L", 135, 146, "135-146"),
        R("POTASSIUM", 4.3, "mmol/L", 3.5, 5.3, "3.5-5.3"),
        R("CHLORIDE", 104, "mmol/L", 98, 110, "98-110"),
        R("CARBON DIOXIDE", 26, "mmol/L", 20, 32, "20-32"),
        R("CALCIUM", 9.4, "mg/dL", 8.6, 10.3, "8.6-10.3"),
        R("PROTEIN, TOTAL", 7.1, "g/dL", 6.1, 8.1, "6.1-8.1"),
        R("ALBUMIN", 4.5, "g/dL", 3.6, 5.1, "3.6-5.1"),
        R("ALKALINE PHOSPHATASE", 71, "U/L", 36, 130, "36-130"),
        R("AST", 24, "U/L", 10, 40, "10-40"),
        R("ALT", 61, "U/L", 9, 46, "9-46", flag="H"),
        R("BILIRUBIN, TOTAL", 0.6, "mg/dL", 0.2, 1.2, "0.2-1.2"),
    ]
    alone = [
        R("TSH", 1.84, "mIU/L", 0.40, 4.50, "0.40-4.50"),
        R("HEMOGLOBIN A1c", 5.8, "%", None, 5.7, "<5.7", flag="H"),
    ]

    def row(r, indent):
        pad = " style='padding-left:7mm'" if indent else ""
        inside = r.value_text() if not r.flag else ""
        outside = f"{r.value_text()} {r.flag}" if r.flag else ""
        ref = f"{r.rtext} {r.unit}" if r.unit else r.rtext
        return (f"<tr><td{pad}>{esc(r.name)}</td><td>{esc(inside)}</td><td class='bold'>{esc(outside)}</td>"
                f"<td>{esc(ref)}</td><td>EN</td></tr>")

    def panel(name):
        return f"<tr><td colspan='5' class='bold' style='padding-top:3mm'>{esc(name)}</td></tr>"

    def note(text):
        return f"<tr><td colspan='5' class='small' style='padding:0 2mm 1mm 12mm'>{esc(text)}</td></tr>"

    box = ("<table style='font-size:8.5pt; border:1px solid #999; margin-bottom:3mm'><tr>"
           "<td style='width:33%; border-right:1px solid #ccc'><b>Patient Information</b><br>EXAMPLE, ALEX<br>DOB: 07/22/1984 AGE: 40<br>"
           "Gender: M<br>Patient ID: 0001234</td>"
           "<td style='width:34%; border-right:1px solid #ccc'><b>Specimen Information</b><br>Specimen: EN000123A<br>Requisition: 0004567<br>"
           "Collected: 03/18/2025 / 07:40 EDT<br>Received: 03/18/2025 / 21:15 EDT<br>Reported: 03/19/2025 / 06:02 EDT</td>"
           "<td><b>Client Information</b><br>Client #: 00000000<br>EXAMPLE FAMILY MEDICINE<br>1 SAMPLE ST<br>ANYTOWN, NY 00000</td>"
           "</tr></table>")
    body = ("<div style='display:flex; justify-content:space-between; align-items:flex-end'>"
            "<h1>Northstar Diagnostics (fictitious)</h1><div class='small'>Synthetic sample for phr, not a real medical record</div></div>")
    body += NOWRAP + box + "<div class='small' style='margin-bottom:2mm'>COMMENTS: FASTING: YES</div>"
    body += ("<table style='font-size:9pt'><colgroup><col style='width:36%'><col style='width:11%'><col style='width:17%'>"
             "<col style='width:29%'><col style='width:7%'></colgroup><thead><tr><th>Test Name</th><th>In Range</th>"
             "<th>Out Of Range</th><th>Reference Range</th><th>Lab</th></tr></thead><tbody>")
    body += panel("LIPID PANEL, STANDARD") + "".join(row(r, True) for r in lipids)
    body += panel("COMPREHENSIVE METABOLIC PANEL")
    for r in cmp_:
        body += row(r, True)
        if r.name == "GLUCOSE":
            body += note("Fasting reference interval")
    body += "".join(row(r, False) for r in alone)
    body += "</tbody></table>"
    body += ("<div class='small' style='margin-top:6mm; border-top:1px solid #999; padding-top:2mm'>PERFORMING SITE:<br>"
             "EN NORTHSTAR DIAGNOSTICS (fictitious), 1 SAMPLE WAY, ANYTOWN, NY 00000 Laboratory Director: J. EXAMPLE, MD, CLIA: 00D0000000</div>")
    expected = ([r.expected(1, "LIPID PANEL, STANDARD") for r in lipids] + [r.expected(1, "COMPREHENSIVE METABOLIC PANEL") for r in cmp_]
                + [r.expected(1, None) for r in alone])
    write(out, heldout("in-range-out-of-range"), "Report", body, expected, "2025-03-18")


def layout_nhs_result_cell(out):
    """A UK GP-surgery results printout (NHS style): two columns 'Test | Result', the result
    cell holding 'value unit (range)' and, for abnormal results, a second line 'Below low
    reference limit' / 'Above high reference limit'."""
    sections = [
        ("Full blood count", [
            R("Haemoglobin", 128, "g/L", 130, 170, "130 - 170", flag="L"),
            R("White blood cell count", 6.4, "10*9/L", 4.0, 11.0, "4.0 - 11.0"),
            R("Platelet count", 243, "10*9/L", 150, 400, "150 - 400"),
            R("Mean cell volume", 84.2, "fL", 80.0, 100.0, "80.0 - 100.0"),
            R("Neutrophil count", 3.9, "10*9/L", 2.0, 7.5, "2.0 - 7.5"),
        ]),
        ("Kidney function", [
            R("Serum sodium", 139, "mmol/L", 133, 146, "133 - 146"),
            R("Serum potassium", 5.6, "mmol/L", 3.5, 5.3, "3.5 - 5.3", flag="H"),
            R("Serum creatinine", 88, "umol/L", 59, 104, "59 - 104"),
            R("eGFR using creatinine (CKD-EPI) per 1.73 square metres", ">90", "mL/min/1.73m2"),
        ]),
        ("Iron, thyroid and diabetes", [
            R("Serum ferritin", 21, "ug/L", 30, 400, "30 - 400", flag="L"),
            R("Serum TSH level", 2.1, "mU/L", 0.27, 4.2, "0.27 - 4.2"),
            R("Serum vitamin B12", 310, "ng/L", 197, 771, "197 - 771"),
            R("HbA1c level (IFCC standardised)", 39, "mmol/mol", 20, 41, "20 - 41"),
        ]),
    ]
    words = {"L": "Below low reference limit", "H": "Above high reference limit"}

    def result(r):
        text = f"{r.value_text()} {r.unit}" + (f" ({r.rtext})" if r.rtext else "")
        cell = esc(text)
        if r.flag:
            cell += f"<br><span class='small red'>{esc(words[r.flag])}</span>"
        return (cell, "")

    fields = [("Patient", "Alex Example"), ("NHS number", "000 000 0000"), ("Date of birth", "22-Jul-1984"),
              ("Collection date", "21-May-2025"), ("Requested by", "Dr A Sample")]
    body = letterhead("Oakfield Medical Practice (fictitious)", "Test results", fields)
    body += "<p>These results were reviewed by Dr A Sample on 23-May-2025. Comment: ferritin slightly low, please book a routine appointment.</p>"
    expected = []
    for heading, results in sections:
        body += f"<h2>{esc(heading)}</h2>"
        body += table(["Test", "Result"], [[c(r.name), result(r)] for r in results], ["50%", "50%"])
        expected += [r.expected(1, heading) for r in results]
    write(out, heldout("nhs-result-cell"), "Test results", body, expected, "2025-05-21")


def layout_uitslag_dutch(out):
    """A Dutch GP-laboratory report: 'Bepaling | Uitslag | Eenheid | Referentiewaarden', decimal
    commas, Dutch units (haemoglobin in mmol/l, haematocrit in l/l, lower-case 'l'), ranges
    without spaces ('8,5-11,0'), H/L after the value and 'Afnamedatum' as the collection date."""
    hema = [
        R("Hemoglobine", 7.9, "mmol/l", 8.5, 11.0, "8.5-11.0", flag="L"),
        R("Hematocriet", 0.39, "l/l", 0.40, 0.50, "0.40-0.50", flag="L"),
        R("MCV", 82, "fl", 80, 100, "80-100"),
        R("Leukocyten", 6.8, "10^9/l", 4.0, 10.0, "4.0-10.0"),
        R("Trombocyten", 265, "10^9/l", 150, 400, "150-400"),
        R("BSE", 12, "mm/uur", None, 15, "<15"),
    ]
    chem = [
        R("Glucose nuchter", 6.4, "mmol/l", 4.0, 6.0, "4.0-6.0", flag="H"),
        R("Kreatinine", 84, "µmol/l", 60, 110, "60-110"),
        R("eGFR (CKD-EPI)", ">90", "ml/min/1,73m2"),
        R("ALAT", 58, "U/l", None, 45, "<45", flag="H"),
        R("Gamma-GT", 41, "U/l", None, 55, "<55"),
        R("Cholesterol totaal", 5.8, "mmol/l", None, 5.0, "<5.0", flag="H"),
        R("HbA1c", 44, "mmol/mol", 20, 42, "20-42", flag="H"),
    ]
    endo = [
        R("TSH", 2.14, "mU/l", 0.40, 4.00, "0.40-4.00"),
        R("Vrij T4", 15.2, "pmol/l", 10.0, 23.0, "10.0-23.0"),
    ]

    def rows(rs):
        return [[c(r.name), c(r.value_text(True) + (f" {r.flag}" if r.flag else ""), " class='bold'" if r.flag else ""), c(r.unit),
                 c(r.range_text(True))] for r in rs]

    fields = [("Patiënt", "A. Example (M)"), ("Geboortedatum", "22-07-1984"), ("Afnamedatum", "28-01-2025 08:12"),
              ("Aanvrager", "Huisarts J. Voorbeeld"), ("Labnummer", "25-012345")]
    body = letterhead("Huisartsenlaboratorium Voorbeeld (fictief)", "Uitslagen laboratoriumonderzoek", fields)
    body += table(["Bepaling", "Uitslag", "Eenheid", "Referentiewaarden"],
                  ["Hematologie"] + rows(hema) + ["Klinische chemie"] + rows(chem) + ["Endocrinologie"] + rows(endo),
                  ["38%", "16%", "18%", "28%"])
    body += "<div class='small'>H = hoger dan de referentiewaarde, L = lager dan de referentiewaarde. Geautoriseerd door: dr. M. Voorbeeld, klinisch chemicus.</div>"
    expected = ([r.expected(1, "Hematologie", comma=True) for r in hema] + [r.expected(1, "Klinische chemie", comma=True) for r in chem]
                + [r.expected(1, "Endocrinologie", comma=True) for r in endo])
    write(out, heldout("uitslag-dutch"), "Uitslagen", body, expected, "2025-01-28")


def layout_lipid_risk_category(out):
    """A cardiometabolic panel: 'Test | Result | Flag | Units | Reference Range | Risk
    Category', the last column holding words (Borderline high, Average risk, Desirable) that
    are an interpretation, not the flag; the flag is the H/L of the Flag column. Interpretive
    small print below the table quotes category cut-offs in sentences."""
    lipids = [
        (R("Total Cholesterol", 224, "mg/dL", None, 200, "< 200", flag="H"), "Borderline high"),
        (R("HDL Cholesterol", 38, "mg/dL", 40, None, ">= 40", flag="L"), "Low (risk factor)"),
        (R("LDL Cholesterol, Calculated", 126, "mg/dL", None, 130, "< 130"), "Near optimal"),
        (R("Triglycerides", 162, "mg/dL", None, 150, "< 150", flag="H"), "Borderline high"),
        (R("Non-HDL Cholesterol", 186, "mg/dL", None, 130, "< 130", flag="H"), "Borderline high"),
        (R("Cholesterol/HDL Ratio", 5.9, None, None, 5.0, "< 5.0", flag="H"), "Above average risk"),
    ]
    markers = [
        (R("hs-CRP", 2.4, "mg/L", None, 3.0, "< 3.0"), "Average risk"),
        (R("Lipoprotein (a)", 32, "nmol/L", None, 75, "< 75"), "Desirable"),
        (R("Apolipoprotein B", 104, "mg/dL", None, 90, "< 90", flag="H"), "Borderline high"),
    ]

    def rows(rs):
        return [[c(r.name), c(r.value_text()), c(r.flag or "", " class='bold'"), c(r.unit or ""), c(r.rtext), c(k)] for r, k in rs]

    fields = [("Patient", "Alex Example"), ("Date of birth", "07/22/1984"), ("Collection Date", "Jun 17, 2025 7:52 AM"),
              ("Fasting", "Yes, 12 hours"), ("Ordering provider", "Dr. Sample, Cardiology")]
    body = NOWRAP + letterhead("Heartland Cardiology Lab (fictitious)", "Cardiometabolic Risk Report", fields)
    widths = ["31%", "9%", "6%", "10%", "19%", "25%"]
    headers = ["Test", "Result", "Flag", "Units", "Reference Range", "Risk Category"]
    body += "<h2>Lipid Panel</h2><div style='font-size:9pt'>" + table(headers, rows(lipids), widths) + "</div>"
    body += "<h2>Cardiac Risk Markers</h2><div style='font-size:9pt'>" + table(headers, rows(markers), widths) + "</div>"
    body += ("<div class='small' style='margin-top:4mm'>Risk categories follow NCEP ATP III and AHA/CDC guidance. LDL cholesterol is "
             "optimal below 100, near optimal from 100 to 129, borderline high from 130 to 159 and high from 160 mg/dL. hs-CRP below "
             "1 mg/L indicates lower, 1 to 3 average and above 3 higher cardiovascular risk. Lipoprotein (a) of 125 nmol/L or more is "
             "considered a risk-enhancing factor.</div>")
    expected = [r.expected(1, "Lipid Panel") for r, _ in lipids] + [r.expected(1, "Cardiac Risk Markers") for r, _ in markers]
    write(out, heldout("lipid-risk-category"), "Risk report", body, expected, "2025-06-17")


def layout_current_previous_change(out):
    """A hospital diabetes-clinic report with the previous result beside the current one:
    'Test | Current 14/04/2025 | Previous 13/01/2025 | Change | Units | Reference Range'. Both
    result columns carry their own H/L; the row's value and flag are the current ones."""
    data = [
        ("Renal function", [
            (R("Sodium", 141, "mmol/L", 135, 145, "135 - 145"), "139", "+2"),
            (R("Potassium", 5.4, "mmol/L", 3.5, 5.2, "3.5 - 5.2", flag="H"), "4.9", "+0.5"),
            (R("Urea", 7.6, "mmol/L", 2.5, 7.8, "2.5 - 7.8"), "6.1", "+1.5"),
            (R("Creatinine", 112, "umol/L", 60, 110, "60 - 110", flag="H"), "98", "+14"),
            (R("eGFR", 68, "mL/min/1.73m2", 60, None, "> 60"), "80", "-12"),
        ]),
        ("Diabetes", [
            (R("HbA1c (IFCC)", 58, "mmol/mol", 20, 41, "20 - 41", flag="H"), "64 H", "-6"),
            (R("Fasting glucose", 7.9, "mmol/L", 3.0, 6.0, "3.0 - 6.0", flag="H"), "8.6 H", "-0.7"),
            (R("Urine albumin:creatinine ratio", 4.2, "mg/mmol", None, 3.0, "< 3.0", flag="H"), "2.8", "+1.4"),
        ]),
        ("Lipids", [
            (R("Total cholesterol", 4.6, "mmol/L", None, 5.0, "< 5.0"), "5.3 H", "-0.7"),
            (R("LDL cholesterol", 2.4, "mmol/L", None, 3.0, "< 3.0"), "3.1 H", "-0.7"),
            (R("HDL cholesterol", 1.1, "mmol/L", 1.0, None, "> 1.0"), "1.0", "+0.1"),
            (R("Triglycerides", 1.9, "mmol/L", None, 1.7, "< 1.7", flag="H"), "2.2 H", "-0.3"),
        ]),
    ]
    fields = [("Patient", "Alex Example"), ("Hospital number", "X000123"), ("Date of birth", "22/07/1984"),
              ("Collected", "14/04/2025 08:20"), ("Clinic", "Diabetes outpatients")]
    body = letterhead("St Example's Hospital (fictitious)", "Clinical Biochemistry: diabetes review results", fields)
    rows = []
    for heading, results in data:
        rows.append(heading)
        for r, previous, change in results:
            current = r.value_text() + (f" {r.flag}" if r.flag else "")
            rows.append([c(r.name), c(current, " class='bold'"), c(previous, " class='small'"), c(change, " class='small'"), c(r.unit), c(r.rtext)])
    body += "<div style='font-size:9pt'>" + table(["Test", "Current 14/04/2025", "Previous 13/01/2025", "Change", "Units", "Reference Range"],
                                                  rows, ["33%", "13%", "13%", "8%", "15%", "18%"]) + "</div>"
    body += "<div class='small'>H = above reference range, L = below reference range. Change is current minus previous.</div>"
    expected = [r.expected(1, heading) for heading, results in data for r, _, _ in results]
    write(out, heldout("current-previous-change"), "Diabetes review", body, expected, "2025-04-14")


def layout_two_page_running_banner(out):
    """Two pages, each with the same running header (laboratory name and a patient banner
    carrying the collection date) and a 'Page n of 2' footer; the table header is printed on
    page 1 only, and page 2 starts in the middle of the CBC panel, whose rows still belong to
    the heading printed on page 1."""
    cmp_ = [
        R("Glucose", 92, "mg/dL", 70, 99, "70 - 99"),
        R("BUN", 17, "mg/dL", 6, 24, "6 - 24"),
        R("Creatinine", 1.04, "mg/dL", 0.76, 1.27, "0.76 - 1.27"),
        R("eGFR", 91, "mL/min/1.73m2", 59, None, ">59"),
        R("Sodium", 138, "mmol/L", 134, 144, "134 - 144"),
        R("Potassium", 4.2, "mmol/L", 3.5, 5.2, "3.5 - 5.2"),
        R("Chloride", 101, "mmol/L", 96, 106, "96 - 106"),
        R("Carbon Dioxide, Total", 24, "mmol/L", 20, 29, "20 - 29"),
        R("Calcium", 9.8, "mg/dL", 8.7, 10.2, "8.7 - 10.2"),
        R("Protein, Total", 7.0, "g/dL", 6.0, 8.5, "6.0 - 8.5", dec=1),
        R("Albumin", 4.7, "g/dL", 3.8, 4.9, "3.8 - 4.9"),
        R("Bilirubin, Total", 1.4, "mg/dL", 0.0, 1.2, "0.0 - 1.2", flag="H"),
        R("Alkaline Phosphatase", 64, "IU/L", 44, 121, "44 - 121"),
        R("AST (SGOT)", 22, "IU/L", 0, 40, "0 - 40"),
        R("ALT (SGPT)", 19, "IU/L", 0, 44, "0 - 44"),
    ]
    cbc1 = [
        R("WBC", 3.2, "x10E3/uL", 3.4, 10.8, "3.4 - 10.8", flag="L"),
        R("RBC", 4.71, "x10E6/uL", 4.14, 5.80, "4.14 - 5.80"),
        R("Hemoglobin", 14.3, "g/dL", 13.0, 17.7, "13.0 - 17.7"),
        R("Hematocrit", 42.6, "%", 37.5, 51.0, "37.5 - 51.0"),
        R("MCV", 90, "fL", 79, 97, "79 - 97"),
        R("MCH", 30.4, "pg", 26.6, 33.0, "26.6 - 33.0"),
        R("MCHC", 33.6, "g/dL", 31.5, 35.7, "31.5 - 35.7"),
        R("RDW", 12.8, "%", 11.6, 15.4, "11.6 - 15.4"),
        R("Platelets", 188, "x10E3/uL", 150, 450, "150 - 450"),
    ]
    cbc2 = [
        R("Neutrophils", 48, "%", 40, 74, "40 - 74"),
        R("Lymphs", 39, "%", 14, 46, "14 - 46"),
        R("Monocytes", 9, "%", 4, 12, "4 - 12"),
        R("Eos", 3, "%", 0, 5, "0 - 5"),
        R("Basos", 1, "%", 0, 2, "0 - 2"),
        R("Neutrophils (Absolute)", 1.5, "x10E3/uL", 1.4, 7.0, "1.4 - 7.0"),
        R("Lymphs (Absolute)", 1.2, "x10E3/uL", 0.7, 3.1, "0.7 - 3.1"),
        R("Monocytes (Absolute)", 0.3, "x10E3/uL", 0.1, 0.9, "0.1 - 0.9"),
        R("Eos (Absolute)", 0.1, "x10E3/uL", 0.0, 0.4, "0.0 - 0.4"),
        R("Baso (Absolute)", 0.0, "x10E3/uL", 0.0, 0.2, "0.0 - 0.2", dec=1),
    ]
    lipids = [
        R("Cholesterol, Total", 171, "mg/dL", 100, 199, "100 - 199"),
        R("Triglycerides", 88, "mg/dL", 0, 149, "0 - 149"),
        R("HDL Cholesterol", 56, "mg/dL", 39, None, ">39"),
        R("LDL Chol Calc (NIH)", 99, "mg/dL", 0, 99, "0 - 99"),
    ]
    widths = ["38%", "13%", "8%", "17%", "24%"]
    header = ("<div style='display:flex; justify-content:space-between; font-size:9pt; border-bottom:2px solid #333; padding-bottom:1mm'>"
              "<span class='bold'>Granite Peak Medical Laboratory (fictitious)</span><span>Final Report</span></div>"
              "<table class='meta' style='font-size:8.5pt; background:#eee; margin:2mm 0 4mm 0'><tr>"
              "<td>Patient: EXAMPLE, ALEX</td><td>DOB: 07/22/1984</td><td>Sex: M</td><td>MRN: 00012345</td></tr><tr>"
              "<td>Accession: 25-050-0231</td><td>Collected: 02/19/2025 06:15</td><td>Received: 02/19/2025 09:40</td>"
              "<td>Ordering: Dr. Sample</td></tr></table>")

    def footer(n):
        return (f"<div class='small' style='position:absolute; bottom:0; left:0; right:0; border-top:1px solid #999; padding-top:1mm'>"
                f"Granite Peak Medical Laboratory · 200 Example Ave, Anytown, CO 00000 · Printed 02/20/2025 09:02 · Page {n} of 2</div>")

    def rows(rs):
        return "".join("<tr>" + f"<td>{esc(r.name)}</td><td>{esc(r.value_text())}</td><td class='bold'>{esc(r.flag or '')}</td>"
                       f"<td>{esc(r.unit)}</td><td>{esc(r.rtext)}</td></tr>" for r in rs)

    def panel(name):
        return f"<tr class='panel'><td colspan='5'>{esc(name)}</td></tr>"

    cols = "<colgroup>" + "".join(f"<col style='width:{w}'>" for w in widths) + "</colgroup>"
    body = f"<div style='position:relative; height:255mm'>{header}"
    body += "<div class='small' style='margin-bottom:2mm'>Synthetic sample for phr, not a real medical record</div>"
    body += (f"<table>{cols}<thead><tr><th>Test</th><th>Result</th><th>Flag</th><th>Units</th><th>Reference Interval</th></tr></thead><tbody>"
             + panel("Comp. Metabolic Panel (14)") + rows(cmp_) + panel("CBC With Differential/Platelet") + rows(cbc1)
             + "</tbody></table>" + footer(1) + "</div>")
    body += (f"<div style='position:relative; height:255mm; page-break-before:always'>{header}<table>{cols}<tbody>"
             + rows(cbc2) + panel("Lipid Panel") + rows(lipids) + "</tbody></table>"
             + "<div style='margin-top:6mm'>Electronically signed by J. Example, MD, Laboratory Director</div>"
             + "<div style='text-align:center; margin-top:4mm'>*** End of Report ***</div>" + footer(2) + "</div>")
    expected = ([r.expected(1, "Comp. Metabolic Panel (14)") for r in cmp_] + [r.expected(1, "CBC With Differential/Platelet") for r in cbc1]
                + [r.expected(2, "CBC With Differential/Platelet") for r in cbc2] + [r.expected(2, "Lipid Panel") for r in lipids])
    write(out, heldout("two-page-running-banner"), "Final report", body, expected, "2025-02-19")


def layout_monospace_lis(out):
    """A hospital laboratory-system printout in a fixed-width font (the kind printed from the
    emergency department): upper-case names indented under upper-case panel lines, columns
    'RESULT  FLAG  REFERENCE  UNITS' aligned with spaces, the range in parentheses before the
    unit, and a critical-call comment line under a critical result."""
    cbc = [
        R("WBC", 11.9, "K/uL", 4.5, 11.0, "4.5-11.0", flag="H"),
        R("RBC", 4.62, "M/uL", 4.50, 5.90, "4.50-5.90"),
        R("HGB", 13.8, "g/dL", 13.5, 17.5, "13.5-17.5"),
        R("HCT", 41.2, "%", 41.0, 53.0, "41.0-53.0"),
        R("MCV", 89.2, "fL", 80.0, 100.0, "80.0-100.0"),
        R("PLT", 412, "K/uL", 150, 400, "150-400", flag="H"),
    ]
    bmp = [
        R("SODIUM", 133, "mmol/L", 136, 145, "136-145", flag="L"),
        R("POTASSIUM", 2.8, "mmol/L", 3.5, 5.1, "3.5-5.1", flag="LL"),
        R("CHLORIDE", 98, "mmol/L", 98, 107, "98-107"),
        R("CO2", 22, "mmol/L", 21, 31, "21-31"),
        R("BUN", 18, "mg/dL", 7, 25, "7-25"),
        R("CREATININE", 1.1, "mg/dL", 0.7, 1.3, "0.7-1.3"),
        R("GLUCOSE", 212, "mg/dL", 70, 99, "70-99", flag="H"),
        R("CALCIUM", 8.9, "mg/dL", 8.6, 10.3, "8.6-10.3"),
    ]
    other = [
        R("LACTIC ACID", 2.4, "mmol/L", 0.5, 2.0, "0.5-2.0", flag="H"),
        R("MAGNESIUM", 1.9, "mg/dL", 1.6, 2.6, "1.6-2.6"),
    ]

    def line(r):
        return f"  {r.name:<26}{r.value_text():>8}    {r.flag or '':<4}  {'(' + r.rtext + ')':<14}{r.unit}"

    head = [
        "LAKESIDE REGIONAL HOSPITAL - LABORATORY (fictitious)              RUN DATE: 04/14/2025",
        "Synthetic sample for phr, not a real medical record               RUN TIME: 0712",
        "",
        "PATIENT: EXAMPLE,ALEX           ACCT: E0001234567        LOC: ED",
        "AGE/SX: 40/M   DOB: 07/22/1984  ATTEND: SAMPLE,JAMIE MD",
        "SPEC #: 0414:H00123R            COLLECTED: 04/14/2025 06:15",
        "STATUS: COMP                    RECEIVED:  04/14/2025 06:31",
        "",
        "-" * 86,
        f"{'TEST':<28}{'RESULT':>8}    {'FLAG':<4}  {'REFERENCE':<14}UNITS",
        "-" * 86,
        "",
        "CBC",
    ]
    lines = head + [line(r) for r in cbc] + ["", "BASIC METABOLIC PANEL"]
    for r in bmp:
        lines.append(line(r))
        if r.flag == "LL":
            lines.append("      CRITICAL RESULT CALLED TO AND READ BACK BY J DOE RN 04/14/2025 0650")
    lines += ["", "MISCELLANEOUS CHEMISTRY"] + [line(r) for r in other]
    lines += ["", "FLAGS: L=LOW H=HIGH LL=CRITICAL LOW HH=CRITICAL HIGH", "", " " * 30 + "** END OF REPORT **"]
    body = "<pre style=\"font-family:'DejaVu Sans Mono', monospace; font-size:8.6pt; line-height:1.35\">" + esc("\n".join(lines)) + "</pre>"
    expected = ([r.expected(1, "CBC") for r in cbc] + [r.expected(1, "BASIC METABOLIC PANEL") for r in bmp]
                + [r.expected(1, "MISCELLANEOUS CHEMISTRY") for r in other])
    write(out, heldout("monospace-lis"), "Lab printout", body, expected, "2025-04-14")


def layout_technology_column(out):
    """An Indian wellness-package report: 'TEST NAME | TECHNOLOGY | VALUE | UNITS | REFERENCE
    RANGE', the method (C.L.I.A, PHOTOMETRY, CALCULATED) printed between the name and the value;
    no flags at all, the abnormal values only in bold."""
    sections = [
        ("THYROID PROFILE - TOTAL", [
            (R("TOTAL TRIIODOTHYRONINE (T3)", 118, "ng/dL", 60, 200, "60-200"), "C.L.I.A"),
            (R("TOTAL THYROXINE (T4)", 8.4, "µg/dL", 4.5, 12.0, "4.5-12.0"), "C.L.I.A"),
            (R("THYROID STIMULATING HORMONE (TSH)", 5.62, "µIU/mL", 0.30, 5.50, "0.30-5.50"), "C.L.I.A"),
        ]),
        ("IRON DEFICIENCY PROFILE", [
            (R("IRON", 58, "µg/dL", 65, 175, "65-175"), "PHOTOMETRY"),
            (R("TOTAL IRON BINDING CAPACITY (TIBC)", 392, "µg/dL", 225, 535, "225-535"), "PHOTOMETRY"),
            (R("% TRANSFERRIN SATURATION", 14.8, "%", 13, 45, "13-45"), "CALCULATED"),
            (R("FERRITIN", 22.6, "ng/mL", 15, 150, "15-150"), "C.L.I.A"),
        ]),
        ("VITAMINS", [
            (R("25-OH VITAMIN D (TOTAL)", 18.4, "ng/mL", 30, 100, "30-100"), "C.L.I.A"),
            (R("VITAMIN B-12", 245, "pg/mL", 211, 911, "211-911"), "C.L.I.A"),
        ]),
    ]
    fields = [("Name", "ALEX EXAMPLE (40Y/M)"), ("Ref. By", "SELF"), ("Sample Collected on (SCT)", "22 Mar 2025 07:30"),
              ("Sample Received on (SRT)", "22 Mar 2025 15:22"), ("Report Released on (RRT)", "23 Mar 2025 10:05"),
              ("Sample Type", "SERUM"), ("Barcode", "AB123456")]
    body = NOWRAP + letterhead("Example Wellness Labs Pvt. Ltd. (fictitious)", "WELLNESS PACKAGE REPORT", fields)
    rows = []
    expected = []
    for heading, results in sections:
        rows.append(heading)
        for r, tech in results:
            abnormal = (r.low is not None and r.value < r.low) or (r.high is not None and r.value > r.high)
            rows.append([c(r.name), c(tech, " class='small'"), c(r.value_text(), " class='bold'" if abnormal else ""), c(r.unit), c(r.rtext)])
            expected.append(r.expected(1, heading))
    body += "<div style='font-size:9pt'>" + table(["TEST NAME", "TECHNOLOGY", "VALUE", "UNITS", "REFERENCE RANGE"], rows,
                                                  ["44%", "14%", "9%", "12%", "21%"]) + "</div>"
    body += ("<div class='small'>Please correlate with clinical conditions. Method: C.L.I.A = chemiluminescence immunoassay. "
             "~~ End of report ~~</div>")
    write(out, heldout("technology-column"), "Wellness report", body, expected, "2025-03-22")


LAYOUTS = [layout_in_range_out_of_range, layout_nhs_result_cell, layout_uitslag_dutch, layout_lipid_risk_category,
           layout_current_previous_change, layout_two_page_running_banner, layout_monospace_lis, layout_technology_column]
