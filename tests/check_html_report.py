#!/usr/bin/env python3
"""html-report: the reports to share (--html FILE, issue 37), read as a
person's browser reads them. Usage:

    check_html_report.py TRAINMC SRCDIR [--screenshots DIR]

For each kind of report (run, sweep, forecast, sensitivity, cheapest,
rescue, fit), made from an experiment of the repository with few replicas:

1. Self-contained (Python's html.parser): no <script>, <link>, <iframe>,
   <object>, <embed> or <img>; no src, href or xlink:href that is not a
   fragment ("#..."); no "http:" or "https:" anywhere in the file; no CSS
   url() but of a fragment (url(#id)), no @import. Every <svg> has a non-empty <title> as its first
   element and a <figure> with a <figcaption> around it. Every page but
   rescue's (which draws no picture) has one.
2. The same facts as the other outputs, compared with them (not with
   numbers written here): P(deadline) and its interval (the headline's
   data-p, data-lo, data-hi) equal --json's deadline.probability and ci95
   (the printed ones to 4 decimals); every "optimistic" line of the text
   report is an item of the assumed list; the run's events row (failures
   by part, bursts, spares taken) is in its page as printed; every key of --json's inputs
   has a row in the experiment table, the ones the experiment file leaves
   out and that hold their default marked "default", the file's own ones
   whose value differs from the default not; the command line and the
   version are printed. cheapest: the chosen plan's label, P(deadline) and
   its interval, cost and its interval (the headline's data-*, and as
   printed) are --json's chosen plan's, each row of the final comparison
   its finalist's P. rescue: the plan's metric and its interval are --json's
   plan's, it says "misses" when --json's plan does not meet, and each lever
   --json found a value for has its row with that value and the metric
   there, and no other lever has one.
3. A sweep over two keys: a column per key in its table, and each line of
   its picture (a value of the second key) drawn with a mark of its own,
   not only a colour of its own.
4. The run's figure: with the deadline set inside the range of T (at
   --json's own median), the picture holds the deadline's line (gnuplot's
   dashed path in its colour, 214,39,40) in both panels, the histogram's
   and the CDF's.
4. fit's three modes (a fault log, --steps on a CSV and on a training log
   drawn here, --sacct), each with --write:
   the headline's figures (data-* and as printed) equal --json's of the
   same fit run apart; every line of the text report is in the page but
   the parts shown as tables; the page shows the file --write wrote; no
   experiment section; the version and the command. fit draws no
   picture: its pages have no <svg>.
5. In headless Chromium (Debian's chromium, chromium-driver and
   python3-selenium): the page loads with no error in the browser's
   console log, fetches no resource (performance entries), and every
   <svg> has a non-zero bounding box, as has its drawing (getBBox)
   (rescue's page: no <svg>).
   Skipped, with a line saying so, only when chromium is missing and
   TRAINMC_REQUIRE_BROWSER is unset (CI sets it: there a missing browser
   fails). --screenshots DIR also writes each page as PNG, to look at.
"""
import html.parser
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

BIN = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
SHOTS = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
FAILED = []
NO_FIGURES = {"fit-faults", "fit-steps", "fit-sacct", "fit-train"}  # fit draws no picture


def check(cond, what):
    if not cond:
        FAILED.append(what)
        print("FAIL:", what)


