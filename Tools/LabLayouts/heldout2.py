"""Held-out layouts, second set: eight more report styles, written (like heldout.py) without
looking at how the reader works, so that they measure it rather than train it. Each function
takes the output directory as generate.py's layouts do, and its files are named `heldout2-*`.

Everything here is synthetic: laboratories, patients (Alex Example, and Sam Example, a child,
for the layout whose ranges depend on age) and values are made up.
"""
from generate import FLAG_WORDS, R, c, esc, letterhead, table, write


NOWRAP = "<style>th { white-space: nowrap; }</style>"


def heldout2(name):
    return f"heldout2-{name}"


def thousands(number):
    """A whole number with '.' as the thousands separator, as Brazilian reports print counts."""
    return f"{number:,}".replace(",", ".")


def layout_au_pathology(out):
    """An Australian community-pathology report: 'Test | Result | Units | Ref. Range', SI units
    (haemoglobin in g/L, bilirubin in umol/L), the H/L flag after the value in the result cell,
    every range in parentheses ('(135-145)', '(<40)'), upper-case section headings, a
    pathologist's comment paragraph under one section and day-first dates (Requested,
    Collected, Reported)."""
    sections = [
        ("HAEMATOLOGY", [
            R("Haemoglobin", 128, "g/L", 130, 180, "130-180", flag="L"),
            R("White Cell Count", 6.9, "x10^9/L", 4.0, 11.0, "4.0-11.0"),
            R("Platelets", 231, "x10^9/L", 150, 400, "150-400"),
            R("MCV", 81, "fL", 80, 100, "80-100"),
            R("Neutrophils", 4.1, "x10^9/L", 2.0, 8.0, "2.0-8.0"),
        ], None),
        ("BIOCHEMISTRY", [
            R("Sodium", 140, "mmol/L", 135, 145, "135-145"),
            R("Potassium", 5.6, "mmol/L", 3.5, 5.2, "3.5-5.2", flag="H"),
            R("Urea", 6.2, "mmol/L", 3.0, 8.0, "3.0-8.0"),
            R("Creatinine", 92, "umol/L", 60, 110, "60-110"),
            R("eGFR", ">90", "mL/min/1.73m2", 59, None, ">59"),
            R("Bilirubin", 12, "umol/L", None, 20, "<20"),
            R("ALT", 48, "U/L", None, 40, "<40", flag="H"),
            R("GGT", 35, "U/L", None, 50, "<50"),
            R("Albumin", 42, "g/L", 35, 50, "35-50"),
        ], "Comment: Potassium may be falsely raised by delayed separation of the sample. Suggest repeat "
           "in 1-2 weeks if clinically indicated. Mildly raised ALT, correlate with alcohol intake and medications."),
        ("LIPIDS", [
            R("Cholesterol", 5.8, "mmol/L", None, 5.5, "<5.5", flag="H"),
            R("Triglyceride", 1.6, "mmol/L", None, 2.0, "<2.0"),
            R("HDL Cholesterol", 1.2, "mmol/L", 1.0, None, ">1.0"),
            R("LDL Cholesterol", 3.9, "mmol/L", None, 3.5, "<3.5", flag="H"),
        ], None),
    ]
    fields = [("Patient", "EXAMPLE, Alex (M)"), ("DOB", "22/07/1984"), ("Lab No", "25-139-4471"), ("Requested", "16/05/2025"),
              ("Collected", "19/05/2025 08:10"), ("Reported", "19/05/2025 16:45"), ("Referring doctor", "Dr A Sample, Example Medical Centre")]
    body = NOWRAP + letterhead("Southern Cross Pathology (fictitious)", "Pathology Report", fields)
    rows, expected = [], []
    for heading, results, comment in sections:
        rows.append(heading)
        for r in results:
            result = r.value_text() + (f" {r.flag}" if r.flag else "")
            rows.append([c(r.name), c(result, " class='bold'" if r.flag else ""), c(r.unit), c(f"({r.rtext})")])
            expected.append(r.expected(1, heading))
        if comment:
            rows.append([(f"<span class='small'>{esc(comment)}</span>", " colspan='4' style='padding:1mm 2mm 2mm 8mm'")])
    body += "<div style='font-size:9.5pt'>" + table(["Test", "Result", "Units", "Ref. Range"], rows, ["40%", "18%", "20%", "22%"]) + "</div>"
    body += ("<div class='small'>Tests completed: FBC, E/LFT, Lipids. Results outside the reference range are flagged H (high) or L (low). "
             "NATA accredited laboratory 0000. Authorised by Dr B Example, Chemical Pathologist.</div>")
    write(out, heldout2("au-pathology"), "Pathology report", body, expected, "2025-05-19")


