/// The UI's stylesheet and script, compiled into phr (no file is read at run time, and nothing
/// comes from another site).
///
/// Colours: the Okabe-Ito palette, distinguishable with the common colour-vision deficiencies,
/// and no state is shown by colour alone (a mark and a word go with it). Contrast is at least
/// 4.5:1 in both themes.
enum WebAssets {
    static let css = #"""
    :root {
      --bg: #ffffff; --fg: #1a1a1a; --muted: #555555; --card: #f6f6f4; --line: #c9c9c4;
      --accent: #0060a0; --accent-fg: #ffffff; --warn: #a34400; --ok: #006b4f; --mark: #ffe08a; --focus: #e69f00;
      --size: 100%;
      color-scheme: light dark;
    }
    @media (prefers-color-scheme: dark) {
      :root:not(.theme-light) {
        --bg: #121212; --fg: #ececec; --muted: #b4b4b4; --card: #1e1e1e; --line: #4a4a4a;
        --accent: #56b4e9; --accent-fg: #0b0b0b; --warn: #f0a860; --ok: #5fd3b0; --mark: #6b5400;
      }
    }
    :root.theme-dark {
      --bg: #121212; --fg: #ececec; --muted: #b4b4b4; --card: #1e1e1e; --line: #4a4a4a;
      --accent: #56b4e9; --accent-fg: #0b0b0b; --warn: #f0a860; --ok: #5fd3b0; --mark: #6b5400;
    }
    :root.text-large { --size: 125%; }
    :root.text-larger { --size: 150%; }
    :root.text-largest { --size: 200%; }
    html { font-size: var(--size); background: var(--bg); color: var(--fg); }
    body { margin: 0; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
    a { color: var(--accent); }
    :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
    .skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem; }
    .skip:focus { left: .5rem; }
    header.top { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
    .brand { font-weight: 700; margin: 0; }
    nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
    nav a[aria-current] { font-weight: 700; text-decoration-thickness: 3px; }
    .whose { margin-left: auto; display: flex; gap: .5rem; align-items: center; }
    main { padding: 1rem; max-width: 72rem; }
    main.bare { max-width: 40rem; margin: 3rem auto; }
    h1 { font-size: 1.6rem; margin: .5rem 0; }
    h2 { font-size: 1.2rem; margin: .25rem 0 .5rem; }
    .muted { color: var(--muted); }
    .whose-line { color: var(--muted); margin-top: 0; }
    /* A closed details' content has no boxes at all (Chromium lays it out hidden, and
       axe-core 4.4 then reads a hidden button as the background of the card below). */
    details:not([open]) > :not(summary) { display: none; }
    .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1rem; }
    .card { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; }
    ul.plain { list-style: none; padding: 0; margin: 0; }
    ul.plain > li { padding: .35rem 0; border-bottom: 1px solid var(--line); }
    ul.plain > li:last-child { border-bottom: 0; }
    form.inline { display: inline; }
    button, .button { font: inherit; padding: .35rem .9rem; border-radius: .35rem; border: 2px solid var(--accent);
      background: var(--accent); color: var(--accent-fg); cursor: pointer; text-decoration: none; display: inline-block; }
    button.secondary, .button.secondary { background: transparent; color: var(--accent); }
    input, select { font: inherit; padding: .3rem; border: 1px solid var(--muted); border-radius: .25rem; background: var(--bg); color: var(--fg); }
    .badge { font-size: .85rem; border: 1px solid var(--muted); border-radius: 1rem; padding: 0 .5rem; }
    .badge-warn { color: var(--warn); border-color: var(--warn); font-weight: 700; }
    .flash { padding: .5rem .75rem; border-radius: .35rem; border: 2px solid; }
    .flash-ok { border-color: var(--ok); }
    .flash-error { border-color: var(--warn); font-weight: 600; }
    .flash-mark { font-weight: 700; }
    meter { width: 8rem; vertical-align: middle; }
    .goal-name { display: inline-block; min-width: 5rem; font-weight: 600; }
    .filters { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; }
    .filters a[aria-current] { font-weight: 700; }
    ul.docs { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: 1rem; }
    .doc { display: flex; flex-direction: column; gap: .25rem; }
    .doc img { width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
    .doc-title { font-weight: 600; }
    .tag { font-size: .85rem; border: 1px solid var(--line); border-radius: .25rem; padding: 0 .3rem; margin-right: .25rem; }
    dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
    dl.facts dt { font-weight: 600; }
    dl.facts dd { margin: 0; }
    .page { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; margin: 1.5rem 0; }
    .page figure { margin: 0; }
    .page img { width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
    .page pre { white-space: pre-wrap; font-size: .9rem; background: var(--card); padding: .5rem; border-radius: .25rem; }
    @media (max-width: 50rem) { .page { grid-template-columns: 1fr; } }
    form.search { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
    form.search input[type=search] { flex: 1 1 20rem; }
    form.search p { flex-basis: 100%; margin: 0; }
    ol.hits { padding-left: 1.5rem; }
    .hit { margin: .5rem 0; }
    .hit .kind { font-size: .85rem; border: 1px solid var(--line); border-radius: .25rem; padding: 0 .3rem; }
    .snippet { margin: .2rem 0; }
    mark { background: var(--mark); color: inherit; font-weight: 700; }
    .emergency .person { font-size: 1.3rem; }
    .severe strong { color: var(--warn); }
    footer.bottom { border-top: 1px solid var(--line); padding: 1rem; display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; }
    fieldset { border: 1px solid var(--line); border-radius: .35rem; display: inline-flex; gap: .75rem; flex-wrap: wrap; }
    .settings { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; }
    form.filters-form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .75rem 0; }
    form.stacked { display: grid; grid-template-columns: max-content minmax(0, 30rem); gap: .5rem 1rem; align-items: center; }
    form.stacked button, form.stacked p, form.stacked .actions { grid-column: 2; margin: 0; }
    form.stacked > button { justify-self: start; }
    textarea { font: inherit; padding: .3rem; border: 1px solid var(--muted); border-radius: .25rem; background: var(--bg); color: var(--fg); }
    .actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .75rem 0; }
    button.danger { background: var(--warn); border-color: var(--warn); color: var(--accent-fg); }
    details.edit { margin: 1rem 0; }
    details.edit summary { cursor: pointer; font-weight: 600; }
    .pager { display: flex; gap: 1rem; align-items: center; margin: 1rem 0; }
    .upload { margin: 1rem 0; }
    .upload.dropping { outline: 3px dashed var(--accent); outline-offset: 4px; }
    .upload-list progress { width: 10rem; vertical-align: middle; }
    .upload-failed { color: var(--warn); font-weight: 600; }
    form.fields .field { display: flex; flex-direction: column; gap: .15rem; margin: .6rem 0; max-width: 30rem; }
    form.fields .field label { font-weight: 600; }
    .field-hint { font-size: .9rem; }
    .field-error { color: var(--warn); font-weight: 600; margin: .15rem 0; }
    [aria-invalid=true] { border: 2px solid var(--warn); }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .scroll { overflow-x: auto; max-width: 100%; }
    table.records { border-collapse: collapse; margin: 1rem 0; max-width: 100%; }
    table.records caption { text-align: left; color: var(--muted); padding-bottom: .25rem; }
    table.records th, table.records td { padding: .3rem .6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
    .number { text-align: right !important; font-variant-numeric: tabular-nums; }
    .headline .big, .big { font-size: 1.8rem; font-weight: 700; }
    .crumbs { margin: 0; }
    .note { border-left: 4px solid var(--accent); padding-left: .5rem; }
    nav.tabs { margin: .5rem 0; }
    nav.tabs ul { gap: .5rem; }
    nav.tabs a { display: inline-block; padding: .15rem .7rem; border: 1px solid var(--line); border-radius: 1rem; text-decoration: none; }
    nav.tabs a[aria-current] { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); }
    .chart-figure { margin: 1rem 0; }
    .chart { width: 100%; max-width: 40rem; height: auto; display: block; overflow: visible; }
    .chart .short { display: none; }
    /* On a phone the chart is narrower than its 640 units: its words grow to stay readable. */
    @media (max-width: 40rem) { .chart text { font-size: 24px !important; } .chart .long { display: none; } .chart .short { display: inline; } }
    .chart text { font: 12px system-ui, -apple-system, "DejaVu Sans", sans-serif; fill: var(--fg); }
    .chart .tick { fill: var(--muted); }
    .chart .grid { stroke: var(--line); stroke-width: 1; }
    .chart .axis { stroke: var(--muted); stroke-width: 1; }
    .chart .band { fill: var(--ok); fill-opacity: .16; }
    .chart .band-label { fill: var(--ok); font-weight: 600; }
    .chart .trend-line { fill: none; stroke: var(--muted); stroke-width: 1.5; }
    .chart .mark circle, .chart .mark path, .chart .mark rect { fill: var(--accent); stroke: var(--bg); stroke-width: 1.5; }
    .chart .mark-high path, .chart .mark-low path, .chart .mark-abnormal path { fill: var(--warn); }
    .chart .mark circle.open { fill: var(--bg); stroke: var(--accent); stroke-width: 2; }
    .chart .value { font-weight: 600; }
    .habit-chart .bar rect { fill: var(--accent); fill-opacity: .3; stroke: var(--accent); stroke-width: 1; }
    .habit-chart .bar.met rect { fill-opacity: 1; }
    .habit-chart .met-mark { fill: var(--ok); font-weight: 700; }
    .habit-chart .goal-line { stroke: var(--ok); stroke-width: 2; }
    .habit-chart .average-line { stroke: var(--fg); stroke-width: 1.5; stroke-dasharray: 6 4; }
    .habit-chart .line-label { font-weight: 600; }
    .legend { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; padding: 0; margin: .25rem 0; font-size: .9rem; }
    .key { font-weight: 700; }
    .key-high, .key-low, .key-abnormal { color: var(--warn); }
    .key-in-range, .key-bar, .key-beyond { color: var(--accent); }
    .key-band, .key-goal, .key-met { color: var(--ok); }
    table.month { border-collapse: collapse; }
    table.month th { font-weight: 600; font-size: .85rem; padding: .15rem; }
    table.month td { width: 2.4rem; height: 2.4rem; text-align: center; vertical-align: top; border: 1px solid var(--line); font-size: .85rem; }
    table.month td .day { display: block; }
    table.month td .mark { color: var(--ok); font-weight: 700; }
    table.month td.logged .mark { color: var(--muted); }
    table.month td.today { outline: 3px solid var(--accent); outline-offset: -3px; }
    form.quick { display: block; margin: .5rem 0; }
    .pinned-heading { margin-top: 1.5rem; }
    .pinned h3 { font-size: 1rem; margin: 0 0 .25rem; }
    table.review input[type=text], table.review input:not([type]) { width: 7rem; }
    table.review tr.unsure th { border-left: 4px solid var(--warn); }
    form.goal-form .field { max-width: 20rem; }
    code { font-size: .9rem; background: var(--card); padding: 0 .2rem; border-radius: .2rem; }
    ol.timeline { list-style: none; padding: 0; margin: 0 0 1rem; border-left: 3px solid var(--line); }
    ol.timeline li { padding: .35rem 0 .35rem .75rem; }
    .timeline .when { font-variant-numeric: tabular-nums; color: var(--muted); margin-right: .25rem; }
    .timeline .kind { font-size: .85rem; border: 1px solid var(--line); border-radius: .25rem; padding: 0 .3rem; }
    table.month td.missed .mark { color: var(--warn); }
    table.month td.partial .mark { color: var(--accent); }
    table.month td.busy a { display: block; text-decoration: none; font-weight: 700; }
    table.month td.busy .mark { color: var(--accent); }
    table.month td.chosen { background: var(--mark); }
    table.month td.future { color: var(--muted); }
    .small { font-size: .85rem; font-weight: 400; }
    fieldset.choice { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .6rem 0; }
    details.figures summary { cursor: pointer; }
    html.js [data-autosubmit] ~ button, html.js .settings > button, html.js .whose > button { display: none; }
    @media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; scroll-behavior: auto !important; } }
    @media print {
      header.top, footer.bottom, .no-print, .skip { display: none; }
      html, body { background: #fff; color: #000; font-size: 12pt; }
      .card { break-inside: avoid; background: #fff; border-color: #000; }
      main { max-width: none; }
    }
    """#

    /// The tab's icon: a plain square with a cross, drawn in the accent colour.
    static let icon = #"""
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0060a0"/><path d="M6.5 3h3v3.5H13v3H9.5V13h-3V9.5H3v-3h3.5z" fill="#fff"/></svg>
    """#

    static let javascript = #"""
    "use strict";
    // phr's own script: a convenience over pages that work without it.
    document.documentElement.classList.add("js");
    document.addEventListener("change", (event) => {
      const target = event.target;
      if (target instanceof HTMLElement && target.hasAttribute("data-autosubmit") && target.form) target.form.requestSubmit();
    });
    document.addEventListener("click", (event) => {
      const target = event.target;
      if (target instanceof HTMLElement && target.closest("[data-print]")) window.print();
    });
    // Search as you type: the form posts to /search/live (never a query in an address).
    const searchForm = document.querySelector("form[data-live]");
    if (searchForm) {
      const input = searchForm.querySelector("input[type=search]");
      const results = document.getElementById("results");
      let timer = 0;
      let sent = 0;
      const run = () => {
        const number = ++sent;
        fetch(searchForm.getAttribute("data-live"), {
          method: "POST", body: new URLSearchParams(new FormData(searchForm)), credentials: "same-origin",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        }).then((response) => response.ok ? response.text() : Promise.reject(response.status))
          .then((html) => { if (number === sent) results.innerHTML = html; })
          .catch(() => {});
      };
      input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(run, 120); });
      searchForm.addEventListener("keydown", (event) => {
        if (event.key !== "ArrowDown") return;
        const first = results.querySelector("a");
        if (first) { event.preventDefault(); first.focus(); }
      });
      results.addEventListener("keydown", (event) => {
        if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
        const links = Array.from(results.querySelectorAll("a"));
        const index = links.indexOf(document.activeElement);
        if (index < 0) return;
        event.preventDefault();
        if (event.key === "ArrowDown" && index + 1 < links.length) links[index + 1].focus();
        if (event.key === "ArrowUp") (index === 0 ? input : links[index - 1]).focus();
      });
    }
    // Upload: each file goes on its own (its bytes as the body, its name in X-File-Name) and
    // shows its progress, then what became of it. Without this script the form posts the
    // files as multipart/form-data and a page lists the outcomes.
    const uploadForm = document.querySelector("form[data-upload]");
    if (uploadForm) {
      const section = uploadForm.closest("section") || uploadForm;
      const picker = uploadForm.querySelector("input[type=file]");
      const list = section.querySelector(".upload-list");
      const csrf = uploadForm.querySelector("input[name=csrf]").value;
      const marks = { added: "✓ ", duplicate: "= ", failed: "✗ ", skipped: "✗ " };
      const send = (file) => new Promise((resolve) => {
        const item = document.createElement("li");
        const mark = document.createElement("span");
        mark.setAttribute("aria-hidden", "true");
        const name = document.createElement("strong");
        name.textContent = file.name;
        const bar = document.createElement("progress");
        bar.max = file.size || 1;
        bar.value = 0;
        bar.setAttribute("aria-label", "Sending " + file.name);
        const status = document.createElement("span");
        status.textContent = " sending…";
        item.append(mark, name, " ", bar, status);
        list.append(item);
        const finish = (kind, words, id) => {
          bar.remove();
          item.className = "upload-" + kind;
          mark.textContent = marks[kind] || "";
          if (id) {
            const link = document.createElement("a");
            link.href = "/documents/" + encodeURIComponent(id);
            link.textContent = file.name;
            name.replaceChildren(link);
          }
          status.textContent = ": " + words;
          resolve();
        };
        const request = new XMLHttpRequest();
        request.open("POST", uploadForm.getAttribute("action"));
        request.setRequestHeader("Content-Type", "application/octet-stream");
        request.setRequestHeader("Accept", "application/json");
        request.setRequestHeader("X-CSRF-Token", csrf);
        request.setRequestHeader("X-File-Name", encodeURIComponent(file.name));
        request.upload.addEventListener("progress", (event) => {
          if (event.lengthComputable) { bar.max = event.total; bar.value = event.loaded; }
        });
        request.upload.addEventListener("load", () => { status.textContent = " reading…"; });
        request.addEventListener("load", () => {
          let answer = null;
          try { answer = JSON.parse(request.responseText); } catch (error) { answer = null; }
          if (Array.isArray(answer) && answer.length > 0) finish(answer[0].status, answer[0].words, answer[0].id);
          else finish("failed", "Not added: " + ((answer && answer.error) || "phr answered " + request.status + "."));
        });
        request.addEventListener("error", () => finish("failed", "Not sent: the connection to phr failed."));
        request.send(file);
      });
      const sendAll = async (files) => {
        for (const file of files) await send(file);
        if (!section.querySelector(".upload-refresh")) {
          const again = document.createElement("p");
          again.className = "upload-refresh";
          const link = document.createElement("a");
          link.href = "/documents";
          link.textContent = "Show the updated list";
          again.append(link);
          list.after(again);
        }
      };
      picker.addEventListener("change", () => {
        const files = Array.from(picker.files);
        picker.value = "";
        if (files.length > 0) sendAll(files);
      });
      uploadForm.addEventListener("submit", (event) => {
        event.preventDefault();
        const files = Array.from(picker.files);
        picker.value = "";
        if (files.length > 0) sendAll(files);
      });
      for (const type of ["dragenter", "dragover"]) {
        section.addEventListener(type, (event) => { event.preventDefault(); section.classList.add("dropping"); });
      }
      section.addEventListener("dragleave", (event) => {
        if (!section.contains(event.relatedTarget)) section.classList.remove("dropping");
      });
      section.addEventListener("drop", (event) => {
        event.preventDefault();
        section.classList.remove("dropping");
        const files = Array.from(event.dataTransfer ? event.dataTransfer.files : []);
        if (files.length > 0) sendAll(files);
      });
    }
    """#
}
