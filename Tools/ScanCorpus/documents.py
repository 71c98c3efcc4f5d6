"""The pages of the OCR accuracy corpus: what is printed on them, and where.

Each page is a list of blocks laid out top to bottom on a US letter page. The text is fictitious
and in the style of the Samples (Samples/documents: Sample General Hospital, Alex Example, Dr.
Jordan Sample), written in ASCII so that the ground truth is exactly what a reader sees: a
character error then means the engine misread, not that the truth used a glyph the English model
does not know.

Block kinds:
  ("title", text)                    bold, large, one line
  ("heading", text)                  bold, one line
  ("para", text)                     wrapped to the text width
  ("lines", [text, ...])             one printed line each, never wrapped
  ("space", points)                  vertical gap
  ("table", header, rows)            ruled cells, light grey shading on every other row
  ("columns", left_blocks, right_blocks)   two columns; truth is the left column, then the right
  ("stamp", [text, ...])             a rubber stamp printed over the header (not in the truth:
                                     it is ink over the page, not the page's text)

Words that occur on exactly one page (the tests search for them): "Thornbury" (referral letter),
"Quellmarsh" (discharge note), "Varnfield" (two columns).
"""

SERIF = ("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")
SANS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
NOTO_SANS = ("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf")
NOTO_SERIF = ("/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf")

# name -> (fonts, body size in points, blocks)
PAGES = {}

PAGES["referral-letter"] = (NOTO_SERIF, 11, [
    ("title", "Sample Family Practice"),
    ("lines", ["100 Example Avenue, Suite 5, Anytown, ZZ 00000", "Tel 555-0110 - Fax 555-0111"]),
    ("space", 14),
    ("heading", "Referral letter"),
    ("lines", [
        "Date of referral: 03/14/2025",
        "To: Dr. Morgan Thornbury, MD, Cardiology, Sample General Hospital",
        "Patient: Alex Example, date of birth 07/22/1984",
        "MRN: SMP-004217",
    ]),
    ("space", 8),
    ("para", "Dear Dr. Thornbury,"),
    ("para", "Thank you for seeing Mr. Example, a 40-year-old teacher, who reports episodes of "
             "palpitations and light-headedness for the past six weeks. The episodes last five to twenty "
             "minutes, come on at rest as often as during exercise, and stop on their own. He has not "
             "fainted. He drinks two cups of coffee a day and no alcohol."),
    ("para", "On examination today his pulse was 88 and irregular, blood pressure 134/86 mmHg, and the "
             "heart sounds were normal without a murmur. A resting ECG in the practice showed sinus rhythm "
             "with frequent premature atrial complexes. Thyroid function, electrolytes and a full blood "
             "count from last week were normal apart from a ferritin of 14 ng/mL."),
    ("para", "Reason for referral: I would be grateful for your assessment, a 24-hour Holter recording and "
             "an echocardiogram. I have not started a beta blocker. Please let me know if you would like "
             "him to stop the cetirizine he takes for hay fever before the tests."),
    ("para", "Current medications: ferrous sulfate 325 mg once daily; cetirizine 10 mg as needed. "
             "Allergies: sulfonamide antibiotics (hives)."),
    ("space", 10),
    ("lines", ["Yours sincerely,", "Dr. Jordan Sample, MD", "Family Medicine, Sample Family Practice"]),
])

PAGES["prescription"] = (SANS, 11, [
    ("title", "Sample Family Practice"),
    ("lines", ["Family medicine - Primary care", "100 Example Avenue, Anytown, ZZ 00000 - Tel 555-0110"]),
    ("space", 14),
    ("heading", "Prescription"),
    ("lines", [
        "Patient: Alex Example",
        "Date of birth: 07/22/1984",
        "Date of issue: 05/13/2025",
        "Rx number: Rx-0000123-SAMPLE",
        "Prescriber: Dr. Jordan Sample, MD (NPI 0000000000)",
    ]),
    ("space", 10),
    ("heading", "Medication"),
    ("lines", [
        "Amoxicillin 500 mg capsule",
        "Sig: Take 1 capsule by mouth twice daily for 10 days",
        "Dispense: 20 (twenty) capsules",
        "Refills: 0 (zero)",
        "Substitution: generic substitution permitted",
        "Diagnosis: streptococcal pharyngitis (ICD-10 J02.0)",
    ]),
    ("space", 10),
    ("heading", "Instructions for the patient"),
    ("para", "Take every dose for the full 10 days, even after you feel better. Amoxicillin can be taken "
             "with or without food. Stop and call the practice at 555-0110 if you get a rash, swelling of "
             "the face or lips, or difficulty breathing."),
    ("para", "Allergies on file: sulfonamide antibiotics (hives), latex (contact dermatitis). No known "
             "penicillin allergy."),
    ("space", 12),
    ("lines", ["Dr. Jordan Sample, MD", "Electronically signed 05/13/2025 09:41"]),
])