class Page(html.parser.HTMLParser):
    """The tags, attributes and text of one page, and each <svg>'s first
    element and the figure around it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.stack, self.svgs = [], [], []
        self.text = []
        self.titles = {}  # id of a <title> -> its text
        self.rows = []  # the experiment table: [key, value, mark]
        self._row, self._cell, self._title = None, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "svg":
            self.svgs.append({"first": None, "parents": list(self.stack), "title": ""})
        elif self.stack and self.stack[-1] == "svg" and self.svgs[-1]["first"] is None:
            self.svgs[-1]["first"] = tag
        if tag == "title" and "svg" in self.stack:
            self._title = self.svgs[-1]
        if tag == "tr":
            self._row = []
        if tag == "td" and self._row is not None:
            self._cell = []
        self.stack.append(tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass
        if tag == "title":
            self._title = None
        if tag == "td" and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        if tag == "tr" and self._row is not None:
            if len(self._row) == 3:
                self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._title is not None and not self._title["title"]:
            self._title["title"] = data.strip()


def run(args, **kw):
    p = subprocess.run([BIN] + args, capture_output=True, text=True, **kw)
    check(p.returncode == 0, f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def self_contained(name, text, page, figures=True):
    banned = {"script", "link", "iframe", "object", "embed", "img", "base"}
    for tag, attrs in page.tags:
        check(tag not in banned, f"{name}: a <{tag}> element")
        for k in ("src", "href", "xlink:href"):
            v = attrs.get(k)
            check(v is None or v.startswith("#"), f"{name}: <{tag} {k}={v!r}> is not a fragment")
    for word in ("http:", "https:", "@import"):
        check(word not in text, f"{name}: {word!r} in the page")
    # url(#id) names an element of the page itself (cheapest's clip path)
    check(not re.search(r"url\((?!#)", text), f"{name}: a url() not in the page")
    check(bool(page.svgs) == figures, f"{name}: {len(page.svgs)} <svg> in the page")
    for i, s in enumerate(page.svgs):
        check(s["first"] == "title" and s["title"], f"{name}: svg {i} has no <title> first")
        check("figure" in s["parents"], f"{name}: svg {i} is not inside a <figure>")
    check(text.count("<figcaption>") >= len(page.svgs), f"{name}: a figure without caption")


def headlines(text):
    """The text of each headline paragraph, tags dropped."""
    return [re.sub(r"<[^>]*>", "", h)
            for h in re.findall(r'<p class="headline"[^>]*>(.*?)</p>', text, re.S)]


def p_matches(name, text, page, docs):
    """docs: --json's deadline object of each element with data-setting
    (a run's headline: the one element, setting 0); each element's data-*
    and the printed P [lo, hi] in its headline or row."""
    marked = [a for t, a in page.tags if "data-p" in a]
    check(marked, f"{name}: no P with data-p")
    for a in marked:
        doc = docs[int(a.get("data-setting", 0))]
        want = (doc["probability"], doc["ci95"][0], doc["ci95"][1])
        got = tuple(float(a[k]) for k in ("data-p", "data-lo", "data-hi"))
        check(all(abs(g - w) <= 1e-12 for g, w in zip(got, want)),
              f"{name}: P {got} differs from --json's {want}")
    first = docs[int(marked[0].get("data-setting", 0))]
    printed = "%.4f [%.4f, %.4f]" % (first["probability"], *first["ci95"])
    heads = headlines(text)
    check(heads and printed in heads[0], f"{name}: '{printed}' (from --json) is not in the "
                                         f"headline {heads[:1]}")


def events_match(name, page, stdout):
    """The run page shows the text report's events row as printed."""
    lines = [l for l in stdout.splitlines() if l.startswith("Events per run")]
    check(lines and any(lines[0] in t for t in page.text),
          f"{name}: the events row {lines[:1]} is not in the HTML")


def assumed_match(name, page, stdout):
    lines = [l for l in stdout.splitlines() if ", optimistic: " in l]
    check(lines, f"{name}: the text report has no optimistic default (the test needs one)")
    items = {t.strip() for t in page.text}
    for l in lines:
        check(l.strip() in items, f"{name}: assumed line missing from the HTML: {l!r}")


def keys_match(name, page, inputs, given, swept=()):
    """swept: the keys a sweep varies, which the base experiment may hold
    otherwise (interval_s for interval_steps)."""
    rows = {r[0]: r for r in page.rows}
    n_default = 0
    for sec, val in inputs.items():
        keys = [(f"{sec}.{k}", v) for k, v in val.items()] if isinstance(val, dict) else [(sec, val)]
        for key, v in keys:
            check(key in rows or key in swept, f"{name}: key {key} of --json's inputs has no row")
            if key not in rows:
                continue
            s, _, k = key.partition(".")
            in_file = isinstance(given.get(s), dict) and k in given[s]
            mark = rows[key][2]
            if not in_file and isinstance(v, (int, float)) and mark == "default":
                n_default += 1
            if in_file and isinstance(v, (int, float)) and not isinstance(v, bool):
                # stated with a value: marked only if it is the default's value,
                # which keys.md's row states (checked for one key below)
                pass
    check(n_default >= 5, f"{name}: only {n_default} keys marked default")
    check(rows.get("job.cards", ["", "", "x"])[2] == "", f"{name}: job.cards (given) marked")
    check(rows.get("failures.spares", ["", "", ""])[2] == "default",
          f"{name}: failures.spares (left out, -1) not marked default")


def given_keys_match(name, page, given):
    """cheapest and rescue (whose --json has no inputs): every key of the
    experiment file's job section has a row, job.cards (given) unmarked,
    failures.spares (left out, -1) marked default."""
    rows = {r[0]: r for r in page.rows}
    for k in given["job"]:
        check(f"job.{k}" in rows, f"{name}: key job.{k} of the experiment has no row")
    check(rows.get("job.cards", ["", "", "x"])[2] == "", f"{name}: job.cards (given) marked")
    check(rows.get("failures.spares", ["", "", ""])[2] == "default",
          f"{name}: failures.spares (left out, -1) not marked default")


def close(got, want):
    return all(abs(float(g) - w) <= 1e-12 * max(1, abs(w)) for g, w in zip(got, want))


def element(text, ident):
    """The attributes and text of the element with id ident."""
    m = re.search(r'<(\w+) id="%s"([^>]*)>(.*?)</\1>' % ident, text, re.S)
    if not m:
        return {}, ""
    return dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(2))), m.group(3)


