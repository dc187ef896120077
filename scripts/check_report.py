"""Check that a Snakemake HTML report opens at its top (issue 26).

Snakemake's report shows its content in a flex box that centres it vertically
(`items-center justify-center h-screen overflow-auto`, template/components/content.js). Content taller
than the window is centred too and overflows upwards, where it cannot be scrolled to: report.html
opened halfway down its ~13,000 px front page, the introduction and the quick-mode warning out of
reach. report/report.css (make report: --report-stylesheet) fixes it; this script checks it.

For each window size, the report is loaded in headless Chromium (Playwright driving the system's
Chromium; `playwright install` is not needed) and these must hold once the app has rendered:

* the window is at its top: the scroll container's scrollTop and the document's are 0;
* nothing overflows above or left of where scrolling starts: the content's top (left) edge is at or
  below (right of) the scroll container's;
* the first block of the workflow description (the introduction) is inside the window;
* optionally, an element containing `expect_text` (e.g. "Quick run" for report-quick.html) is inside
  the window.

    python scripts/check_report.py report.html
    python scripts/check_report.py report-quick.html --size 1400x1000 --size 1000x700 \
        --expect-text "Quick run" --screenshots /tmp/report-shots

Prints one line of measurements per size; exits 1 if a check fails. `check_report()` returns the
measurements and the failures for use from other scripts or tests.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from check_docs import CHROMIUM, CHROMIUM_ARGS  # the same browser and flags as `make test-docs`

DEFAULT_SIZES = ((1400, 1000), (1000, 700))

# Measures the rendered report: the workflow description (`.prose`, Snakemake's landing page) or,
# failing that, the content pane; its scroll container (nearest ancestor that scrolls); positions
# in px relative to the window.
_MEASURE_JS = """(expectText) => {
  const desc = document.querySelector('#app .prose');
  let box = desc ? desc.parentElement : null;
  while (box && box !== document.body) {
    const oy = getComputedStyle(box).overflowY;
    if (oy === 'auto' || oy === 'scroll') break;
    box = box.parentElement;
  }
  if (!box || box === document.body) {
    box = [...document.querySelectorAll('#app div')].find(el => {
      const oy = getComputedStyle(el).overflowY;
      return (oy === 'auto' || oy === 'scroll') && el.tagName !== 'NAV';
    }) || document.scrollingElement;
  }
  const content = box.firstElementChild;
  const first = desc ? desc.querySelector('p, h1, h2, div.section > *') : content;
  const r = el => el ? el.getBoundingClientRect() : null;
  const boxR = r(box), contentR = r(content), firstR = r(first);
  let expect = null;
  if (expectText) {
    // the first text node that contains it, in document order
    const walker = document.createTreeWalker(document.querySelector('#app'), NodeFilter.SHOW_TEXT);
    let el = null;
    while (walker.nextNode()) {
      if (walker.currentNode.textContent.includes(expectText)) { el = walker.currentNode.parentElement; break; }
    }
    const er = r(el);
    expect = el ? {top: Math.round(er.top), bottom: Math.round(er.bottom)} : {missing: true};
  }
  return {
    viewport: [innerWidth, innerHeight],
    document_scrollTop: document.scrollingElement.scrollTop,
    container: box.id || box.className,
    container_scrollTop: box.scrollTop,
    container_scrollLeft: box.scrollLeft,
    container_top: boxR ? Math.round(boxR.top) : 0,
    container_left: boxR ? Math.round(boxR.left) : 0,
    page_height: box.scrollHeight,
    content_top: contentR ? Math.round(contentR.top) : null,
    content_left: contentR ? Math.round(contentR.left) : null,
    content_height: contentR ? Math.round(contentR.height) : null,
    first_text: first ? first.textContent.trim().slice(0, 60) : null,
    first_top: firstR ? Math.round(firstR.top) : null,
    first_bottom: firstR ? Math.round(firstR.bottom) : null,
    expect: expect,
  };
}"""


def _failures(m: dict, expect_text: str | None) -> list[str]:
    """The checks of the module docstring on one size's measurements `m`."""
    width, height = m["viewport"]
    fail = []
    if m["document_scrollTop"] != 0 or m["container_scrollTop"] != 0:
        fail.append(f"not at the top: scrollTop document {m['document_scrollTop']}, "
                    f"content pane {m['container_scrollTop']}")
    if m["content_top"] is None:
        fail.append("no content rendered")
    else:
        # content above (left of) the scroll origin can never be scrolled to
        above = m["container_top"] - m["container_scrollTop"] - m["content_top"]
        left = m["container_left"] - m["container_scrollLeft"] - m["content_left"]
        if above > 0:
            fail.append(f"top {above} px of the content cannot be scrolled to "
                        f"(content top {m['content_top']} px, height {m['content_height']} px)")
        if left > 0:
            fail.append(f"left {left} px of the content cannot be scrolled to")
    if m["first_top"] is None or not (0 <= m["first_top"] < height and m["first_bottom"] > 0):
        fail.append(f"first block of the description not in the window: top {m['first_top']} px "
                    f"({m['first_text']!r})")
    if expect_text:
        e = m["expect"]
        if e.get("missing"):
            fail.append(f"no element contains {expect_text!r}")
        elif not (0 <= e["top"] and e["bottom"] <= height):
            fail.append(f"{expect_text!r} not in the window on load: top {e['top']} px, "
                        f"bottom {e['bottom']} px, window height {height} px")
    return fail