def layout_canadian_bilingual(out):
    """A Canadian community-laboratory report printed in English and French: every header
    bilingual ('Test / Analyse | Flag / Indicateur | Result / Résultat | Units / Unités |
    Reference / Référence'), the flag column BEFORE the result, bilingual section headings
    (kept whole as the panel), test names in English, SI units and ISO dates."""
    sections = [
        ("Hematology / Hématologie", [
            R("Hemoglobin", 142, "g/L", 135, 170, "135-170"),
            R("WBC", 11.8, "x10E9/L", 4.0, 11.0, "4.0-11.0", flag="H"),
            R("RBC", 4.92, "x10E12/L", 4.50, 6.00, "4.50-6.00"),
            R("Hematocrit", 0.43, "L/L", 0.40, 0.50, "0.40-0.50"),
            R("Platelet Count", 302, "x10E9/L", 150, 400, "150-400"),
        ]),
        ("Chemistry / Biochimie", [
            R("Glucose Fasting", 5.4, "mmol/L", 3.6, 6.0, "3.6-6.0"),
            R("Hemoglobin A1C", 6.2, "%", None, 6.0, "<6.0", flag="H"),
            R("Creatinine", 78, "umol/L", 60, 110, "60-110"),
            R("eGFR", 104, "mL/min/1.73m2", 60, None, ">=60"),
            R("ALT", 22, "U/L", None, 50, "<50"),
            R("Ferritin", 19, "ug/L", 30, 400, "30-400", flag="L"),
            R("TSH", 3.12, "mIU/L", 0.32, 4.00, "0.32-4.00"),
        ]),
    ]
    fields = [("Patient / Patient", "EXAMPLE, ALEX"), ("Date of birth / Date de naissance", "1984-07-22"),
              ("Health card / Carte santé", "0000-000-000"), ("Collection date / Date de prélèvement", "2025-03-11 08:45"),
              ("Reported / Date du rapport", "2025-03-12 14:20"), ("Ordering physician / Médecin traitant", "Dr. J. Sample")]
    body = NOWRAP + letterhead("Maple Community Laboratories / Laboratoires communautaires Érable (fictitious / fictif)",
                               "Laboratory Report / Rapport de laboratoire", fields)
    rows, expected = [], []
    for heading, results in sections:
        rows.append(heading)
        for r in results:
            rows.append([c(r.name), c(r.flag or "", " class='bold'"), c(r.value_text(), " class='bold'" if r.flag else ""), c(r.unit), c(r.rtext)])
            expected.append(r.expected(1, heading))
    body += "<div style='font-size:9pt'>" + table(["Test / Analyse", "Flag / Indicateur", "Result / Résultat", "Units / Unités", "Reference / Référence"],
                                                  rows, ["30%", "16%", "17%", "17%", "20%"]) + "</div>"
    body += ("<div class='small'>H = High / Élevé &nbsp; L = Low / Bas. Reference intervals are for adults. "
             "Les valeurs de référence s'appliquent aux adultes. Page 1 of / de 1</div>")
    write(out, heldout2("canadian-bilingual"), "Laboratory report", body, expected, "2025-03-11")