def cheapest_matches(text, doc):
    """The chosen plan's headline and the final comparison against --json."""
    chosen = doc["chosen"]
    check(chosen is not None, "cheapest: no plan chosen (the test needs one)")
    if chosen is None:
        return
    heads = headlines(text)
    head = html.unescape(heads[0]) if heads else ""
    check(chosen["plan"] in head, f"cheapest: the chosen plan {chosen['plan']!r} (from "
                                  f"--json) is not in the headline {head!r}")
    pd, cost = chosen["p_deadline"], chosen["cost"]
    a, _ = element(text, "p-deadline")
    check(close([a.get(k, "nan") for k in ("data-p", "data-lo", "data-hi")],
                [pd["value"], *pd["ci95"]]), f"cheapest: P {a} differs from --json's {pd}")
    a, _ = element(text, "cost")
    check(close([a.get(k, "nan") for k in ("data-cost", "data-cost-lo", "data-cost-hi")],
                [cost["mean"], *cost["ci95"]]),
          f"cheapest: the cost {a} differs from --json's {cost}")
    for printed in ("%.4f [%.4f, %.4f]" % (pd["value"], *pd["ci95"]),
                    "%.2f [%.2f, %.2f]" % (cost["mean"], *cost["ci95"])):
        check(printed in head, f"cheapest: '{printed}' (from --json) is not in the headline")
    rows = re.findall(r'<tr><td><code>([^<]*)</code>.*?data-p="([^"]*)" data-lo="([^"]*)" '
                      r'data-hi="([^"]*)"', text)
    by_plan = {html.unescape(r[0]): r[1:] for r in rows}
    for fin in doc["finalists"]:
        if fin["refused"] is None:
            got = by_plan.get(fin["plan"])
            check(got is not None and close(got, [fin["p_deadline"]["value"],
                                                  *fin["p_deadline"]["ci95"]]),
                  f"cheapest: finalist {fin['plan']!r}: {got} is not --json's P")


