"""Open every page of the built documentation site in a real headless browser and check it (``make test-docs``).

For each HTML page of ``docs/_build/html`` (served on localhost, as a reader's browser would get it):

- the page loads with HTTP 200 and without a JavaScript error;
- every image has loaded (``complete`` and a non-zero natural width), figures included;
- every internal link resolves: its page exists, and its ``#anchor``, if any, is an element id of that page;
- the layout (issue 40), at a 1400 x 1000 window: no table is clipped (a table wider than its box is in a box
  that scrolls sideways; one marked ``wide-table``, the fidelity page's, fits whole), nothing of the article is wider than the article, no code block hides part of a
  line behind a scroll bar, every "On this page" entry ends inside its sidebar, and the left sidebar lists
  pages on every page that has one.

The browser is Debian's Chromium (``/usr/bin/chromium``, packages chromium and chromium-driver) driven by
Playwright (``pip install playwright``; its own browser download is not needed). Exit status 1 lists every
failure; 0 prints the counts checked.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
"""Without the background-networking flags Chromium keeps trying hosts a closed network refuses."""
SKIPPED = ("_static/", "_sources/", "_modules/", "_images/", "genindex.html", "search.html", "py-modindex.html")
"""Sphinx's own machinery pages (the source listings, the index and the search page); the reader's pages
link to them, and those links are checked to exist, but their own content is Sphinx's."""

PAGE_REPORT = """() => ({
  images: Array.from(document.images).map(i => ({src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0})),
  links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
  ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id)
    .concat(Array.from(document.querySelectorAll('a[name]')).map(e => e.name)),
})"""


LAYOUT_REPORT = """() => {
  const wider = (e, slack = 1) => e.scrollWidth > e.clientWidth + slack;
  const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  const out = [];
  const article = document.querySelector('.bd-article');
  if (article) {
    for (const table of article.querySelectorAll('table')) {
      let box = table.parentElement;  // the nearest box that scrolls sideways, else the table's own parent
      while (box !== article && !scrolls(box)) box = box.parentElement;
      if (!scrolls(box)) box = table.parentElement;
      const over = table.getBoundingClientRect().width > box.clientWidth + 1;
      const text = (table.innerText || '').slice(0, 60).replace(/\\s+/g, ' ');
      if (over && !scrolls(box)) out.push('table clipped (its box does not scroll): ' + text);
      if (over && table.closest('.wide-table')) out.push('a wide-table does not fit the page whole: ' + text);
    }
    if (wider(article)) out.push(`article wider than its column (${article.scrollWidth} > ${article.clientWidth} px)`);
    for (const pre of article.querySelectorAll('div.highlight pre'))
      if (wider(pre)) out.push('code block scrolls sideways: ' + pre.innerText.split('\\n')[0].slice(0, 60));
  }
  const side = document.querySelector('.bd-sidebar-secondary');
  if (side && side.offsetParent !== null) {
    const edge = side.getBoundingClientRect().right - parseFloat(getComputedStyle(side).paddingRight) + 1;
    for (const a of side.querySelectorAll('nav a'))
      if (a.getBoundingClientRect().right > edge) out.push('"On this page" entry cut off: ' + a.innerText.slice(0, 60));
  }
  const primary = document.querySelector('.bd-sidebar-primary');
  if (primary && primary.offsetParent !== null && !primary.querySelector('.bd-docs-nav a[href]'))
    out.push('the left sidebar lists no page');
  return out;
}"""
"""Layout failures of one page (see the module docstring), each a line."""


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """A quiet HTTP server of ``folder`` on a free localhost port, in a daemon thread."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def pages_of(folder: Path) -> list[str]:
    """The site's reader pages, as paths relative to ``folder``."""
    pages = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html"))
    return [p for p in pages if not p.startswith(SKIPPED)]


def check(folder: Path, width: int = 1400, height: int = 1000) -> tuple[list[str], dict]:
    """Failures and counts of checking every page of ``folder`` (see the module docstring)."""
    from playwright.sync_api import sync_playwright
    server, base = serve(folder)
    failures, ids, links = [], {}, []
    counts = {"pages": 0, "images": 0, "internal links": 0}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            page = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            for path in pages_of(folder):
                errors.clear()
                response = page.goto(base + path, wait_until="load")
                if response is None or response.status != 200:
                    failures.append(f"{path}: HTTP {response.status if response else 'no response'}")
                    continue
                report = page.evaluate(PAGE_REPORT)
                counts["pages"] += 1
                ids[path] = set(report["ids"])
                for image in report["images"]:
                    counts["images"] += 1
                    if not image["ok"]:
                        failures.append(f"{path}: image did not load: {image['src']}")
                links += [(path, href) for href in report["links"]]
                failures += [f"{path}: JavaScript error: {e}" for e in errors]
                failures += [f"{path}: {problem}" for problem in page.evaluate(LAYOUT_REPORT)]
            browser.close()
    finally:
        server.shutdown()
    for path, href in links:
        if not href.startswith(base):
            continue  # an external link: not fetched (the machine may be offline)
        counts["internal links"] += 1
        target, anchor = urldefrag(href)
        relative = urlparse(target).path.lstrip("/") or "index.html"
        if relative.endswith("/"):
            relative += "index.html"
        if not (folder / relative).is_file():
            failures.append(f"{path}: broken link {href}")
        elif anchor and relative in ids and anchor not in ids[relative]:
            failures.append(f"{path}: link to a missing anchor {href}")
    return failures, counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default="docs/_build/html", help="the built site")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    if not (folder / "index.html").is_file():
        print(f"{folder}/index.html not found: build the site first (make docs)", file=sys.stderr)
        return 2
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} not found: install Debian's chromium (apt-get install chromium chromium-driver)",
              file=sys.stderr)
        return 2
    failures, counts = check(folder)
    for line in failures:
        print(line)
    summary = ", ".join(f"{n} {what}" for what, n in counts.items())
    print(f"{'FAILED' if failures else 'ok'}: {summary} checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