def layout_paediatric_age_bands(out):
    """A children's-hospital report for a 4-year-old boy: most reference cells print several
    age bands on separate lines ('2 - 6 y: 11.5 - 13.5'), others a single range. The band that
    holds the child's age (4 y 3 m at collection) gives range_low/high; range_text keeps all the
    bands, joined with '; ', as ranges-by-sex does for sexes."""
    data = [
        (R("Hemoglobin", 10.9, "g/dL", 11.5, 13.5, flag="L"),
         ["6 mo - 2 y: 10.5 - 13.5", "2 - 6 y: 11.5 - 13.5", "6 - 12 y: 11.5 - 15.5", "12 - 18 y: 13.0 - 16.0"]),
        (R("Hematocrit", 33.8, "%", 34.0, 40.0, flag="L"),
         ["6 mo - 2 y: 33.0 - 39.0", "2 - 6 y: 34.0 - 40.0", "6 - 12 y: 35.0 - 45.0", "12 - 18 y: 36.0 - 49.0"]),
        (R("MCV", 71, "fL", 75, 87, flag="L"), ["6 mo - 2 y: 70 - 86", "2 - 6 y: 75 - 87", "6 - 12 y: 77 - 95", "12 - 18 y: 78 - 98"]),
        (R("RDW", 16.1, "%", 11.5, 14.5, flag="H"), ["11.5 - 14.5"]),
        (R("WBC", 8.7, "10^3/uL", 5.0, 15.5),
         ["6 mo - 2 y: 6.0 - 17.5", "2 - 6 y: 5.0 - 15.5", "6 - 12 y: 4.5 - 13.5", "12 - 18 y: 4.5 - 11.0"]),
        (R("Platelets", 388, "10^3/uL", 150, 450), ["150 - 450"]),
        (R("Ferritin", 6, "ng/mL", 7, 140, flag="L"), ["7 - 140"]),
        (R("Alkaline Phosphatase", 238, "U/L", 156, 369), ["1 - 10 y: 156 - 369", "10 - 14 y: 141 - 460", "14 - 18 y: 82 - 331"]),
        (R("Creatinine", 0.32, "mg/dL", 0.20, 0.43),
         ["1 - 2 y: 0.12 - 0.32", "2 - 6 y: 0.20 - 0.43", "6 - 12 y: 0.31 - 0.61", "12 - 18 y: 0.45 - 0.81"]),
    ]
    rows = [[c(r.name), c(r.value_text(), " class='bold'" if r.flag else ""), c(r.flag or "", " class='bold'"), c(r.unit),
             ("<br>".join(esc(t) for t in texts), " class='small'" if len(texts) > 1 else "")] for r, texts in data]
    fields = [("Patient", "Sam Example"), ("Sex", "Male"), ("Date of birth", "11/23/2020"), ("Age", "4 y"),
              ("Collected", "02/27/2025 10:05"), ("Ordering provider", "Dr. Sample, Pediatrics")]
    body = NOWRAP + letterhead("Lighthouse Children's Hospital Laboratory (fictitious)", "Pediatric Laboratory Report", fields)
    body += table(["Test", "Result", "Flag", "Units", "Reference Range (by age)"], ["Hematology"] + rows[:7] + ["Chemistry"] + rows[7:],
                  ["28%", "12%", "8%", "14%", "38%"])
    body += "<div class='small'>Reference ranges are age-specific; y = years, mo = months. The flag is set against the range for the patient's age.</div>"
    expected = [r.expected(1, "Hematology" if i < 7 else "Chemistry", rtext="; ".join(texts)) for i, (r, texts) in enumerate(data)]
    write(out, heldout2("paediatric-age-bands"), "Pediatric report", body, expected, "2025-02-27",
          patient={"sex": "male", "date_of_birth": "2020-11-23"})