def rescue_matches(text, doc):
    """The plan's metric and each lever found against --json."""
    plan = doc["plan"]
    a, _ = element(text, "plan-metric")
    check(close([a.get(k, "nan") for k in ("data-value", "data-lo", "data-hi")],
                [plan["value"], *plan["ci95"]]),
          f"rescue: the plan's metric {a} differs from --json's {plan}")
    heads = headlines(text)
    head = html.unescape(heads[0]) if heads else ""
    printed = "%.4f [%.4f, %.4f]" % (plan["value"], *plan["ci95"])
    check(printed in head, f"rescue: '{printed}' (from --json) is not in the headline {head!r}")
    check(("misses" if not plan["meets"] else "meets") in head, "rescue: meets or misses wrong")
    found = {m[0]: m[1:] for m in re.findall(
        r'class="found" data-lever="([^"]*)" data-found="([^"]*)" data-value="([^"]*)" '
        r'data-lo="([^"]*)" data-hi="([^"]*)"', text)}
    want = [l for l in doc["levers"] if l["outcome"] == "found"]
    check(want, "rescue: no lever found a value (the test needs one)")
    check(len(found) == len(want), f"rescue: {len(found)} levers found on the page, "
                                   f"{len(want)} in --json")
    for l in want:
        f, m = l["found"], l["found"]["metric"]
        got = found.get(l["key"])
        check(got is not None and close(got, [f["value"], m["value"], *m["ci95"]]),
              f"rescue: lever {l['key']}: {got} is not --json's found {f}")
    check(f"{len(want)} of the {len(doc['levers'])} levers" in head,
          f"rescue: the headline does not count {len(want)} of {len(doc['levers'])} levers")


def footer(name, text, args):
    check("trainmc 0." in text, f"{name}: no version line")
    check(" ".join(args[:2]) in text, f"{name}: the command line is not printed")


def deadline_in_both_panels(name, text):
    svg = text[text.index("<svg"):text.index("</svg>")]
    dashed = re.findall(r"<path stroke='rgb\(214, +39, +40\)' stroke-dasharray='[^']*' +"
                        r"d='M([\d.]+),([\d.]+) L([\d.]+),([\d.]+)", svg)
    vertical = [d for d in dashed if d[0] == d[2] and d[1] != d[3]]
    check(len(vertical) >= 2, f"{name}: {len(vertical)} vertical deadline lines (want one "
                              "in the histogram and one in the CDF)")


# ---------- the browser ----------

def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None, "python3-selenium is not installed"
    exe = shutil.which("chromium")
    drv = shutil.which("chromedriver")
    if not exe or not drv:
        return None, "chromium or chromedriver is not installed"
    opts = webdriver.ChromeOptions()
    opts.binary_location = exe
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1200,900", "--proxy-server=127.0.0.1:9",
              "--disable-background-networking"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(drv), options=opts), None


SVG_SIZES = """
return Array.from(document.querySelectorAll('svg')).map(function (s) {
  var r = s.getBoundingClientRect(), b = s.getBBox();
  return [r.width, r.height, b.width, b.height];
});"""


def in_browser(d, name, path, figures=True):
    d.get("file://" + path)
    check(d.title.startswith("trainmc "), f"{name}: the browser's title is {d.title!r}")
    errors = [e for e in d.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]
    check(not errors, f"{name}: the browser's console has errors: {errors}")
    fetched = d.execute_script("return performance.getEntriesByType('resource').length")
    check(fetched == 0, f"{name}: the page fetched {fetched} resources")
    sizes = d.execute_script(SVG_SIZES)
    check(bool(sizes) == figures and all(min(s) > 0 for s in sizes),
          f"{name}: an SVG has no size, or one too many or few: {sizes}")
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        h = d.execute_script("return document.documentElement.scrollHeight")
        d.set_window_size(1200, min(int(h) + 200, 16000))
        d.save_screenshot(os.path.join(SHOTS, name + ".png"))
        d.set_window_size(1200, 900)


# ---------- fit --html: its three modes ----------

