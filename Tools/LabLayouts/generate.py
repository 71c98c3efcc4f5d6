#!/usr/bin/env python3
"""The lab-report layout corpus: reports laid out the many ways real laboratories print them,
written as HTML and printed to PDF by headless Chromium (the second generator beside the cairo
one in Tools/SampleGenerator). Every layout is written from one list of results, which is also
the ground truth: `NAME.expected.json` beside `NAME.pdf` holds the rows `phr lab extract` must
read, in the same form as Samples/lab-reports.

    Tools/LabLayouts/generate.py OUTPUT_DIRECTORY [--html-only]

Everything here is synthetic: the laboratories, the patient (Alex Example, and Maria Example
for the layouts whose ranges depend on sex) and the values are made up.
"""
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile


class R:
    """One printed result. `value` is a number (printed with `dec` decimals) or a text
    (`Negative`, `<0.5`); `low`/`high` the bounds a reader should find, `rtext` the range as
    stored (the printed range without brackets, labels or unit), `flag` the stored flag code
    and `shown` how the layout prints it (defaults to the code)."""

    def __init__(self, name, value, unit=None, low=None, high=None, rtext=None, flag=None, dec=None, shown=None):
        self.name, self.value, self.unit = name, value, unit
        self.low, self.high, self.flag, self.shown = low, high, flag, shown
        if dec is None and isinstance(value, (int, float)):
            text = repr(float(value))
            dec = 0 if float(value).is_integer() else len(text.split(".")[1])
        self.dec = dec
        if rtext is None and (low is not None or high is not None):
            if low is not None and high is not None:
                rtext = f"{fmt(low, range_dec(low, high, dec))} - {fmt(high, range_dec(low, high, dec))}"
            elif high is not None:
                rtext = f"< {fmt(high, places(high))}"
            else:
                rtext = f"> {fmt(low, places(low))}"
        self.rtext = rtext

    def value_text(self, comma=False):
        if isinstance(self.value, str):
            return self.value
        return fmt(self.value, self.dec, comma)

    def range_text(self, comma=False):
        if self.rtext is None:
            return ""
        return self.rtext.replace(".", ",") if comma else self.rtext

    def expected(self, page, panel, comma=False, unit=True, rtext=None):
        row = {"page": page, "name": self.name}
        if isinstance(self.value, str):
            row["value_text"] = self.value
        else:
            row["value_number"] = float(self.value) if not float(self.value).is_integer() else int(self.value)
        if self.unit and unit:
            row["unit"] = self.unit
        if self.flag:
            row["flag"] = self.flag
        if panel:
            row["panel"] = panel
        if self.low is not None:
            row["range_low"] = self.low
        if self.high is not None:
            row["range_high"] = self.high
        text = rtext if rtext is not None else self.range_text(comma)
        if text:
            row["range_text"] = text
        return row


def places(number):
    text = repr(float(number))
    return 0 if float(number).is_integer() else len(text.split(".")[1])


def range_dec(low, high, dec):
    return max(places(low), places(high))


def fmt(number, dec, comma=False):
    text = f"{number:.{dec}f}"
    return text.replace(".", ",") if comma else text


FLAG_WORDS = {"H": "High", "L": "Low", "HH": "Critical high", "LL": "Critical low", "N": "Normal", "A": "Abnormal"}

STYLE = """
@page { size: A4; margin: 16mm 15mm 18mm 15mm; }
body { font-family: 'DejaVu Sans', sans-serif; font-size: 10pt; color: #111; }
h1 { font-size: 15pt; margin: 0 0 2mm 0; }
h2 { font-size: 12pt; margin: 5mm 0 2mm 0; }
.small { font-size: 8pt; color: #444; }
table { border-collapse: collapse; width: 100%; margin-bottom: 4mm; }
th { text-align: left; font-size: 9pt; border-bottom: 1px solid #333; padding: 1.2mm 2mm; }
td { padding: 1.1mm 2mm; vertical-align: top; }
tr.panel td { font-weight: bold; padding-top: 3mm; }
.bold { font-weight: bold; }
.red { color: #c00; }
.box { border: 1px solid #999; padding: 2mm 3mm; margin-bottom: 4mm; }
.meta td { padding: 0.6mm 2mm; }
"""


def page_html(title, body):
    return f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title><style>{STYLE}</style></head><body>{body}</body></html>"


def esc(text):
    return html.escape(text if text is not None else "")


def letterhead(lab, title, fields):
    cells = "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in fields)
    return f"<h1>{esc(lab)}</h1><div class='small'>Synthetic sample for phr, not a real medical record</div><h2>{esc(title)}</h2><table class='meta box'>{cells}</table>"