PAGES["discharge-note"] = (NOTO_SANS, 10, [
    ("title", "Sample General Hospital"),
    ("lines", ["Department of Internal Medicine", "1 Specimen Plaza, Anytown, ZZ 00000 - Tel 555-0130"]),
    ("space", 12),
    ("heading", "Discharge Summary"),
    ("lines", [
        "Patient: Alex Example (MRN SMP-004217)",
        "Admission date: 02/17/2025",
        "Discharge date: 02/20/2025",
        "Attending physician: Dr. Casey Quellmarsh, MD",
    ]),
    ("space", 8),
    ("heading", "Diagnoses"),
    ("lines", [
        "1. Community-acquired pneumonia, right lower lobe (ICD-10 J18.1)",
        "2. Iron-deficiency anemia, newly found (ICD-10 D50.9)",
        "3. Mild dehydration, resolved (ICD-10 E86.0)",
    ]),
    ("space", 8),
    ("heading", "Hospital course"),
    ("para", "Admitted with three days of productive cough, fever to 38.9 C and right-sided pleuritic chest "
             "pain. Treated with intravenous ceftriaxone and oral azithromycin, intravenous fluids and "
             "oxygen by nasal cannula. The fever resolved within 36 hours and oxygen was stopped on hospital "
             "day 2. Antibiotics were changed to oral amoxicillin-clavulanate on day 3. Admission hemoglobin "
             "was 11.1 g/dL with an MCV of 75 fL; oral iron was started. Blood cultures showed no growth at "
             "48 hours."),
    ("space", 6),
    ("heading", "Discharge medications"),
    ("lines", [
        "Amoxicillin-clavulanate 875/125 mg, 1 tablet twice daily for 4 more days",
        "Azithromycin 250 mg, 1 tablet once daily for 2 more days",
        "Ferrous sulfate 325 mg, 1 tablet once daily with water or juice",
        "Acetaminophen 500 mg, 1-2 tablets every 6 hours as needed, at most 3,000 mg a day",
    ]),
    ("space", 6),
    ("heading", "Follow-up"),
    ("para", "See the primary care physician within 7 days. Repeat chest radiograph in 6 to 8 weeks. Return "
             "to the emergency department for shortness of breath, chest pain or a fever above 39 C."),
])

PAGES["lab-table"] = (SANS, 10, [
    ("title", "Sample Reference Laboratory"),
    ("lines", ["77 Assay Road, Anytown, ZZ 00000 - Tel 555-0160"]),
    ("space", 12),
    ("heading", "Laboratory Report"),
    ("lines", [
        "Patient: Alex Example",
        "Collected: 03/18/2025 08:12",
        "Reported: 03/19/2025 14:37",
        "Ordering physician: Dr. Jordan Sample, MD",
    ]),
    ("space", 10),
    ("heading", "Complete blood count"),
    ("table", ["Test", "Result", "Flag", "Reference range", "Units"], [
        ["White blood cells", "6.4", "", "4.0 - 10.5", "10^3/uL"],
        ["Red blood cells", "4.62", "", "4.50 - 5.90", "10^6/uL"],
        ["Hemoglobin", "11.4", "L", "13.2 - 16.6", "g/dL"],
        ["Hematocrit", "35.2", "L", "38.3 - 48.6", "%"],
        ["MCV", "76", "L", "80 - 100", "fL"],
        ["MCH", "24.7", "L", "27.0 - 33.0", "pg"],
        ["MCHC", "32.4", "", "32.0 - 36.0", "g/dL"],
        ["RDW-CV", "16.8", "H", "11.5 - 14.5", "%"],
        ["Platelets", "388", "", "150 - 400", "10^3/uL"],
        ["Ferritin", "14", "L", "30 - 400", "ng/mL"],
        ["Iron", "41", "L", "65 - 175", "ug/dL"],
        ["Transferrin saturation", "9", "L", "20 - 50", "%"],
    ]),
    ("space", 10),
    ("para", "Smear review: microcytic, hypochromic red cells with mild anisocytosis; no blasts seen. "
             "Results were reviewed by the laboratory director."),
])