def figures_match(name, text, page, want):
    """want: {data-what: (value, lo, hi)} from --json, None for an unbounded
    end. Each headline figure's data-* equal it, and the headline prints
    it as "%.4g [%.4g, %.4g]"."""
    marked = {a["data-what"]: a for t, a in page.tags if "data-what" in a}
    heads = headlines(text)
    for what, vals in want.items():
        vals = tuple(float("inf") if v is None else v for v in vals)
        a = marked.get(what)
        check(a is not None, f"{name}: no headline figure {what}")
        if a is None:
            continue
        got = tuple(float(a[k]) for k in ("data-value", "data-lo", "data-hi"))
        check(all(g == w or abs(g - w) <= 1e-12 * abs(w) for g, w in zip(got, vals)),
              f"{name}: {what} {got} differs from --json's {vals}")
        printed = "%.4g [%.4g, %.4g]" % vals
        check(heads and printed in heads[0], f"{name}: '{printed}' (from --json) is not in the "
                                             f"headline {heads[:1]}")


def text_parts_shown(name, page, stdout, tables):
    """Every line of the text report is in the page (spaces folded), but
    the parts whose heading starts with one of tables, shown as tables."""
    shown = re.sub(r"\s+", " ", "".join(page.text))
    for block in stdout.split("\n\n"):
        if block.startswith(tuple(tables)):
            continue
        for line in block.splitlines():
            folded = re.sub(r"\s+", " ", line).strip()
            check(folded in shown, f"{name}: the text report's line {line!r} is not in the page")


def written_shown(name, text, path):
    """The page's "What --write wrote" holds the file --write wrote."""
    m = re.search(r'<section id="written">.*?<pre class="lines">(.*?)</pre>', text, re.S)
    check(m and json.loads(html.unescape(m.group(1))) == json.load(open(path)),
          f"{name}: the page does not show the file --write wrote ({path})")


def fit_page(tmp, pages, name, args, want, tables):
    """fit ARGS --html --write, and apart fit ARGS --json: the page against
    that --json (want(doc): the headline figures) and its own stdout."""
    h, w, j = (os.path.join(tmp, name + ext) for ext in (".html", ".write.json", ".json"))
    run(["fit", *args, "--json", j])
    full = ["fit", *args, "--html", h, "--write", w]
    out = run(full)
    text = open(h).read()
    page = Page()
    page.feed(text)
    self_contained(name, text, page, figures=False)
    figures_match(name, text, page, want(json.load(open(j))))
    text_parts_shown(name, page, out, tables)
    written_shown(name, text, w)
    footer(name, text, full)
    check('id="experiment"' not in text, f"{name}: an experiment section (fit reads none)")
    pages.append((name, h))


def fit_pages(tmp, pages):
    iv = lambda o: (o["value"], o["lo"], o["hi"])
    fit_page(tmp, pages, "fit-faults",
             [os.path.join(SRC, "distributions", "infinitehbd-fault-trace", "fault_trace.json"),
              "--nodes", "400", "--cards-per-node", "8"],
             lambda d: {"mtbf_card": iv(d["mtbf_days"]["card"]),
                        "mtbf_node": iv(d["mtbf_days"]["node"])},
             ("Failure rate per day up", "Cause mix"))
    fit_page(tmp, pages, "fit-steps",
             ["--steps", os.path.join(SRC, "tests", "fit", "steps-hand.csv")],
             lambda d: {"cv": iv(d["jitter"]["cv"]),
                        "correlation": iv(d["jitter"]["correlation"])},
             ())
    fit_page(tmp, pages, "fit-sacct",
             ["--sacct", os.path.join(SRC, "tests", "fit", "sacct-hand.txt"),
              "--cards-per-node", "8"],
             lambda d: {c: iv(d["causes"][c]["mean_hours_between"])
                        for c in ("node", "job", "outage")},
             ("Interruptions per cause", "States and causes"))
    # --steps on a training log: Megatron-LM's lines, one step's time
    # 1.2 s x (1 + 0.05 x the max of 8 standard normals), 10 a line
    rng, log = random.Random(37), os.path.join(tmp, "train.log")
    with open(log, "w") as f:
        for i in range(1, 61):
            ms = 100 * sum(1.2 * (1 + 0.05 * max(rng.gauss(0, 1) for _ in range(8)))
                           for _ in range(10))
            f.write(f" [2026-03-01 10:00:00] iteration {10 * i:8d}/    1000 | elapsed time "
                    f"per iteration (ms): {ms:.1f} |\n")
    fit_page(tmp, pages, "fit-train", ["--steps", log, "--cards", "8"],
             lambda d: {k: iv(d[k]) for k in ("mu_s", "cv", "pace_s")}, ("Assumed",))
    text = open(os.path.join(tmp, "fit-train.html")).read()
    check(text.count("<li>") >= 3 and "<li>jitter.correlation 0: " in text,
          "fit-train: what the fit assumes is not a list")