def layout_befund_vorwert(out):
    """A German hospital 'Laborbefund': 'Untersuchung | Ergebnis | (unlabelled flag column) |
    Einheit | Referenzbereich | Vorwert 12.11.2024', decimal commas, German units ('/nl',
    'mg/dl'), '+' for above and '-' for below the range in their own column (a legend under the
    table says so), and a previous-value column whose values may carry their own '+'/'-' and
    which is empty where the test was not done before. Entnahme is the collection date."""
    sections = [
        ("Kleines Blutbild", [
            (R("Leukozyten", 11.8, "/nl", 4.0, 10.0, "4.0 - 10.0", flag="H"), "7,2"),
            (R("Erythrozyten", 4.21, "/pl", 4.5, 5.9, "4.5 - 5.9", flag="L"), "4,48 -"),
            (R("Hämoglobin", 12.9, "g/dl", 14.0, 17.5, "14.0 - 17.5", flag="L"), "13,6 -"),
            (R("Hämatokrit", 38.4, "%", 40, 52, "40 - 52", flag="L"), "40,1"),
            (R("MCV", 91, "fl", 80, 96, "80 - 96"), "90"),
            (R("Thrombozyten", 286, "/nl", 150, 400, "150 - 400"), "261"),
        ]),
        ("Klinische Chemie", [
            (R("Natrium", 138, "mmol/l", 135, 145, "135 - 145"), "140"),
            (R("Kalium", 4.3, "mmol/l", 3.5, 5.1, "3.5 - 5.1"), "4,6"),
            (R("Kreatinin", 1.38, "mg/dl", 0.70, 1.20, "0.70 - 1.20", flag="H"), "1,19"),
            (R("eGFR (CKD-EPI)", 62, "ml/min/1,73m²", 60, None, "> 60"), "74"),
            (R("Harnstoff", 48, "mg/dl", 17, 43, "17 - 43", flag="H"), "39"),
            (R("CRP", 38.5, "mg/l", None, 5.0, "< 5.0", flag="H"), ""),
        ]),
        ("Gerinnung", [
            (R("Quick", 94, "%", 70, 130, "70 - 130"), "101"),
            (R("INR", 1.04, None, 0.85, 1.15, "0.85 - 1.15"), "0,98"),
        ]),
    ]
    shown = {"H": "+", "L": "-"}
    fields = [("Patient", "Example, Alex"), ("Geb.-Datum", "22.07.1984"), ("Auftragsnummer", "2506030117"), ("Entnahme", "03.06.2025 07:45"),
              ("Eingang", "03.06.2025 10:12"), ("Befund vom", "03.06.2025 15:30"), ("Station / Einsender", "Innere Medizin 2")]
    body = NOWRAP + letterhead("Klinikum Musterstadt, Zentrallabor (fiktiv)", "Laborbefund", fields)
    rows, expected = [], []
    for heading, results in sections:
        rows.append(heading)
        for r, previous in results:
            rows.append([c(r.name), c(r.value_text(True), " class='bold'" if r.flag else ""),
                         c(shown.get(r.flag, ""), " class='bold'"), c(r.unit or ""), c(r.range_text(True)), c(previous, " class='small'")])
            expected.append(r.expected(1, heading, comma=True))
    body += "<div style='font-size:9.5pt'>" + table(["Untersuchung", "Ergebnis", "", "Einheit", "Referenzbereich", "Vorwert 12.11.2024"],
                                                    rows, ["27%", "12%", "5%", "17%", "20%", "19%"]) + "</div>"
    body += ("<div class='small'>+ = oberhalb des Referenzbereichs, - = unterhalb des Referenzbereichs. Vorwerte vom 12.11.2024. "
             "Technisch und medizinisch validiert: Dr. med. K. Beispiel, Fachärztin für Laboratoriumsmedizin.</div>")
    write(out, heldout2("befund-vorwert"), "Laborbefund", body, expected, "2025-06-03")