PAGES["small-print"] = (SERIF, 8, [
    ("title", "Sample Health Plan"),
    ("heading", "Summary of benefits and coverage: important information"),
    ("para", "This summary explains how the Sample Silver PPO plan shares the cost of covered health care "
             "services with you. It is only a summary. For the full terms of coverage, read the plan "
             "document or call member services at 555-0150. The plan year begins on 01/01/2025 and ends "
             "on 12/31/2025."),
    ("para", "Deductible: $1,500 for each member and $3,000 for a family, for services from network "
             "providers. Services from providers outside the network have a separate deductible of $3,000 "
             "and $6,000. Preventive care, office visits with a copay, and generic drugs are covered before "
             "you meet the deductible."),
    ("para", "Out-of-pocket limit: $6,500 for each member and $13,000 for a family. Premiums, balance-billed "
             "charges and care this plan does not cover do not count toward the limit. Once the limit is "
             "reached, the plan pays 100% of covered services for the rest of the plan year."),
    ("para", "Prior authorization: planned hospital stays, CT and MRI scans, outpatient surgery, home health "
             "care and durable medical equipment need approval before you receive them. If you do not get "
             "approval, the plan may reduce its payment by $500 or deny the claim. In an emergency you do "
             "not need approval first; call within 48 hours of admission."),
    ("para", "Prescription drugs: generic drugs cost $10 for a 30-day supply at a network pharmacy and $25 "
             "for a 90-day supply by mail. Preferred brand drugs cost $40 after the deductible; other brand "
             "drugs cost 40% coinsurance. Specialty drugs must be filled by the plan's specialty pharmacy."),
    ("para", "Your rights to continue coverage: if you lose coverage under the plan, you may be able to buy "
             "individual coverage or continue this plan for a limited time. Your grievance and appeals "
             "rights: if the plan denies a claim, you can appeal within 180 days of the notice. Contact "
             "member services or the state insurance department for help with an appeal."),
    ("para", "Language access: call 555-0150 for help in another language. This document is a sample "
             "generated for testing and does not describe a real insurance plan."),
])

PAGES["stamp-header"] = (NOTO_SANS, 11, [
    ("title", "Sample Eye Clinic"),
    ("lines", ["Ophthalmology - 9 Retina Road, Anytown, ZZ 00000", "Tel 555-0170 - Fax 555-0171"]),
    ("stamp", ["RECEIVED", "MAR 21 2025", "SAMPLE FAMILY PRACTICE"]),
    ("space", 14),
    ("heading", "Visit note"),
    ("lines", [
        "Patient: Alex Example",
        "Date of service: 03/20/2025",
        "Clinician: Dr. Riley Placeholder, OD",
    ]),
    ("space", 8),
    ("para", "Reason for visit: blurred distance vision for three months, worse when driving at night. No "
             "pain, flashes or floaters. Last eye examination four years ago."),
    ("para", "Findings: visual acuity without correction 20/50 in the right eye and 20/40 in the left, "
             "20/20 in each eye with the new prescription. Intraocular pressure 15 and 16 mmHg. Anterior "
             "segments and dilated fundus examination normal in both eyes."),
    ("para", "Assessment: myopia with mild astigmatism in both eyes. Plan: glasses prescription given; "
             "routine review in two years, sooner if vision changes."),
    ("space", 10),
    ("lines", ["Dr. Riley Placeholder, OD", "Signed 03/20/2025"]),
])

PAGES["two-columns"] = (NOTO_SERIF, 10, [
    ("title", "Sample General Hospital"),
    ("heading", "Patient newsletter - Spring 2025"),
    ("space", 6),
    ("columns", [
        ("heading", "New cardiology clinic"),
        ("para", "The cardiology department has opened an evening clinic on Tuesdays and Thursdays from "
                 "5 pm to 8 pm. Referrals from family doctors are seen within three weeks. The clinic offers "
                 "ECGs, Holter monitors and echocardiograms on the same day."),
        ("space", 6),
        ("heading", "Flu vaccination"),
        ("para", "Free flu shots are available in the main lobby every weekday morning until the end of "
                 "April. Bring your insurance card. Children under nine who have never had a flu vaccine "
                 "need two doses four weeks apart."),
    ], [
        ("heading", "Meet our new director"),
        ("para", "Dr. Avery Varnfield joined the hospital in January as medical director. She trained in "
                 "internal medicine and led the infection control team at a large teaching hospital for "
                 "eight years."),
        ("space", 6),
        ("heading", "Parking changes"),
        ("para", "The north car park will close for repairs from 04/07/2025 to 05/30/2025. Patients with "
                 "appointments can use the visitor garage on Specimen Street free of charge; show the "
                 "appointment letter at the exit."),
    ]),
    ("space", 10),
    ("para", "Questions about this newsletter can be sent to the patient relations office, telephone "
             "555-0135, Monday to Friday."),
])