def check_report(
    html: str | Path,
    sizes=DEFAULT_SIZES,
    expect_text: str | None = None,
    screenshot_dir: str | Path | None = None,
    chromium: str = CHROMIUM,
    timeout_ms: int = 120_000,
) -> list[dict]:
    """Load `html` at each (width, height) of `sizes`; return one dict per size with the
    measurements (`measured`) and the failed checks (`failures`, empty if all hold).
    Screenshots go to `screenshot_dir`/<stem>-<W>x<H>.png if it is given."""
    from playwright.sync_api import sync_playwright

    html = Path(html).resolve()
    if not html.is_file():
        raise FileNotFoundError(html)
    if screenshot_dir is not None:
        Path(screenshot_dir).mkdir(parents=True, exist_ok=True)
    results = []
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        # a persistent context is what lets us give Chromium its own profile directory
        for width, height in sizes:
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=chromium, args=CHROMIUM_ARGS, headless=True,
                viewport={"width": width, "height": height})
            try:
                page = ctx.new_page()
                page.goto(html.as_uri(), wait_until="load", timeout=timeout_ms)
                page.wait_for_function(
                    "() => document.querySelector('#app') && document.querySelector('#app').children.length"
                    " && getComputedStyle(document.querySelector('#loading-screen')).display === 'none'",
                    timeout=timeout_ms)
                page.wait_for_timeout(1000)  # let the rule graph (vega) lay out
                measured = page.evaluate(_MEASURE_JS, expect_text)
                shot = None
                if screenshot_dir is not None:
                    shot = str(Path(screenshot_dir) / f"{html.stem}-{width}x{height}.png")
                    page.screenshot(path=shot)
            finally:
                ctx.close()
            results.append({"size": f"{width}x{height}", "measured": measured,
                            "failures": _failures(measured, expect_text), "screenshot": shot})
    return results


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    return int(width), int(height)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", help="report HTML file (snakemake --report X.html)")
    parser.add_argument("--size", action="append", type=_size, metavar="WxH",
                        help="window size, repeatable (default: 1400x1000 and 1000x700)")
    parser.add_argument("--expect-text", help="text that must be in the window on load, "
                        "e.g. 'Quick run' for report-quick.html")
    parser.add_argument("--screenshots", metavar="DIR", help="save a screenshot per size here")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"Chromium binary (default {CHROMIUM})")
    args = parser.parse_args(argv)
    results = check_report(args.html, args.size or DEFAULT_SIZES, args.expect_text,
                           args.screenshots, args.chromium)
    ok = True
    for res in results:
        m = res["measured"]
        status = "ok" if not res["failures"] else "FAIL"
        print(f"{status} {res['size']}: " + json.dumps(
            {k: m[k] for k in ("document_scrollTop", "container_scrollTop", "content_top",
                               "page_height", "first_top", "expect")}))
        for f in res["failures"]:
            print(f"    {f}")
            ok = False
        if res["screenshot"]:
            print(f"    screenshot {res['screenshot']}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