def layout_email_equals(out):
    """A results-notification e-mail printed from a mail client: a From/To/Date/Subject block,
    greeting and closing sentences with numbers in them, and the results as lines
    'Potassium, Serum = 4.1 mmol/L (ref 3.5-5.1)' with HIGH/LOW after the bracket, grouped under
    upper-case order names. 'Specimen collected' in the body is the collection date."""
    sections = [
        ("BASIC METABOLIC PANEL", [
            R("Sodium, Serum", 139, "mmol/L", 135, 145, "135-145"),
            R("Potassium, Serum", 4.1, "mmol/L", 3.5, 5.1, "3.5-5.1"),
            R("Chloride, Serum", 101, "mmol/L", 98, 107, "98-107"),
            R("Carbon Dioxide, Serum", 25, "mmol/L", 22, 29, "22-29"),
            R("Glucose, Serum", 118, "mg/dL", 70, 99, "70-99", flag="H"),
            R("BUN", 16, "mg/dL", 7, 20, "7-20"),
            R("Creatinine, Serum", 0.94, "mg/dL", 0.74, 1.35, "0.74-1.35"),
            R("eGFR", ">90", "mL/min/1.73m2", 60, None, ">=60"),
            R("Calcium, Serum", 9.3, "mg/dL", 8.6, 10.2, "8.6-10.2"),
        ]),
        ("HEMOGLOBIN A1C", [
            R("Hemoglobin A1c", 6.1, "%", 4.0, 5.6, "4.0-5.6", flag="H"),
        ]),
        ("LIPID PANEL", [
            R("Cholesterol, Total", 198, "mg/dL", None, 200, "<200"),
            R("Triglycerides", 175, "mg/dL", None, 150, "<150", flag="H"),
            R("HDL Cholesterol", 41, "mg/dL", 39, None, ">39"),
            R("LDL Cholesterol, Calculated", 122, "mg/dL", None, 100, "<100", flag="H"),
        ]),
        ("VITAMIN D, 25-HYDROXY", [
            R("Vitamin D, 25-Hydroxy", 18, "ng/mL", 30, 100, "30-100", flag="L"),
        ]),
    ]
    words = {"H": "HIGH", "L": "LOW"}
    mail = ("<table class='meta' style='font-size:9.5pt; border-bottom:1px solid #999; margin-bottom:4mm'>"
            "<tr><td class='bold'>From:</td><td>Riverside Health Results &lt;no-reply@results.example.invalid&gt;</td></tr>"
            "<tr><td class='bold'>To:</td><td>Alex Example</td></tr>"
            "<tr><td class='bold'>Date:</td><td>Wed, Apr 16, 2025 at 9:12 AM</td></tr>"
            "<tr><td class='bold'>Subject:</td><td>New test results are available</td></tr></table>")
    body = "<div class='small'>Synthetic sample for phr, not a real medical record</div>" + mail
    body += "<p>Hello Alex,</p><p>Dr. Jamie Sample has released 15 new results to you. Your results are listed below.</p>"
    body += "<div>Specimen collected: 04/14/2025 07:50 AM</div><div>Ordering provider: Jamie Sample, MD</div><div style='margin-bottom:3mm'>Result status: Final</div>"
    expected = []
    for heading, results in sections:
        body += f"<div style='margin-top:3mm'>{esc(heading)}</div>"
        for r in results:
            flag = f" {words[r.flag]}" if r.flag else ""
            body += f"<div>{esc(f'{r.name} = {r.value_text()} {r.unit} (ref {r.rtext}){flag}')}</div>"
            expected.append(r.expected(1, heading))
    body += ("<p style='margin-top:5mm'>Dr. Sample's comment: Your blood sugar and A1c are slightly above the normal range. Let's recheck "
             "in 3 months. Please take vitamin D 2000 units daily.</p>"
             "<p>If you have questions, reply through the portal or call 555-0142 (Monday to Friday, 8:00 AM to 5:00 PM).</p>"
             "<p class='small'>This message was sent by Riverside Health (fictitious), 100 Example Road, Anytown, OH 00000. "
             "Please do not reply to this e-mail.</p>")
    write(out, heldout2("email-equals"), "Your results", body, expected, "2025-04-14")