def table(headers, rows, widths=None):
    cols = "".join(f"<col style='width:{w}'>" for w in widths) if widths else ""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = ""
    for row in rows:
        if isinstance(row, str):
            body += f"<tr class='panel'><td colspan='{len(headers)}'>{esc(row)}</td></tr>"
        else:
            body += "<tr>" + "".join(f"<td{attr}>{text}</td>" for text, attr in row) + "</tr>"
    return f"<table><colgroup>{cols}</colgroup><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def c(text, attr=""):
    return (esc(text), attr)


# ---------------------------------------------------------------------------- the results

CBC = [
    R("Haemoglobin", 12.1, "g/dL", 13.0, 17.0, flag="L"),
    R("Total Leukocyte Count", 7.8, "10^3/uL", 4.0, 10.0),
    R("Platelet Count", 245, "10^3/uL", 150, 410),
    R("Haematocrit", 38.2, "%", 40.0, 50.0, flag="L"),
    R("MCV", 78.4, "fL", 83.0, 101.0, flag="L"),
    R("MCH", 25.9, "pg", 27.0, 32.0, flag="L"),
    R("MCHC", 31.6, "g/dL", 31.5, 34.5),
    R("RDW", 15.8, "%", 11.6, 14.0, flag="H"),
]

LIPIDS = [
    R("Total Cholesterol", 212, "mg/dL", None, 200, "< 200", flag="H"),
    R("HDL Cholesterol", 48, "mg/dL", 40, None, "> 40"),
    R("LDL Cholesterol", 138, "mg/dL", None, 130, "< 130", flag="H"),
    R("Triglycerides", 131, "mg/dL", None, 150, "< 150"),
]

CMP = [
    R("Glucose", 96, "mg/dL", 70, 99),
    R("Urea Nitrogen (BUN)", 14, "mg/dL", 7, 25),
    R("Creatinine", 0.92, "mg/dL", 0.60, 1.35),
    R("Sodium", 139, "mmol/L", 135, 146),
    R("Potassium", 4.6, "mmol/L", 3.5, 5.3),
    R("Chloride", 103, "mmol/L", 98, 110),
    R("Calcium", 9.6, "mg/dL", 8.6, 10.3),
    R("Albumin", 4.4, "g/dL", 3.6, 5.1),
    R("ALT", 52, "U/L", 9, 46, flag="H"),
    R("AST", 31, "U/L", 10, 40),
]