def main():
    tmp = tempfile.mkdtemp(prefix="tmc-html-")
    exp = os.path.join(SRC, "experiments", "design-48.json")
    given = json.load(open(exp))
    quick = ["--quiet", "--set", "monte_carlo.replicas=400"]
    pages = []

    # run: the deadline at the simulated median, inside the range of T
    j0 = os.path.join(tmp, "probe.json")
    run(["run", exp, *quick, "--json", j0])
    median = json.load(open(j0))["completion_days"]["quantiles"]["p50"]
    h, j = os.path.join(tmp, "run.html"), os.path.join(tmp, "run.json")
    args = ["run", exp, *quick, "--set", f"deadline.days={median:.6g}", "--html", h,
            "--json", j]
    out = run(args)
    text = open(h).read()
    page = Page()
    page.feed(text)
    doc = json.load(open(j))
    self_contained("run", text, page)
    p_matches("run", text, page, [doc["deadline"]])
    assumed_match("run", page, out)
    events_match("run", page, out)
    keys_match("run", page, doc["inputs"], given)
    footer("run", text, args)
    deadline_in_both_panels("run", text)
    pages.append(("run", h))

    # sweep: three intervals, the deadline as above (P between 0 and 1)
    h, j = os.path.join(tmp, "sweep.html"), os.path.join(tmp, "sweep.json")
    args = ["sweep", exp, "--vary", "checkpoint.interval_steps=100,400,1600", *quick,
            "--set", f"deadline.days={median:.6g}", "--html", h, "--json", j]
    out = run(args)
    text = open(h).read()
    page = Page()
    page.feed(text)
    doc = json.load(open(j))
    self_contained("sweep", text, page)
    p_matches("sweep", text, page, [st["deadline"] for st in doc["settings"]])
    check(len([a for t, a in page.tags if "data-setting" in a]) >= len(doc["settings"]),
          "sweep: not every setting has its P")
    assumed_match("sweep", page, out)
    keys_match("sweep", page, doc["settings"][0]["inputs"], given,
               [v["key"] for v in doc["vary"]])
    footer("sweep", text, args)
    pages.append(("sweep", h))

    # sweep over two keys: a line per spares value, each with its own mark
    # (gnuplot's point symbol, not only its colour), a column per key
    h, j = os.path.join(tmp, "sweep2.html"), os.path.join(tmp, "sweep2.json")
    args = ["sweep", exp, "--vary", "checkpoint.interval_steps=100,400,1600", "--vary",
            "failures.spares=0,1,2", *quick, "--html", h, "--json", j]
    run(args)
    text = open(h).read()
    page = Page()
    page.feed(text)
    doc = json.load(open(j))
    self_contained("sweep2", text, page)
    p_matches("sweep2", text, page, [st["deadline"] for st in doc["settings"]])
    for v in doc["vary"]:
        check(f"<th><code>{v['key']}</code></th>" in text, f"sweep2: no column for {v['key']}")
    svg = text[text.index("<svg"):text.index("</svg>")]
    marks = set(re.findall(r"href='#(gpPt\d+)'", svg[svg.find("</defs>"):]))
    check(len(marks) == 3, f"sweep2: the 3 lines are drawn with the marks {sorted(marks)}")
    pages.append(("sweep2", h))

    # forecast: the repository's history of six snapshots
    fexp = os.path.join(SRC, "experiments", "forecast-design-48-day9.json")
    hist = os.path.join(SRC, "experiments", "forecast-history-design-48.jsonl")
    h, j = os.path.join(tmp, "forecast.html"), os.path.join(tmp, "forecast.json")
    args = ["forecast", fexp, "--history", hist, *quick, "--html", h, "--json", j]
    out = run(args)
    text = open(h).read()
    page = Page()
    page.feed(text)
    doc = json.load(open(j))
    self_contained("forecast", text, page)
    p_matches("forecast", text, page, [sn["deadline"] for sn in doc["snapshots"]])
    assumed_match("forecast", page, out)
    footer("forecast", text, args)
    check("<pre class=\"table\">" in text and all(f"[{sn['deadline']['ci95'][0]:.4f}, " in text
                                  for sn in doc["snapshots"]),
          "forecast: a snapshot's interval (from --json) is missing from the table")
    pages.append(("forecast", h))

    # sensitivity: two inputs of the repository's design
    inputs = os.path.join(tmp, "inputs.json")
    with open(inputs, "w") as f:
        f.write('{"job.efficiency": [0.3, 0.5], "checkpoint.save_s": [8, 60]}\n')
    h, j = os.path.join(tmp, "sensitivity.html"), os.path.join(tmp, "sensitivity.json")
    args = ["sensitivity", exp, "--inputs", inputs, *quick, "--html", h, "--json", j]
    out = run(args)
    text = open(h).read()
    page = Page()
    page.feed(text)
    base = json.load(open(j))["base"]
    self_contained("sensitivity", text, page)
    p_matches("sensitivity", text, page,
              [{"probability": base["p_deadline"], "ci95": base["p_deadline_ci95"]}])
    assumed_match("sensitivity", page, out)
    footer("sensitivity", text, args)
    check('class="bar low"' in text, "sensitivity: the tornado's bars are missing")
    pages.append(("sensitivity", h))

    # cheapest: the cards and the spares of the repository's design
    h, j = os.path.join(tmp, "cheapest.html"), os.path.join(tmp, "cheapest.json")
    args = ["cheapest", exp, "--lever", "job.cards=24:96", "--lever", "failures.spares=0,1",
            *quick, "--html", h, "--json", j]
    out = run(args)
    text = open(h).read()
    page = Page()
    page.feed(text)
    doc = json.load(open(j))
    self_contained("cheapest", text, page)
    cheapest_matches(text, doc)
    assumed_match("cheapest", page, out)
    given_keys_match("cheapest", page, given)
    footer("cheapest", text, args)
    check('<circle class="frontier"' in text and '<circle class="chosen"' in text,
          "cheapest: the cost-probability frontier or its chosen plan is missing")
    pages.append(("cheapest", h))

    # rescue: the 32-card design misses its deadline (at 400 replicas, P 0)
    exp32 = os.path.join(SRC, "experiments", "design-32.json")
    h, j = os.path.join(tmp, "rescue.html"), os.path.join(tmp, "rescue.json")
    args = ["rescue", exp32, *quick, "--html", h, "--json", j]
    out = run(args)
    text = open(h).read()
    page = Page()
    page.feed(text)
    doc = json.load(open(j))
    self_contained("rescue", text, page, figures=False)
    rescue_matches(text, doc)
    assumed_match("rescue", page, out)
    given_keys_match("rescue", page, json.load(open(exp32)))
    footer("rescue", text, args)
    pages.append(("rescue", h))

    fit_pages(tmp, pages)

    d, why = browser()
    if d is None:
        if os.environ.get("TRAINMC_REQUIRE_BROWSER"):
            check(False, f"TRAINMC_REQUIRE_BROWSER is set and {why}")
        else:
            print(f"SKIPPED the browser checks: {why} (TRAINMC_REQUIRE_BROWSER unset)")
    else:
        try:
            for name, path in pages:
                in_browser(d, name, path, figures=name != "rescue" and name not in NO_FIGURES)
        finally:
            d.quit()
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(FAILED)} failed" if FAILED else f"html-report: {len(pages)} pages checked")
    sys.exit(1 if FAILED else 0)


main()