def layout_exame_brazil(out):
    """A Brazilian laboratory report in Portuguese: a 'Hemograma' table 'Exame | Resultado |
    Unidade | Valores de referência' with decimal commas, ranges written 'a' ('13,5 a 17,5') and
    cell counts printed with '.' as the thousands separator ('6.300 /mm³', '245.000 /mm³',
    which are 6300 and 245000); then one block per chemistry test: the name in capitals, a
    material/method line, 'Resultado: 92 mg/dL' and 'Valores de referência: 70 a 99 mg/dL'.
    No flags are printed. 'Data da coleta' is the collection date."""
    blood = [
        ("Série vermelha", [
            R("Hemácias", 4.85, "milhões/mm³", 4.30, 5.70, "4.30 a 5.70"),
            R("Hemoglobina", 14.2, "g/dL", 13.5, 17.5, "13.5 a 17.5"),
            R("Hematócrito", 42.1, "%", 39.0, 50.0, "39.0 a 50.0"),
            R("VCM", 86.8, "fL", 81.0, 95.0, "81.0 a 95.0"),
            R("HCM", 29.3, "pg", 26.0, 34.0, "26.0 a 34.0"),
            R("CHCM", 33.7, "g/dL", 31.0, 36.0, "31.0 a 36.0"),
            R("RDW", 12.9, "%", 11.8, 15.6, "11.8 a 15.6"),
        ]),
        ("Série branca", [
            R("Leucócitos", 6300, "/mm³", 3500, 10500, "3.500 a 10.500"),
            R("Neutrófilos", 3780, "/mm³", 1700, 7000, "1.700 a 7.000"),
            R("Linfócitos", 1950, "/mm³", 900, 2900, "900 a 2.900"),
        ]),
        ("Série plaquetária", [
            R("Plaquetas", 245000, "/mm³", 150000, 450000, "150.000 a 450.000"),
        ]),
    ]
    blocks = [
        (R("GLICOSE", 92, "mg/dL", 70, 99, "70 a 99"), "Soro", "Enzimático (hexoquinase)"),
        (R("CREATININA", 0.94, "mg/dL", 0.70, 1.30, "0.70 a 1.30"), "Soro", "Colorimétrico (Jaffé)"),
        (R("COLESTEROL TOTAL", 212, "mg/dL", None, 190, "< 190"), "Soro", "Enzimático colorimétrico"),
        (R("TSH", 2.41, "µUI/mL", 0.45, 4.50, "0.45 a 4.50"), "Soro", "Quimioluminescência"),
    ]
    fields = [("Paciente", "Alex Example"), ("Data de nascimento", "22/07/1984"), ("Médico solicitante", "Dr. Exemplo, CRM 000000"),
              ("Data da coleta", "24/03/2025 07:32"), ("Liberado em", "25/03/2025 11:08")]
    body = NOWRAP + letterhead("Laboratório de Análises Clínicas Exemplo (fictício)", "Laudo de exames", fields)
    body += "<div class='bold' style='margin-top:2mm'>HEMOGRAMA</div><div class='small'>Material: Sangue total (EDTA) · Método: Automatizado, citometria de fluxo</div>"
    rows, expected = [], []
    for heading, results in blood:
        rows.append(heading)
        for r in results:
            counted = r.unit == "/mm³"
            value = thousands(r.value) if counted else r.value_text(True)
            rows.append([c(r.name), c(value), c(r.unit), c(r.rtext if counted else r.range_text(True))])
            expected.append(r.expected(1, heading, comma=not counted))
    body += "<div style='font-size:9pt'>" + table(["Exame", "Resultado", "Unidade", "Valores de referência"], rows, ["34%", "18%", "18%", "30%"]) + "</div>"
    for r, material, method in blocks:
        body += ("<div style='border-top:1px solid #999; padding:1.5mm 0 1.5mm 0; font-size:9.5pt'>"
                 f"<div class='bold'>{esc(r.name)}</div>"
                 f"<div class='small'>Material: {esc(material)} · Método: {esc(method)}</div>"
                 f"<div>Resultado: <b>{esc(r.value_text(True))} {esc(r.unit)}</b></div>"
                 f"<div>Valores de referência: {esc(r.range_text(True))} {esc(r.unit)}</div></div>")
        expected.append(r.expected(1, None, comma=True))
    body += "<div class='small' style='border-top:1px solid #999; padding-top:1.5mm'>Assinado eletronicamente por Dra. Exemplo, CRBM 0000. Página 1 de 1</div>"
    write(out, heldout2("exame-brazil"), "Laudo", body, expected, "2025-03-24")