def write(out, name, title, body, rows, collected, patient=None, generator="chromium"):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"{name}.html"), "w", encoding="utf-8") as f:
        f.write(page_html(title, body))
    expected = {"document": f"{name}.pdf", "collected": collected, "rows": rows, "generator": generator}
    if patient:
        expected["patient"] = patient
    with open(os.path.join(out, f"{name}.expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")


US_FIELDS = [("Patient", "Alex Example"), ("Date of birth", "07/22/1984"), ("Collected", "04/14/2025 07:40"), ("Reported", "04/15/2025")]


def layout_observed_value(out):
    """An Indian-style report: 'Investigation | Observed Value | Unit | Biological Reference Interval'."""
    rows = [[c(r.name), c(r.value_text(), " class='bold'" if r.flag else ""), c(r.unit), c(r.range_text())] for r in CBC]
    body = letterhead("Sunrise Diagnostics (fictitious)", "Haematology", US_FIELDS)
    body += table(["Investigation", "Observed Value", "Unit", "Biological Reference Interval"], ["Complete Blood Count"] + rows)
    expected = [r.expected(1, "Complete Blood Count") for r in CBC]
    for e in expected:
        e.pop("flag", None)  # flags only in bold
    write(out, "observed-value-bold-flags", "Haematology", body, expected, "2025-04-14")


def layout_your_value(out):
    """A patient portal's printout: 'Component | Your Value | Standard Range | Units | Flag'
    (range before unit)."""
    rows = [[c(r.name), c(r.value_text()), c(r.range_text()), c(r.unit), c(FLAG_WORDS[r.flag] if r.flag else "")] for r in CMP]
    body = letterhead("MyHealth portal printout (fictitious)", "Comprehensive Metabolic Panel", US_FIELDS)
    body += table(["Component", "Your Value", "Standard Range", "Units", "Flag"], rows)
    write(out, "your-value-range-before-unit", "CMP", body, [r.expected(1, None) for r in CMP], "2025-04-14")


def layout_patient_result_status(out):
    """'Test Name | Patient Result | Status | Units | Reference': a Status column printing
    High/Low/Normal, which must become the flag and stay out of the unit."""
    data = LIPIDS + [R("Non-HDL Cholesterol", 164, "mg/dL", None, 130, "< 130", flag="H"), R("VLDL Cholesterol", 26, "mg/dL", 5, 40)]
    for r in data:
        if not r.flag:
            r.flag = "N"
    rows = [[c(r.name), c(r.value_text()), c(FLAG_WORDS[r.flag]), c(r.unit), c(r.range_text())] for r in data]
    body = letterhead("Hillside Clinical Lab (fictitious)", "Lipid Profile", US_FIELDS)
    body += table(["Test Name", "Patient Result", "Status", "Units", "Reference"], rows)
    write(out, "patient-result-status-column", "Lipids", body, [r.expected(1, "Lipid Profile" if False else None) for r in data], "2025-04-14")


def layout_resultado(out):
    """A Spanish report, decimal commas: 'Prueba | Resultado | Unidades | Valores de referencia'."""
    data = [
        R("Hemoglobina", 14.2, "g/dL", 12.0, 16.0),
        R("Hematocrito", 42.5, "%", 36.0, 46.0),
        R("Leucocitos", 11.3, "10^3/µL", 4.5, 11.0, flag="H"),
        R("Plaquetas", 312, "10^3/µL", 150, 450),
        R("Glucosa", 104, "mg/dL", 70, 100, flag="H"),
        R("Creatinina", 0.81, "mg/dL", 0.5, 1.1, rtext="0,50 - 1,10"),
        R("Colesterol total", 188, "mg/dL", None, 200, "< 200"),
        R("Triglicéridos", 97, "mg/dL", None, 150, "< 150"),
    ]
    rows = [[c(r.name), c(r.value_text(True) + (" " + r.flag if r.flag else "")), c(r.unit), c(r.range_text(True))] for r in data]
    fields = [("Paciente", "Alex Example"), ("Fecha de nacimiento", "22/07/1984"), ("Fecha de extracción", "14/04/2025"), ("Médico", "Dra. Ana Ejemplo")]
    body = letterhead("Laboratorio Clínico Ejemplo (ficticio)", "Informe de resultados", fields)
    body += table(["Prueba", "Resultado", "Unidades", "Valores de referencia"], ["Hematología"] + rows[:4] + ["Bioquímica"] + rows[4:])
    expected = [r.expected(1, "Hematología" if i < 4 else "Bioquímica", comma=True) for i, r in enumerate(data)]
    expected[5]["range_text"] = "0,50 - 1,10"
    write(out, "resultado-spanish", "Informe", body, expected, "2025-04-14")


def layout_valeur_previous(out):
    """A French report: 'Analyse | Valeur | Unité | Valeurs de référence | Antériorité', the
    last column holding the previous result, which is not this result's range or unit."""
    data = [
        R("Hémoglobine", 13.1, "g/dL", 13.0, 17.0),
        R("Leucocytes", 6.2, "G/L", 4.0, 10.0),
        R("Plaquettes", 228, "G/L", 150, 400),
        R("Ferritine", 18, "ng/mL", 30, 400, flag="L"),
        R("Créatinine", 74, "µmol/L", 59, 104),
        R("TSH", 2.35, "mUI/L", 0.27, 4.2),
    ]
    previous = ["12,8", "5,9", "241", "22", "71", "2,10"]
    rows = [[c(r.name), c(r.value_text(True) + (" *" if r.flag else "")), c(r.unit), c(r.range_text(True)), c(p, " class='small'")]
            for r, p in zip(data, previous)]
    fields = [("Patient", "Alex Example"), ("Né le", "22/07/1984"), ("Prélèvement le", "14/04/2025 à 08:05"), ("Prescripteur", "Dr Exemple")]
    body = letterhead("Laboratoire de biologie médicale Exemple (fictif)", "Compte rendu d'analyses", fields)
    body += table(["Analyse", "Valeur", "Unité", "Valeurs de référence", "Antériorité"], rows)
    write(out, "valeur-french-previous-column", "Compte rendu", body, [r.expected(1, None, comma=True) for r in data], "2025-04-14")


def layout_wert_method(out):
    """A German report with a Method column ('Parameter | Wert | Einheit | Referenzbereich | Methode')."""
    data = [
        R("Natrium", 141, "mmol/L", 135, 145),
        R("Kalium", 5.6, "mmol/L", 3.5, 5.1, flag="H"),
        R("Kreatinin", 1.02, "mg/dL", 0.7, 1.2, rtext="0,70 - 1,20"),
        R("GPT (ALT)", 38, "U/L", None, 50, "< 50"),
        R("Gamma-GT", 71, "U/L", None, 60, "< 60", flag="H"),
        R("CRP", 2.1, "mg/L", None, 5.0, "< 5,0"),
        R("HbA1c", 5.9, "%", 4.0, 5.6, flag="H"),
    ]
    methods = ["ISE indirekt", "ISE indirekt", "Enzymatisch", "IFCC", "IFCC", "Immunturbidimetrie", "HPLC"]
    rows = [[c(r.name), c(r.value_text(True) + (" +" if r.flag == "H" else "")), c(r.unit), c(r.range_text(True)), c(m)] for r, m in zip(data, methods)]
    fields = [("Patient", "Alex Example"), ("Geburtsdatum", "22.07.1984"), ("Entnahme", "14.04.2025 07:55"), ("Einsender", "Praxis Dr. Beispiel")]
    body = letterhead("MVZ Labor Beispielstadt (fiktiv)", "Laborbefund", fields)
    body += table(["Parameter", "Wert", "Einheit", "Referenzbereich", "Methode"], rows)
    expected = [r.expected(1, None, comma=True) for r in data]
    expected[2]["range_text"] = "0,70 - 1,20"
    write(out, "wert-german-method-column", "Laborbefund", body, expected, "2025-04-14")


def lines_body(lab, title, fields, sections, render):
    body = letterhead(lab, title, fields)
    for heading, results in sections:
        if heading:
            body += f"<h2>{esc(heading)}</h2>"
        body += "".join(f"<div style='margin:1.4mm 0'>{render(r)}</div>" for r in results)
    return body


def layout_colon_lines(out):
    """Results written as lines: 'Haemoglobin: 13.2 g/dL (Ref: 13.0 - 17.0)'."""
    data = [
        R("Haemoglobin", 13.2, "g/dL", 13.0, 17.0),
        R("White cell count", 11.6, "x10^9/L", 4.0, 11.0, flag="H"),
        R("Platelets", 190, "x10^9/L", 150, 400),
        R("Ferritin", 24, "ug/L", 30, 400, flag="L"),
        R("Vitamin B12", 310, "ng/L", 197, 771),
        R("Folate", 6.1, "ug/L", 3.9, 26.8),
    ]

    def render(r):
        flag = f" {r.flag}" if r.flag else ""
        return esc(f"{r.name}: {r.value_text()} {r.unit}{flag} (Ref: {r.range_text()})")

    body = lines_body("Northfield GP Surgery (fictitious)", "Blood test results", US_FIELDS[:3], [("Full blood count and haematinics", data)], render)
    write(out, "lines-colon-ref", "Results", body, [r.expected(1, "Full blood count and haematinics") for r in data], "2025-04-14")


def layout_dot_leaders(out):
    """'Glucose, fasting ........ 5.4 mmol/L  [3.9-5.5]', flags in brackets."""
    data = [
        R("Glucose, fasting", 5.4, "mmol/L", 3.9, 5.5, rtext="3.9-5.5"),
        R("HbA1c", 41, "mmol/mol", 20, 41, rtext="20-41"),
        R("Cholesterol", 5.9, "mmol/L", None, 5.0, "<5.0", flag="H"),
        R("HDL cholesterol", 1.1, "mmol/L", 1.0, None, ">1.0"),
        R("Triglycerides", 2.3, "mmol/L", None, 1.7, "<1.7", flag="H"),
        R("eGFR", 78, "mL/min/1.73m2", 60, None, ">60"),
    ]

    def render(r):
        flag = f" [{r.flag}]" if r.flag else ""
        dots = "." * max(4, 34 - len(r.name))
        return f"<span style='font-family:DejaVu Sans Mono'>{esc(r.name)} {dots} {esc(r.value_text())} {esc(r.unit)}  [{esc(r.range_text())}]{flag}</span>"

    body = lines_body("Riverside Pathology (fictitious)", "Cardiovascular risk screen", US_FIELDS[:3], [(None, data)], render)
    write(out, "lines-dot-leaders-brackets", "Screen", body, [r.expected(1, None) for r in data], "2025-04-14")


def layout_bullets(out):
    """A letter from a word processor: '• Name: value unit (Normal)' and '(High)'."""
    data = [
        R("TSH", 5.8, "mIU/L", flag="H"),
        R("Free T4", 12.4, "pmol/L", flag="N"),
        R("Vitamin D", 42, "nmol/L", flag="L"),
        R("Ferritin", 88, "ug/L", flag="N"),
        R("CRP", 3, "mg/L", flag="N"),
    ]

    def render(r):
        return esc(f"• {r.name}: {r.value_text()} {r.unit} ({FLAG_WORDS[r.flag]})")

    body = letterhead("Dr. Example's practice (fictitious)", "Your recent blood tests", US_FIELDS[:3])
    body += "<p>Dear Alex, here are the results of the blood tests taken on 04/14/2025:</p>"
    body += "".join(f"<div style='margin:1.2mm 0 1.2mm 6mm'>{render(r)}</div>" for r in data)
    body += "<p>Please book a follow-up appointment to discuss your thyroid results.</p>"
    write(out, "bullets-letter", "Letter", body, [r.expected(1, None) for r in data], "2025-04-14")


def layout_no_header_panels(out):
    """Short panels with no header row at all: name, value, unit and range in a ruled grid."""
    data = [("HbA1c", [R("Hemoglobin A1c", 6.1, "%", 4.0, 5.6, flag="H"), R("Estimated Average Glucose", 128, "mg/dL")]),
            ("Thyroid", [R("TSH", 1.92, "uIU/mL", 0.45, 4.5), R("Free T4", 1.21, "ng/dL", 0.82, 1.77)]),
            ("Iron", [R("Iron", 62, "ug/dL", 38, 169), R("TIBC", 386, "ug/dL", 250, 450), R("Ferritin", 41, "ng/mL", 30, 400)])]
    body = letterhead("Lakeview Medical Laboratory (fictitious)", "Results", US_FIELDS)
    expected = []
    for heading, results in data:
        body += f"<h2>{esc(heading)}</h2><table>"
        for r in results:
            flag = f" {r.flag}" if r.flag else ""
            body += f"<tr><td style='width:40%'>{esc(r.name)}</td><td style='width:15%'>{esc(r.value_text() + flag)}</td><td style='width:15%'>{esc(r.unit)}</td><td>{esc(r.range_text())}</td></tr>"
            expected.append(r.expected(1, heading))
        body += "</table>"
    write(out, "no-header-short-panels", "Results", body, expected, "2025-04-14")


def layout_continuation(out):
    """Two pages: the header row on the first only; the second page continues the table under a
    running header and footer ('Page 2 of 2', the accreditation line) that are not panels."""
    page1 = CBC
    page2 = CMP
    header = "<div class='small'>Meadow Reference Laboratory (fictitious) · Patient: Alex Example · DOB 07/22/1984</div>"
    footer = lambda n: f"<div class='small' style='position:absolute; bottom:0'>CAP accredited laboratory #0000000 · CLIA 00D0000000 · Page {n} of 2</div>"
    rows1 = [[c(r.name), c(r.value_text()), c(r.flag or ""), c(r.unit), c(r.range_text())] for r in page1]
    rows2 = [[c(r.name), c(r.value_text()), c(r.flag or ""), c(r.unit), c(r.range_text())] for r in page2]
    widths = ["36%", "14%", "8%", "16%", "26%"]
    body = f"<div style='position:relative; height:260mm'>{header}" + letterhead("Meadow Reference Laboratory (fictitious)", "Laboratory report", US_FIELDS)
    body += table(["Test", "Result", "Flag", "Units", "Reference Range"], ["Hematology"] + rows1, widths) + footer(1) + "</div>"
    body += f"<div style='position:relative; height:260mm; page-break-before:always'>{header}<table><colgroup>" + "".join(f"<col style='width:{w}'>" for w in widths) + "</colgroup><tbody>"
    body += "<tr class='panel'><td colspan='5'>Chemistry</td></tr>"
    body += "".join("<tr>" + "".join(f"<td>{t}</td>" for t, _ in row) + "</tr>" for row in rows2)
    body += "</tbody></table>" + footer(2) + "</div>"
    expected = [r.expected(1, "Hematology") for r in page1] + [r.expected(2, "Chemistry") for r in page2]
    write(out, "continuation-page-no-header", "Report", body, expected, "2025-04-14")


def layout_flag_spellings(out):
    """Flags printed every way: [H], (L), *, ↑, ↓, HH, LL, critical, H* glued to the value."""
    data = [
        R("Sodium", 128, "mmol/L", 135, 145, flag="L", shown="(L)"),
        R("Potassium", 6.4, "mmol/L", 3.5, 5.1, flag="HH", shown="HH"),
        R("Glucose", 182, "mg/dL", 70, 99, flag="H", shown="[H]"),
        R("Calcium", 7.1, "mg/dL", 8.6, 10.3, flag="LL", shown="critical"),
        R("Magnesium", 1.5, "mg/dL", 1.7, 2.4, flag="L", shown="↓"),
        R("Phosphorus", 5.1, "mg/dL", 2.5, 4.5, flag="H", shown="↑"),
        R("Uric Acid", 8.9, "mg/dL", 3.5, 7.2, flag="A", shown="*"),
        R("Bilirubin, Total", 0.7, "mg/dL", 0.2, 1.2),
    ]
    rows = [[c(r.name), c(r.value_text()), c(r.shown or ""), c(r.unit), c(r.range_text())] for r in data]
    body = letterhead("Valley Hospital Laboratory (fictitious)", "Chemistry", US_FIELDS)
    body += table(["Test", "Result", "Abnormal", "Units", "Reference Range"], rows, ["34%", "14%", "14%", "14%", "24%"])
    expected = [r.expected(1, None) for r in data]
    # "critical" says how bad, not which way: the range says low.
    write(out, "flag-spellings", "Chemistry", body, expected, "2025-04-14")


def layout_range_with_unit(out):
    """No unit column: the unit is printed with the range ('13.0-17.0 g/dL') and after the value."""
    data = [
        R("Hemoglobin", 15.1, "g/dL", 13.0, 17.0, rtext="13.0-17.0"),
        R("Ferritin", 512, "ng/mL", 30, 400, rtext="30-400", flag="H"),
        R("Transferrin Saturation", 46, "%", 20, 50, rtext="20-50"),
        R("Vitamin B12", 402, "pg/mL", 232, 1245, rtext="232-1245"),
        R("Folate", 12.8, "ng/mL", 3.0, None, rtext=">3.0"),
        R("Vitamin D, 25-Hydroxy", 22, "ng/mL", 30, 100, rtext="30-100", flag="L"),
    ]
    rows = [[c(r.name), c(f"{r.value_text()} {r.unit}"), c(r.flag or ""), c(f"{r.rtext} {r.unit}")] for r in data]
    body = letterhead("Summit Lab Services (fictitious)", "Anemia and vitamin panel", US_FIELDS)
    body += table(["Test", "Result", "Flag", "Reference Range"], rows, ["38%", "20%", "10%", "32%"])
    write(out, "range-carries-unit", "Vitamins", body, [r.expected(1, None) for r in data], "2025-04-14")


def layout_one_sided(out):
    """One-sided ranges: '< 200', '>= 60', 'Up to 5.0', 'Desirable: < 200'."""
    data = [
        R("Cholesterol, Total", 186, "mg/dL", None, 200, "Desirable: < 200"),
        R("eGFR", 92, "mL/min/1.73m2", 60, None, ">= 60"),
        R("hs-CRP", 0.8, "mg/L", None, 1.0, "< 1.0"),
        R("PSA, Total", 0.9, "ng/mL", None, 4.0, "Up to 4.0"),
        R("Troponin I", "<0.01", "ng/mL", None, 0.04, "< 0.04"),
        R("Lipase", 28, "U/L", None, 60, "<= 60"),
    ]
    rows = [[c(r.name), c(r.value_text()), c(r.unit), c(r.range_text())] for r in data]
    body = letterhead("Cedar Diagnostics (fictitious)", "Results", US_FIELDS)
    body += table(["Test", "Result", "Units", "Reference Interval"], rows)
    exp = [r.expected(1, None) for r in data]
    write(out, "one-sided-ranges", "Results", body, exp, "2025-04-14")


def layout_sex_ranges(out):
    """Ranges by sex printed on several lines in one cell; the patient is female, so the
    female range is the one that counts, and the text of all is kept."""
    data = [
        (R("Hemoglobin", 11.6, "g/dL", 12.0, 15.5, flag="L"), ["Male: 13.5 - 17.5", "Female: 12.0 - 15.5"]),
        (R("Hematocrit", 36.9, "%", 35.0, 45.0), ["Male: 40.0 - 52.0", "Female: 35.0 - 45.0"]),
        (R("Ferritin", 14, "ng/mL", 15, 150, flag="L"), ["M: 30 - 400", "F: 15 - 150"]),
        (R("Creatinine", 0.71, "mg/dL", 0.51, 0.95), ["Men 0.67 - 1.17", "Women 0.51 - 0.95"]),
        (R("Uric Acid", 4.1, "mg/dL", 2.4, 5.7), ["Male 3.4 - 7.0", "Female 2.4 - 5.7"]),
    ]
    rows = [[c(r.name), c(r.value_text()), c(r.flag or ""), c(r.unit), ("<br>".join(esc(t) for t in texts), "")] for r, texts in data]
    fields = [("Patient", "Maria Example"), ("Sex", "Female"), ("Date of birth", "03/09/1990"), ("Collected", "04/14/2025 09:10")]
    body = letterhead("Harbor Laboratory (fictitious)", "Laboratory report", fields)
    body += table(["Test", "Result", "Flag", "Units", "Reference Range"], rows, ["34%", "14%", "8%", "14%", "30%"])
    expected = [r.expected(1, None, rtext="; ".join(texts)) for r, texts in data]
    write(out, "ranges-by-sex", "Report", body, expected, "2025-04-14", patient={"sex": "female", "date_of_birth": "1990-03-09"})


def layout_qualitative(out):
    """Qualitative results and comparators: urinalysis and serology."""
    ua = [
        R("Color", "Yellow", None, rtext="Yellow"),
        R("Appearance", "Clear", None, rtext="Clear"),
        R("Specific Gravity", 1.021, None, 1.005, 1.030, dec=3, rtext="1.005 - 1.030"),
        R("pH", 6.0, None, 5.0, 8.0, dec=1, rtext="5.0 - 8.0"),
        R("Protein", "Negative", None, rtext="Negative"),
        R("Glucose", "Negative", None, rtext="Negative"),
        R("Ketones", "Trace", None, flag="A", rtext="Negative"),
        R("Blood", "1+", None, flag="A", rtext="Negative"),
        R("Nitrite", "Negative", None, rtext="Negative"),
    ]
    sero = [
        R("Hepatitis B Surface Antigen", "Non-Reactive", None, rtext="Non-Reactive"),
        R("Hepatitis C Antibody", "Not Detected", None, rtext="Not Detected"),
        R("HIV-1/2 Antigen/Antibody", "Non-Reactive", None, rtext="Non-Reactive"),
        R("CRP", "<0.5", "mg/dL", None, 0.9, "< 0.9"),
        R("eGFR", ">90", "mL/min/1.73m2", 60, None, "> 59", ),
    ]
    sero[4].low = 59
    rows = lambda rs: [[c(r.name), c(r.value_text()), c(r.flag or ""), c(r.unit or ""), c(r.range_text())] for r in rs]
    body = letterhead("Bayside Clinical Laboratory (fictitious)", "Urinalysis and serology", US_FIELDS)
    body += table(["Test", "Result", "Flag", "Units", "Reference Range"], ["Urinalysis"] + rows(ua) + ["Serology"] + rows(sero), ["38%", "16%", "8%", "14%", "24%"])
    expected = [r.expected(1, "Urinalysis") for r in ua] + [r.expected(1, "Serology") for r in sero]
    write(out, "qualitative-and-comparators", "UA", body, expected, "2025-04-14")


def layout_markers_hormones(out):
    """Tumour markers and hormones, with a Specimen column and a Comment column."""
    data = [
        (R("CEA", 2.1, "ng/mL", None, 3.8, "< 3.8"), "Serum", ""),
        (R("CA 125", 41, "U/mL", None, 35, "< 35", flag="H"), "Serum", "Repeat in 6 weeks"),
        (R("AFP", 3.2, "ng/mL", None, 8.0, "< 8.0"), "Serum", ""),
        (R("CA 19-9", 12, "U/mL", None, 37, "< 37"), "Serum", ""),
        (R("Prolactin", 14.2, "ng/mL", 4.8, 23.3), "Serum", ""),
        (R("Cortisol, AM", 18.3, "ug/dL", 6.2, 19.4), "Serum", "Drawn 08:00"),
        (R("Testosterone, Total", 512, "ng/dL", 264, 916), "Serum", ""),
        (R("DHEA-Sulfate", 298, "ug/dL", 102, 416), "Serum", ""),
    ]
    rows = [[c(r.name), c(r.value_text()), c(r.flag or ""), c(r.unit), c(r.range_text()), c(s), c(m, " class='small'")] for r, s, m in data]
    body = letterhead("Pinecrest Specialty Lab (fictitious)", "Tumour markers and hormones", US_FIELDS)
    body += table(["Test", "Result", "Flag", "Units", "Ref. Range", "Specimen", "Comment"], rows, ["22%", "10%", "6%", "11%", "14%", "11%", "26%"])
    write(out, "markers-specimen-comment", "Markers", body, [r.expected(1, None) for r, _, _ in data], "2025-04-14")


def layout_coag_thyroid_two_tables(out):
    """Two tables with different columns on one page: the second under its own heading and
    header with the columns in another order."""
    coag = [R("Prothrombin Time", 13.9, "sec", 11.0, 13.5, flag="H"), R("INR", 1.2, None, 0.9, 1.1, flag="H"), R("aPTT", 31, "sec", 25, 37),
            R("Fibrinogen", 310, "mg/dL", 200, 400), R("D-Dimer", 0.32, "mg/L FEU", None, 0.5, "< 0.50")]
    thyroid = [R("TSH", 0.21, "mIU/L", 0.4, 4.0, flag="L"), R("Free T4", 1.9, "ng/dL", 0.8, 1.8, flag="H"), R("Free T3", 4.6, "pg/mL", 2.3, 4.2, flag="H"),
               R("TPO Antibodies", 8, "IU/mL", None, 35, "< 35")]
    body = letterhead("Eastgate Hospital Laboratory (fictitious)", "Coagulation and thyroid", US_FIELDS)
    body += "<h2>Coagulation</h2>" + table(["Test", "Result", "Flag", "Units", "Reference Range"],
                                          [[c(r.name), c(r.value_text()), c(r.flag or ""), c(r.unit or ""), c(r.range_text())] for r in coag])
    body += "<h2>Thyroid function</h2>" + table(["Analyte", "Reference Range", "Value", "Unit"],
                                               [[c(r.name), c(r.range_text()), c(r.value_text() + (" " + r.flag if r.flag else "")), c(r.unit)] for r in thyroid])
    expected = [r.expected(1, "Coagulation") for r in coag] + [r.expected(1, "Thyroid function") for r in thyroid]
    write(out, "two-tables-column-orders", "Coag", body, expected, "2025-04-14")


def layout_dutch_italian(out):
    """Italian: 'Esame | Risultato | Unità di misura | Valori di riferimento', ranges with 'a'."""
    data = [
        R("Emoglobina", 15.3, "g/dL", 13.0, 17.0, rtext="13,0 - 17,0"),
        R("Globuli bianchi", 5.4, "10^3/µL", 4.0, 10.0, rtext="4,0 - 10,0"),
        R("Piastrine", 201, "10^3/µL", 150, 400),
        R("Glicemia", 112, "mg/dL", 60, 110, flag="H"),
        R("Colesterolo totale", 231, "mg/dL", None, 200, "< 200", flag="H"),
        R("Colesterolo HDL", 52, "mg/dL", 40, None, "> 40"),
        R("Transaminasi GPT (ALT)", 24, "U/L", 10, 50),
    ]
    rows = [[c(r.name), c(r.value_text(True)), c(r.flag or ""), c(r.unit), c(r.range_text(True))] for r in data]
    fields = [("Paziente", "Alex Example"), ("Data di nascita", "22/07/1984"), ("Data prelievo", "14/04/2025"), ("Medico", "Dott. Esempio")]
    body = letterhead("Laboratorio Analisi Esempio (fittizio)", "Referto", fields)
    body += table(["Esame", "Risultato", "Flag", "Unità di misura", "Valori di riferimento"], rows, ["34%", "14%", "8%", "18%", "26%"])
    write(out, "risultato-italian", "Referto", body, [r.expected(1, None, comma=True) for r in data], "2025-04-14")


def layout_portal_cards(out):
    """A portal's 'card' printout: each result as a block, name on one line and 'value unit'
    with 'Normal range: a - b' on the next (no table at all)."""
    data = [
        R("Hemoglobin A1c", 5.4, "%", 4.0, 5.6),
        R("Glucose", 88, "mg/dL", 65, 99),
        R("LDL Cholesterol", 97, "mg/dL", 0, 99, rtext="0 - 99"),
        R("TSH", 2.1, "uIU/mL", 0.45, 4.5),
        R("Vitamin B12", 198, "pg/mL", 232, 1245, flag="L"),
    ]
    body = letterhead("MyChart-style portal printout (fictitious)", "Test results", US_FIELDS)
    for r in data:
        flag = f" ({FLAG_WORDS[r.flag]})" if r.flag else ""
        body += (f"<div style='border:1px solid #bbb; padding:2mm 3mm; margin:0 0 3mm 0'>"
                 f"<div class='bold'>{esc(r.name)}</div>"
                 f"<div>Your value: {esc(r.value_text())} {esc(r.unit)}{esc(flag)}</div>"
                 f"<div class='small'>Normal range: {esc(r.range_text())} {esc(r.unit)}</div></div>")
    write(out, "portal-cards", "Results", body, [r.expected(1, None) for r in data], "2025-04-14")


LAYOUTS = [layout_observed_value, layout_your_value, layout_patient_result_status, layout_resultado, layout_valeur_previous,
           layout_wert_method, layout_colon_lines, layout_dot_leaders, layout_bullets, layout_no_header_panels, layout_continuation,
           layout_flag_spellings, layout_range_with_unit, layout_one_sided, layout_sex_ranges, layout_qualitative,
           layout_markers_hormones, layout_coag_thyroid_two_tables, layout_dutch_italian, layout_portal_cards]


def print_pdf(html_path, pdf_path, profile):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not chromium:
        sys.exit("generate.py: chromium is not installed (make deps installs it)")
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer", f"--user-data-dir={profile}",
                    "--disable-extensions", "--no-first-run", f"--print-to-pdf={pdf_path}", "file://" + os.path.abspath(html_path)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import heldout  # the held-out layouts (heldout-*), written without looking at the reader
    import heldout2  # a second set of held-out layouts (heldout2-*), written the same way
    layouts = LAYOUTS + heldout.LAYOUTS + heldout2.LAYOUTS
    for layout in layouts:
        layout(out)
    if "--html-only" in sys.argv:
        return
    with tempfile.TemporaryDirectory() as profile:
        for name in sorted(f[:-5] for f in os.listdir(out) if f.endswith(".html")):
            html_path = os.path.join(out, f"{name}.html")
            print_pdf(html_path, os.path.join(out, f"{name}.pdf"), profile)
            os.remove(html_path)
    print(f"{len(layouts)} layouts in {out}")


if __name__ == "__main__":
    main()
