#!/usr/bin/env python3
"""html_paint.py - when a page paints in headless Chromium.

    bench/html_paint.py PAGE.html [RUNS]

Opens PAGE in headless Chromium ($CHROMIUM, default chromium) through the
DevTools protocol over a pipe (--remote-debugging-pipe: no network, no
WebSocket library), RUNS times (default 3), each in a fresh browser, and
prints the medians of what the page's Performance API reports, in ms
from the navigation's start: first-paint, first-contentful-paint (the
heading, before the data is parsed) and the end of the load event, by
which stackprof's page has parsed its data and drawn its table.
"""
import fcntl
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
PROBE = ("JSON.stringify({paint: performance.getEntriesByType('paint')"
         ".map(function (e) { return [e.name, e.startTime]; }),"
         " load: (performance.getEntriesByType('navigation')[0] || {}).loadEventEnd || 0})")


def high_fd(fd):
    """fd moved above 3 and 4, which the browser's end must become."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


class Browser:
    def __init__(self, profile):
        to_child_r, self.to_child = map(high_fd, os.pipe())
        self.from_child, from_child_w = map(high_fd, os.pipe())
        # the protocol's pipe: the browser reads fd 3 and writes fd 4 (bash:
        # dash takes one-digit descriptors only)
        cmd = (f'exec "$0" --headless --no-sandbox --disable-gpu --remote-debugging-pipe '
               f'--user-data-dir="$1" about:blank 3<&{to_child_r} 4>&{from_child_w} '
               f'{to_child_r}<&- {from_child_w}>&-')
        self.proc = subprocess.Popen(["bash", "-c", cmd, CHROMIUM, profile],
                                     pass_fds=(to_child_r, from_child_w),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_child, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buf += chunk
        msg, _, self.buf = self.buf.partition(b"\0")
        return json.loads(msg)

    def close(self):
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def one_run(url):
    with tempfile.TemporaryDirectory() as profile:
        b = Browser(profile)
        try:
            target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = b.send("Target.attachToTarget",
                             {"targetId": target, "flatten": True})["sessionId"]
            b.send("Page.enable", session=session)
            b.send("Page.navigate", {"url": url}, session=session)
            deadline = time.time() + 120
            while time.time() < deadline:
                r = b.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                           session=session)
                got = json.loads(r["result"].get("value") or "{}")
                paint = dict(got.get("paint", []))
                if "first-contentful-paint" in paint and got.get("load"):
                    return paint.get("first-paint", 0), paint["first-contentful-paint"], \
                        got["load"]
                time.sleep(0.05)
            raise RuntimeError("no first-contentful-paint within 120 s")
        finally:
            b.close()


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    url = "file://" + os.path.abspath(argv[0])
    runs = int(argv[1]) if len(argv) > 1 else 3
    got = [one_run(url) for _ in range(runs)]
    med = [statistics.median(x) for x in zip(*got)]
    print(f"first paint {med[0]:.0f} ms, first contentful paint {med[1]:.0f} ms, "
          f"table drawn (load event end) {med[2]:.0f} ms (medians of {runs}; "
          f"{os.path.getsize(argv[0]) / 1e6:.1f} MB page)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