def layout_discharge_summary(out):
    """A page of a hospital discharge summary: narrative paragraphs full of numbers that are not
    lab rows (vital signs 'BP 128/76', 'HR 88', 'Temp 38.2 C', 'SpO2 94% on room air', doses,
    and even later WBC and creatinine values in the hospital-course text) and one short table
    'Labs on admission (collected 03/02/2025 22:40)' with panel rows inside it; INR has no
    unit. Only the table's rows are lab rows."""
    sections = [
        ("CBC", [
            R("WBC", 15.2, "x10^3/uL", 4.0, 11.0, "4.0-11.0", flag="H"),
            R("Neutrophils, absolute", 12.6, "x10^3/uL", 1.8, 7.7, "1.8-7.7", flag="H"),
            R("Hemoglobin", 13.9, "g/dL", 13.5, 17.5, "13.5-17.5"),
            R("Platelets", 248, "x10^3/uL", 150, 400, "150-400"),
        ]),
        ("Chemistry", [
            R("Sodium", 134, "mmol/L", 136, 145, "136-145", flag="L"),
            R("Potassium", 4.0, "mmol/L", 3.5, 5.1, "3.5-5.1", dec=1),
            R("BUN", 28, "mg/dL", 7, 20, "7-20", flag="H"),
            R("Creatinine", 1.42, "mg/dL", 0.70, 1.30, "0.70-1.30", flag="H"),
            R("Glucose", 131, "mg/dL", 70, 99, "70-99", flag="H"),
            R("Lactate", 2.6, "mmol/L", 0.5, 2.0, "0.5-2.0", flag="H"),
            R("Procalcitonin", 1.8, "ng/mL", None, 0.5, "<0.5", flag="H"),
            R("Troponin I", "<0.01", "ng/mL", None, 0.04, "<0.04"),
        ]),
        ("Coagulation", [
            R("PT", 13.2, "sec", 11.0, 13.5, "11.0-13.5"),
            R("INR", 1.1, None, 0.9, 1.1, "0.9-1.1"),
        ]),
    ]
    fields = [("Patient", "Alex Example"), ("DOB", "07/22/1984"), ("MRN", "00012345"), ("Admission date", "03/02/2025"),
              ("Discharge date", "03/06/2025"), ("Attending", "Jamie Sample, MD (Hospital Medicine)")]
    body = "<style>p { margin: 1mm 0; font-size: 9.5pt; } h3 { font-size: 10pt; margin: 2.5mm 0 0.5mm 0; }</style>"
    cells = "".join(f"<tr><td>{esc(k1)}</td><td>{esc(v1)}</td><td>{esc(k2)}</td><td>{esc(v2)}</td></tr>"
                    for (k1, v1), (k2, v2) in zip(fields[0::2], fields[1::2]))
    body += ("<h1>Riverbend General Hospital (fictitious)</h1><div class='small'>Synthetic sample for phr, not a real medical record</div>"
             f"<h2>Discharge Summary</h2><table class='meta box' style='font-size:9pt'>{cells}</table>")
    body += "<h3>Diagnoses</h3><p>1. Community-acquired pneumonia, right lower lobe. 2. Acute kidney injury, prerenal, resolved.</p>"
    body += ("<h3>History of present illness</h3><p>Alex Example is a 40-year-old man who presented with 4 days of productive cough, "
             "fever and shortness of breath. In the emergency department: BP 128/76, HR 88, Temp 38.2 C, RR 22, SpO2 94% on room air. "
             "Weight 82 kg. Chest X-ray showed right lower lobe consolidation.</p>")
    body += "<h3>Labs on admission (collected 03/02/2025 22:40)</h3>"
    rows, expected = [], []
    for heading, results in sections:
        rows.append(heading)
        for r in results:
            rows.append([c(r.name), c(r.value_text()), c(r.flag or ""), c(r.unit or ""), c(r.rtext)])
            expected.append(r.expected(1, heading))
    body += "<div style='font-size:9pt'>" + table(["Test", "Result", "Flag", "Units", "Reference range"], rows, ["34%", "13%", "9%", "18%", "26%"]) + "</div>"
    body += ("<h3>Hospital course</h3><p>He was started on IV ceftriaxone 2 g daily and azithromycin 500 mg daily with IV fluids. "
             "Fever resolved by hospital day 2. WBC fell to 9.8 and creatinine to 0.96 by 03/05/2025. Blood cultures x2 showed no "
             "growth at 5 days. He was switched to oral antibiotics on day 3.</p>"
             "<h3>Condition at discharge</h3><p>Stable. BP 122/74, HR 76, Temp 36.9 C, SpO2 97% on room air.</p>"
             "<h3>Discharge medications</h3><p>Amoxicillin-clavulanate 875/125 mg by mouth twice daily for 5 days.</p>"
             "<h3>Follow-up</h3><p>Primary care in 1 week with a repeat basic metabolic panel; chest X-ray in 6 weeks.</p>")
    write(out, heldout2("discharge-summary"), "Discharge summary", body, expected, "2025-03-02")


