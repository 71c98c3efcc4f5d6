#!/usr/bin/python3
"""phr serve in a real Chromium (Debian's chromium and chromium-driver, driven by Selenium).

Usage: serve_browser.py READY_JSON SHOTS_DIR PROFILE_DIR CANARY UPLOAD_PDF CCDA_XML
READY_JSON is the line `phr serve --json` printed. The vault holds a document whose text and a
medication whose name contain CANARY. Signs in through the launch file, walks every screen,
searches as you type, opens the document's pages, uploads UPLOAD_PDF through the file input and
corrects its type, takes a dose, switches profile, changes the
text size and theme, checks the print style of the emergency page, saves a screenshot of each
screen, then quits the browser and checks that CANARY is nowhere in the browser's profile.
Prints one line per check; exits 1 on the first failure.
"""
import json, os, subprocess, sys, time
from axe_core_python.base import AXE_FILE_PATH
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

ready = json.loads(sys.argv[1])
shots, profile, canary, upload, ccda = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
os.makedirs(shots, exist_ok=True)

def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        sys.exit(1)

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
                 "--user-data-dir=" + profile, "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
# A page replaced mid-check (a choice submits its form) makes elements stale, or takes their
# nodes out of the document while the check reads them: look again.
wait = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException, WebDriverException])
try:
    def shot(name):
        """A screenshot for review, and axe-core's accessibility check of the screen: no serious
        or critical violation."""
        driver.save_screenshot(os.path.join(shots, name + ".png"))
        # axe-core 4.4 (bundled by axe-core-python), run by axe-selenium-python's Selenium runner.
        axe = Axe(driver, script_url=str(AXE_FILE_PATH))
        axe.inject()
        results = axe.run()
        bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        check(not bad, name + ": no serious or critical accessibility violation"
              + ("" if not bad else ": " + "; ".join(v["id"] + " (" + v["help"] + ") at " + ", ".join(n["target"][0] for n in v["nodes"][:3]) for v in bad)))

    # Signing in: the launch file posts its token; the page then refreshes to Today.
    driver.get("file://" + ready["launch_file"])
    wait.until(lambda d: d.current_url.rstrip("/") == ready["url"] and "Today" in d.page_source)
    check("Today" in driver.find_element(By.TAG_NAME, "h1").text, "signed in through the launch file, on Today")
    check(driver.title == "phr", "the title is generic")
    check(canary in driver.page_source, "Today shows the medication due")
    shot("today")

    # Take a dose with the keyboard: Tab to the Take button and press Enter.
    take = driver.find_element(By.CSS_SELECTOR, "form[action='/doses/take'] button")
    take.send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
    check("Took" in driver.find_element(By.CSS_SELECTOR, ".flash").text, "a dose taken from Today")
    shot("today-dose-taken")

    # Documents: the list with thumbnails, then the viewer with its page images and text.
    driver.find_element(By.LINK_TEXT, "Documents").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "ul.docs img"))
    thumb = driver.find_element(By.CSS_SELECTOR, "ul.docs img")
    wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", thumb))
    check(True, "the document list shows a thumbnail drawn in the sandbox")
    shot("documents")
    # The document that holds the canary (the emergency card's PDF), not the lab report.
    [link for link in driver.find_elements(By.CSS_SELECTOR, "a.doc-link") if "Laboratory" not in link.text][0].click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".page img"))
    page = driver.find_element(By.CSS_SELECTOR, ".page img")
    wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", page))
    check(driver.execute_script("return arguments[0].naturalWidth", page) >= 600, "the viewer shows the page as an image")
    check(canary in " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, ".page-text")), "the pages' text is beside them")
    shot("document-viewer")

    # Upload through the file input (the page's script sends it with its progress), then open
    # it from its outcome and correct its type.
    driver.find_element(By.LINK_TEXT, "Documents").click()
    picker = wait.until(lambda d: d.find_element(By.ID, "files"))
    picker.send_keys(upload)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".upload-list li.upload-added a"))
    added = driver.find_element(By.CSS_SELECTOR, ".upload-list li.upload-added")
    check("Added as" in added.text, "a file uploaded through the file input says what became of it: " + added.text)
    check(driver.find_elements(By.CSS_SELECTOR, ".upload-refresh a"), "the upload offers the updated list")
    shot("documents-uploaded")
    added.find_element(By.TAG_NAME, "a").click()
    wait.until(lambda d: d.find_elements(By.ID, "e-type"))
    for option in driver.find_element(By.ID, "e-type").find_elements(By.TAG_NAME, "option"):
        if option.get_attribute("value") == "insurance":
            option.click()
    driver.find_element(By.CSS_SELECTOR, "details.edit button[type=submit]").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
    check("Saved" in driver.find_element(By.CSS_SELECTOR, ".flash").text, "a correction saved from the viewer")
    check("insurance" in driver.find_element(By.CSS_SELECTOR, "dl.facts").text, "the viewer shows the corrected type")
    shot("document-corrected")

    # Search as you type: no submit, the results come while typing; arrow keys move through them.
    driver.find_element(By.LINK_TEXT, "Search").click()
    box = wait.until(lambda d: d.find_element(By.ID, "q"))
    box.send_keys(canary[:6])
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results mark"))
    check(True, "search results appear while typing")
    check(canary[:6] not in driver.current_url, "the query is not in the address")
    box.send_keys(Keys.ARROW_DOWN)
    focused = driver.switch_to.active_element
    check(focused.tag_name == "a", "the down arrow moves to the first hit")
    shot("search")
    # The form also works as a form (no script needed): the whole word, then Enter.
    box = driver.find_element(By.ID, "q")
    # The page before the submit is marked, so the wait below is for the page that answers it
    # (typing alone already shows the hits); read in one script, as the page is replaced under it.
    driver.execute_script("document.documentElement.dataset.before = 'submit'")
    box.send_keys(canary[6:] + Keys.ENTER)
    wait.until(lambda d: d.execute_script(
        "const q = document.getElementById('q'); return document.readyState === 'complete' && !document.documentElement.dataset.before"
        " && !!q && q.value === arguments[0] && !!document.querySelector('#results mark')", canary))
    check(driver.current_url.endswith("/search"), "a submitted search answers at /search, the query in the body only")

    # The health record: an allergy added from its form (refused first without a substance),
    # listed, then removed after a page that asks.
    driver.find_element(By.LINK_TEXT, "Health record").click()
    wait.until(lambda d: "Health record" in d.find_element(By.TAG_NAME, "h1").text)
    check("Penicillin" in driver.find_element(By.CSS_SELECTOR, "main").text, "the health record lists the allergy")
    shot("records")
    driver.find_element(By.XPATH, "//summary[text()='Add an allergy']").send_keys(Keys.ENTER)
    reaction = wait.until(lambda d: d.find_element(By.ID, "allergy-add-reaction"))
    reaction.send_keys("rash" + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#allergy-add-substance[aria-invalid=true]"))
    check(driver.find_element(By.ID, "allergy-add-reaction").get_attribute("value") == "rash", "a refused allergy keeps what was typed")
    driver.find_element(By.ID, "allergy-add-substance").send_keys("Latex" + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash-ok"))
    check("Latex" in driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=allergy-heading]").text, "the allergy is added")
    # Changed on its own page, by keyboard: the form is filled with what is recorded.
    driver.find_element(By.CSS_SELECTOR, "a[aria-label='Change Latex']").send_keys(Keys.ENTER)
    reaction = wait.until(lambda d: d.find_element(By.ID, "allergy-edit-reaction"))
    check(driver.find_element(By.ID, "allergy-edit-substance").get_attribute("value") == "Latex", "the change form shows the allergy")
    shot("records-edit")
    reaction.clear()
    reaction.send_keys("hives" + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash-ok"))
    check("hives" in driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=allergy-heading]").text, "the allergy's reaction is changed")
    driver.find_element(By.CSS_SELECTOR, "a[aria-label='Remove Latex']").click()
    wait.until(lambda d: "Remove an allergy?" in d.find_element(By.TAG_NAME, "h1").text)
    shot("records-remove")
    driver.find_element(By.CSS_SELECTOR, "button.danger").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash-ok"))
    check("Latex" not in driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=allergy-heading]").text, "the allergy is removed")

    # Import a C-CDA through the file input: the report is the page that follows.
    driver.find_element(By.LINK_TEXT, "Health record").click()
    picker = wait.until(lambda d: d.find_element(By.ID, "import-file"))
    picker.send_keys(ccda)
    driver.find_element(By.XPATH, "//button[text()='Import']").click()
    wait.until(lambda d: "Imported" in d.find_element(By.TAG_NAME, "h1").text)
    report = driver.find_element(By.CSS_SELECTOR, "main").text
    check("Imported ccd.xml" in report and "Medications" in report and "Allergies" in report, "the import's report is shown as a page")
    shot("import-report")

    # Medications: a medication added from its form (a wrong time first, said beside its field),
    # a dose taken from its page and seen in the month's calendar; a second dose for the same
    # time is refused by the dose guard, in words.
    driver.find_element(By.LINK_TEXT, "Medications").click()
    wait.until(lambda d: "Medications" in d.find_element(By.TAG_NAME, "h1").text)
    check(canary in driver.find_element(By.CSS_SELECTOR, "table.records").text, "the medications list shows the one being taken")
    shot("medications")
    driver.find_element(By.CSS_SELECTOR, "details.edit summary").send_keys(Keys.ENTER)
    name_box = wait.until(lambda d: d.find_element(By.ID, "med-add-name"))
    name_box.send_keys("Metformin")
    driver.find_element(By.ID, "med-add-schedule").send_keys("25:00" + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".field-error"))
    check(driver.find_element(By.ID, "med-add-schedule").get_attribute("aria-invalid") == "true"
          and "Times of day" in driver.find_element(By.CSS_SELECTOR, ".field-error").text, "a wrong time is said beside its field: "
          + driver.find_element(By.CSS_SELECTOR, ".field-error").text)
    hour = time.strftime("%H:00")
    box = driver.find_element(By.ID, "med-add-schedule")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(hour + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "section.adherence"))
    check("Added Metformin" in driver.find_element(By.CSS_SELECTOR, ".flash").text, "the medication is added and its page shown")
    driver.find_element(By.XPATH, "//button[text()='Take a dose now']").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash") and "Took" in d.find_element(By.CSS_SELECTOR, ".flash").text)
    today_cell = driver.find_element(By.CSS_SELECTOR, "section.adherence td.today")
    check("1 of 1 taken" in today_cell.get_attribute("textContent") and "✓" in today_cell.text,
          "the dose taken shows in the adherence calendar: " + today_cell.get_attribute("textContent").strip())
    shot("medication")
    driver.find_element(By.XPATH, "//button[text()='Take a dose now']").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash-error"))
    check("already" in driver.find_element(By.CSS_SELECTOR, ".flash-error").text.lower(),
          "a second dose for the same time is refused in words: " + driver.find_element(By.CSS_SELECTOR, ".flash-error").text)

    # Appointments: one added from the form, then found through the calendar's day; the
    # calendar file holds it.
    driver.find_element(By.LINK_TEXT, "Appointments").click()
    wait.until(lambda d: "Appointments" in d.find_element(By.TAG_NAME, "h1").text)
    shot("appointments")
    driver.find_element(By.CSS_SELECTOR, "details.edit summary").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_element(By.ID, "appt-add-with").is_displayed())
    day = time.strftime("%Y-%m-%d", time.localtime(time.time() + 3 * 86400))
    driver.find_element(By.ID, "appt-add-with").send_keys("Dr Rivera")
    driver.execute_script("document.getElementById('appt-add-date').value = arguments[0]", day)
    driver.execute_script("document.getElementById('appt-add-time').value = '10:15'")
    driver.find_element(By.ID, "appt-add-location").send_keys("Riverside Clinic" + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
    check("Added the appointment with Dr Rivera" in driver.find_element(By.CSS_SELECTOR, ".flash").text, "an appointment added from the form")
    driver.find_element(By.CSS_SELECTOR, "a.small[href^='/appointments?month']").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "td[data-day='%s'] a" % day))
    other = [a for a in driver.find_elements(By.CSS_SELECTOR, "section.calendar td a")]
    check(len(other) >= 1, "the calendar marks the day")
    driver.find_element(By.CSS_SELECTOR, "td[data-day='%s'] a" % day).send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "td.chosen"))
    listed = driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=list-heading]").text
    check("Dr Rivera" in listed and "10:15" in listed and "On " in listed, "the day filter lists the appointment: " + listed.splitlines()[0])
    calendar = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/appointments/calendar.ics').then(r => r.text()).then(done);""")
    check("BEGIN:VCALENDAR" in calendar and "Dr Rivera" in calendar, "the .ics download holds the appointment")
    shot("appointments-day")
    driver.find_element(By.CSS_SELECTOR, "a[aria-label^='Change the appointment with Dr Rivera']").click()
    wait.until(lambda d: "Change the appointment" in d.find_element(By.TAG_NAME, "h1").text)
    check(driver.find_element(By.ID, "appt-edit-with").get_attribute("value") == "Dr Rivera", "the appointment's form shows it as it is")
    shot("appointment-edit")

    # Lab results: the list, a result added from the keyboard (a wrong value first: the error
    # stands beside its field and what was typed stays), then its point on the chart, at the
    # height its value has on the chart's own scale, against the band's edge.
    driver.find_element(By.LINK_TEXT, "Lab results").click()
    wait.until(lambda d: "Lab results" in d.find_element(By.TAG_NAME, "h1").text)
    check("Ferritin" in driver.find_element(By.CSS_SELECTOR, "table.records").text, "the lab list shows ferritin's latest result")
    shot("labs")
    summary = driver.find_element(By.CSS_SELECTOR, "details.edit summary")
    summary.send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_element(By.ID, "lab-add-analyte").is_displayed())
    def type_form(values):
        """Fills the form from the keyboard: focus its first field, type, Tab to the next."""
        field = driver.find_element(By.ID, "lab-add-analyte")
        field.click()
        for name in ["analyte", "value", "unit", "range", "date"]:
            active = driver.switch_to.active_element
            check(active.get_attribute("name") == name, "Tab reaches the " + name + " field")
            if name == "date":
                # A date input's typing order follows the browser's locale: its value is set directly.
                driver.execute_script("arguments[0].value = arguments[1]", active, values[name])
            else:
                active.send_keys(Keys.CONTROL, "a")
                active.send_keys(values[name])
            # Tab walks through a date input's day, month and year, then to the next field.
            for _ in range(4):
                active.send_keys(Keys.TAB)
                active = driver.switch_to.active_element
                if active.get_attribute("name") != name:
                    break
        # The last field reached; Enter in it submits the form.
        check(driver.switch_to.active_element.get_attribute("name") == "notes", "Tab reaches the notes field")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
    type_form({"analyte": "Ferritin", "value": "fourty", "unit": "ng/mL", "range": "30-400", "date": "2026-01-10"})
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".field-error"))
    error = driver.find_element(By.CSS_SELECTOR, ".field-error")
    value_box = driver.find_element(By.ID, "lab-add-value")
    described = (value_box.get_attribute("aria-describedby") or "").split()
    check(value_box.get_attribute("aria-invalid") == "true" and error.get_attribute("id") in described
          and "lab-add-value-hint" in described,
          "a refused result is marked on its field: " + error.text)
    check("Result" in error.text and driver.find_element(By.ID, "lab-add-analyte").get_attribute("value") == "Ferritin",
          "the error names the field as the form does, and what was typed is kept")
    shot("labs-refused")
    value_box.send_keys(Keys.CONTROL, "a")
    value_box.send_keys("48" + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.lab-chart"))
    check("Added Ferritin 48 ng/mL" in driver.find_element(By.CSS_SELECTOR, ".flash").text, "the result is added and its chart shown")
    ticks = [(float(t.text), float(t.get_attribute("y"))) for t in driver.find_elements(By.CSS_SELECTOR, "svg.lab-chart text.tick")
             if t.get_attribute("text-anchor") == "end"]
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]
    def y_of(value):
        return y0 + (value - v0) * (y1 - y0) / (v1 - v0)
    point = driver.find_element(By.CSS_SELECTOR, "svg.lab-chart g.mark[data-day='2026-01-10']")
    check(abs(float(point.get_attribute("data-y")) - y_of(48)) < 1, "the new point stands at 48 on the chart's scale")
    band = driver.find_element(By.CSS_SELECTOR, "svg.lab-chart rect.band")
    band_bottom = float(band.get_attribute("y")) + float(band.get_attribute("height"))
    check(abs(band_bottom - y_of(30)) < 1 and float(point.get_attribute("data-y")) < band_bottom,
          "the band's lower edge is at 30 and the point above it, inside the range")
    low = driver.find_element(By.CSS_SELECTOR, "svg.lab-chart g.mark[data-day='2025-06-01']")
    check("mark-low" in low.get_attribute("class") and float(low.get_attribute("data-y")) > band_bottom,
          "the low result below the band is drawn as a low mark")
    xs = [float(m.get_attribute("data-x")) for m in driver.find_elements(By.CSS_SELECTOR, "svg.lab-chart g.mark")]
    check(xs == sorted(xs) and len(xs) == 3, "the points stand in date order")
    shot("lab-trend")

    # The lab report's rows reviewed as a form: the first dropped, the rest saved.
    driver.find_element(By.LINK_TEXT, "Documents").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "a.doc-link"))
    [link for link in driver.find_elements(By.CSS_SELECTOR, "a.doc-link") if "Laboratory" in link.text][0].click()
    driver.find_element(By.LINK_TEXT, "Read the lab results").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.review"))
    rows = driver.find_elements(By.CSS_SELECTOR, "table.review tbody tr")
    check(len(rows) > 10, "the report's rows are shown for review (%d)" % len(rows))
    shot("lab-review")
    driver.find_element(By.ID, "keep-1").send_keys(Keys.SPACE)
    driver.find_element(By.XPATH, "//button[text()='Save the kept results']").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash-ok"))
    check("Saved %d results from this report" % (len(rows) - 1) in driver.find_element(By.CSS_SELECTOR, ".flash").text,
          "the kept rows are saved, the dropped one is not: " + driver.find_element(By.CSS_SELECTOR, ".flash").text)

    # Health log: a month's chart is 30 bars; a glass logged shows on today's bar.
    driver.find_element(By.LINK_TEXT, "Health log").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.habit-chart"))
    driver.find_element(By.LINK_TEXT, "Month").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "svg.habit-chart g.bar")) == 30)
    check(True, "the month's water chart has 30 bars")
    before = float(driver.find_elements(By.CSS_SELECTOR, "svg.habit-chart g.bar")[-1].get_attribute("data-value"))
    driver.find_element(By.CSS_SELECTOR, "form.quick button").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
    check("Logged 250 ml" in driver.find_element(By.CSS_SELECTOR, ".flash").text, "a glass logged from the health log")
    bars = driver.find_elements(By.CSS_SELECTOR, "svg.habit-chart g.bar")
    check(len(bars) == 30 and driver.find_element(By.CSS_SELECTOR, "nav[aria-label=Period] a[aria-current]").text == "Month",
          "the page comes back to the month")
    after = float(bars[-1].get_attribute("data-value"))
    unit = driver.find_element(By.CSS_SELECTOR, "svg.habit-chart text.unit").text
    check(abs((after - before) * (1000 if unit == "L" else 1) - 250) < 0.5, "today's bar grew by 250 ml (%s to %s %s)" % (before, after, unit))
    amount = driver.find_element(By.ID, "log-add-amount")
    amount.send_keys("lots" + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".field-error"))
    check(driver.find_element(By.ID, "log-add-amount").get_attribute("aria-invalid") == "true"
          and driver.find_element(By.ID, "log-add-amount").get_attribute("value") == "lots", "a wrong amount is said beside its field, and kept")
    shot("health-log")
    # Pinned to Today: the month's water chart shows there, with its 30 bars.
    driver.find_element(By.XPATH, "//button[text()='Pin to Today']").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.XPATH, "//button[text()='Unpin from Today']"))
    driver.find_element(By.LINK_TEXT, "Today").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".pinned-charts svg.habit-chart"))
    check(len(driver.find_elements(By.CSS_SELECTOR, ".pinned-charts svg.habit-chart g.bar")) == 30, "the pinned month chart is on Today")
    shot("today-pinned")
    driver.find_element(By.LINK_TEXT, "Health log").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.habit-chart"))

    # A measurement: a weight logged from its tab shows as today's point.
    driver.find_element(By.CSS_SELECTOR, "nav.tabs a[href*='metric=weight']").click()
    amount = wait.until(lambda d: d.find_element(By.ID, "log-add-amount"))
    amount.send_keys("72.5 kg" + Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.measurement-chart g.mark"))
    point = driver.find_element(By.CSS_SELECTOR, "svg.measurement-chart g.mark")
    check(point.get_attribute("data-value") == "72.5" and point.get_attribute("data-day") == time.strftime("%Y-%m-%d"),
          "a weight logged shows on the chart on today's date")
    shot("health-log-weight")

    # The timeline: the day's doses, the lab results and the appointment, newest first; one kind alone.
    driver.find_element(By.LINK_TEXT, "Timeline").click()
    wait.until(lambda d: "Timeline" in d.find_element(By.TAG_NAME, "h1").text)
    kinds = [e.get_attribute("class").split("event-")[1] for e in driver.find_elements(By.CSS_SELECTOR, "ol.timeline li.event")]
    check({"appointment", "doses", "labs", "document"} <= set(kinds), "the timeline holds the appointment, the doses, the results and the documents: " + ",".join(kinds))
    dates = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "ol.timeline .when")]
    check(dates == sorted(dates, reverse=True), "the timeline is newest first")
    shot("timeline")
    driver.find_element(By.CSS_SELECTOR, "nav.tabs a[href='/timeline?kind=labs']").click()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "nav.tabs a[aria-current]").text == "Lab results")
    check(all("event-labs" in e.get_attribute("class") for e in driver.find_elements(By.CSS_SELECTOR, "ol.timeline li.event")),
          "one kind shows alone")

    # Share: a recipient, one document ticked, the preview, then the PDF made and read back.
    driver.find_element(By.LINK_TEXT, "Share").click()
    recipient = wait.until(lambda d: d.find_element(By.ID, "share-for"))
    recipient.send_keys("Dr Lee")
    driver.find_element(By.CSS_SELECTOR, "input[name=documents][value=chosen]").click()
    driver.find_element(By.CSS_SELECTOR, "details.figures summary").click()
    ticked = [box for box in driver.find_elements(By.CSS_SELECTOR, "ul.doc-choices input") if "Laboratory" in box.find_element(By.XPATH, "..").text]
    ticked[0].click()
    driver.find_element(By.XPATH, "//button[text()='See what will go out']").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "section.share-preview"))
    preview = driver.find_element(By.CSS_SELECTOR, "section.share-preview").text
    check("What will go to Dr Lee" in preview and "1 document" in preview, "the preview says what will go: " + preview.splitlines()[0])
    shot("share")
    encoded = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const body = new URLSearchParams({csrf: document.querySelector("form[action='/share/pdf'] input[name=csrf]").value});
        fetch('/share/pdf', {method: 'POST', body}).then(r => r.arrayBuffer()).then(b => {
          let s = ''; new Uint8Array(b).forEach(c => s += String.fromCharCode(c)); done(btoa(s)); });""")
    import base64
    bundle = os.path.join(os.path.dirname(profile), "share-download.pdf")
    with open(bundle, "wb") as f:
        f.write(base64.b64decode(encoded))
    text = subprocess.run(["pdftotext", bundle, "-"], capture_output=True, text=True).stdout
    check("Prepared for: Dr Lee" in text and canary in text and "Ferritin" in text, "the bundle made in the browser reads as phr share's, with the document")
    os.remove(bundle)

    # Settings: the units changed from the keyboard show on the health log.
    driver.find_element(By.LINK_TEXT, "Settings").click()
    wait.until(lambda d: "Settings" in d.find_element(By.TAG_NAME, "h1").text)
    shot("settings")
    units = driver.find_element(By.ID, "units-units")
    units.send_keys(Keys.END)
    driver.find_element(By.XPATH, "//button[text()='Save the units']").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash-ok"))
    driver.find_element(By.LINK_TEXT, "Health log").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.habit-chart"))
    check(driver.find_element(By.CSS_SELECTOR, "svg.habit-chart text.unit").text == "fl oz", "US units chosen in settings chart water in fl oz")
    driver.find_element(By.LINK_TEXT, "Settings").click()
    units = wait.until(lambda d: d.find_element(By.ID, "units-units"))
    units.send_keys(Keys.HOME)
    driver.find_element(By.XPATH, "//button[text()='Save the units']").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash-ok"))

    # Emergency: the card, and its print style hides the navigation.
    driver.find_element(By.LINK_TEXT, "Emergency").click()
    wait.until(lambda d: "Emergency information" in d.page_source)
    check("Penicillin" in driver.page_source, "the emergency page shows the allergy")
    shot("emergency")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    hidden = driver.execute_script("return getComputedStyle(document.querySelector('header.top')).display")
    check(hidden == "none", "printing leaves out the navigation")
    pdf = driver.execute_cdp_cmd("Page.printToPDF", {})
    check(len(pdf.get("data", "")) > 1000, "the emergency page prints")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

    # Profiles: switch to the second one; every screen says whose records it shows.
    select = driver.find_element(By.ID, "profile-choice")
    for option in select.find_elements(By.TAG_NAME, "option"):
        if option.text == "Sam":
            option.click()
    wait.until(lambda d: "Sam" in d.find_element(By.CSS_SELECTOR, "main").text)
    check("Penicillin" not in driver.page_source, "another profile's emergency page shows its own records")
    shot("emergency-other-profile")

    # Display: the largest text and the dark theme, kept for the session.
    driver.find_element(By.CSS_SELECTOR, "input[name=text][value=largest]").click()
    wait.until(lambda d: "text-largest" in d.find_element(By.TAG_NAME, "html").get_attribute("class"))
    driver.find_element(By.CSS_SELECTOR, "input[name=theme][value=dark]").click()
    wait.until(lambda d: "theme-dark" in d.find_element(By.TAG_NAME, "html").get_attribute("class"))
    background = driver.execute_script("return getComputedStyle(document.documentElement).backgroundColor")
    size = driver.execute_script("return getComputedStyle(document.documentElement).fontSize")
    check(background == "rgb(18, 18, 18)", "the dark theme is dark (" + background + ")")
    check(size == "32px", "the largest text is twice the normal size (" + size + ")")
    # Every screen again in the dark theme at twice the text size, each checked by axe.
    driver.find_element(By.LINK_TEXT, "Today").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".whose-line"))
    driver.find_element(By.ID, "profile-choice").find_elements(By.TAG_NAME, "option")[0].click()
    wait.until(lambda d: "Sam" not in d.find_element(By.CSS_SELECTOR, ".whose-line").text)
    screens = [("today", "Today"), ("timeline", "Timeline"), ("documents", "Documents"), ("records", "Health record"),
               ("medications", "Medications"), ("appointments", "Appointments"), ("labs", "Lab results"), ("health-log", "Health log"),
               ("share", "Share"), ("search", "Search"), ("emergency", "Emergency"), ("settings", "Settings")]
    for name, link in screens:
        driver.find_element(By.LINK_TEXT, link).click()
        wait.until(lambda d: link.split()[0] in d.find_element(By.TAG_NAME, "h1").text or link == "Today")
        shot(name + "-dark-largest")
    driver.find_element(By.LINK_TEXT, "Lab results").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.records a"))
    driver.find_element(By.XPATH, "//table//a[text()='Ferritin']").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.lab-chart"))
    shot("lab-trend-dark-largest")

    # Every screen at a phone's width (and the normal text size), each checked by axe again.
    driver.find_element(By.CSS_SELECTOR, "input[name=text][value=normal]").click()
    wait.until(lambda d: "text-normal" in d.find_element(By.TAG_NAME, "html").get_attribute("class"))
    driver.set_window_size(390, 844)
    for name, link in screens:
        driver.find_element(By.LINK_TEXT, link).click()
        wait.until(lambda d: link.split()[0] in d.find_element(By.TAG_NAME, "h1").text or link == "Today")
        width = driver.execute_script("return document.documentElement.scrollWidth")
        check(width <= 390, name + " fits a phone's width (" + str(width) + " px)")
        shot("phone-" + name)

    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    check(not errors, "no errors in the browser's console: " + json.dumps(errors)[:500])
finally:
    driver.quit()

# Nothing of the records in the browser's profile: cache, history, session files.
time.sleep(0.5)
found = subprocess.run(["grep", "-rl", "--", canary, profile], capture_output=True, text=True).stdout.strip()
check(found == "", "the canary is nowhere in the browser profile" + (": " + found if found else ""))