def layout_dated_rows_export(out):
    """A patient portal's 'export results' printout: one grid 'Collected | Test | Result | Flag |
    Units | Normal Range | Status' with the collection date and time in the FIRST column of
    every row, tests sorted alphabetically with no panels (one name starts with digits:
    '25-Hydroxy Vitamin D'), flags as words, a 'Final' status column, and export and filter
    dates above the grid that are not the collection date."""
    data = [
        R("25-Hydroxy Vitamin D", 27, "ng/mL", 30, 100, "30-100", flag="L"),
        R("Albumin", 4.6, "g/dL", 3.8, 4.9, "3.8-4.9"),
        R("ALT", 34, "U/L", 0, 44, "0-44"),
        R("Calcium", 9.7, "mg/dL", 8.7, 10.2, "8.7-10.2"),
        R("Cholesterol, Total", 231, "mg/dL", 100, 199, "100-199", flag="H"),
        R("Creatinine", 1.01, "mg/dL", 0.76, 1.27, "0.76-1.27"),
        R("Ferritin", 112, "ng/mL", 30, 400, "30-400"),
        R("Glucose", 101, "mg/dL", 70, 99, "70-99", flag="H"),
        R("HDL Cholesterol", 44, "mg/dL", 39, None, ">39"),
        R("Hemoglobin A1c", 5.5, "%", 4.8, 5.6, "4.8-5.6"),
        R("LDL Cholesterol Calc", 158, "mg/dL", 0, 99, "0-99", flag="H"),
        R("Potassium", 4.5, "mmol/L", 3.5, 5.2, "3.5-5.2"),
        R("Sodium", 141, "mmol/L", 134, 144, "134-144"),
        R("TSH", 3.02, "uIU/mL", 0.45, 4.5, "0.450-4.500"),
        R("Triglycerides", 146, "mg/dL", 0, 149, "0-149"),
    ]
    body = NOWRAP + ("<h1>My Health Portal (fictitious)</h1><div class='small'>Synthetic sample for phr, not a real medical record</div>"
                     "<h2>Test results export</h2>"
                     "<table class='meta box' style='font-size:9pt'><tr><td>Patient</td><td>Alex Example</td><td>Date of birth</td><td>07/22/1984</td></tr>"
                     "<tr><td>Exported</td><td>05/02/2025 10:14</td><td>Filter</td><td>All results, 04/01/2025 to 04/30/2025</td></tr></table>")
    rows = [[c("04/22/2025 07:58", " style='white-space:nowrap'"), c(r.name), c(r.value_text()), c(FLAG_WORDS[r.flag] if r.flag else ""), c(r.unit), c(r.rtext), c("Final")]
            for r in data]
    body += "<div style='font-size:9pt'>" + table(["Collected", "Test", "Result", "Flag", "Units", "Normal Range", "Status"], rows,
                                                  ["19%", "26%", "8%", "7%", "12%", "17%", "11%"]) + "</div>"
    body += f"<div class='small'>{len(data)} results. Results are shown as reported by the performing laboratory. Page 1 of 1</div>"
    write(out, heldout2("dated-rows-export"), "Results export", body, [r.expected(1, None) for r in data], "2025-04-22")


LAYOUTS = [layout_au_pathology, layout_canadian_bilingual, layout_paediatric_age_bands, layout_befund_vorwert,
           layout_email_equals, layout_exame_brazil, layout_discharge_summary, layout_dated_rows_export]
