// The reference pages' one script (copied to assets/reference.<hash>.js by `npm run docs:build`,
// loaded with `defer`): reads the page's configuration from its JSON block, then, after the page's
// frame (title and operations, in the HTML) has been painted, runs the Scalar bundle the block names
// (already preloaded) and renders the reference and its request console over the frame.
//
// `?port=N` (1-65535) puts http://127.0.0.1:N first among the request console's servers: a mock on
// a port of its own, or a test's on a free port. Nothing but a loopback address is taken from the
// URL, so a link cannot point the console (and the token typed into it) at another host.
//
// A refusal is shown where the answer is: the console's requests are watched (fetch, whose answers
// are handed on untouched), and when an answer carries the mock's `sl-violations` header its
// findings are listed in a box at the top of the console's response pane, each with its location
// and message (a 401 or 400 often has no body at all: the header is the only reason given).
(() => {
  const { scalar, ...config } = JSON.parse(document.getElementById("reference-config").textContent);
  const port = Number(new URLSearchParams(location.search).get("port"));
  if (Number.isInteger(port) && port > 0 && port < 65536) {
    const url = `http://127.0.0.1:${port}`;
    config.servers = [
      { url, description: `Local mock or sandbox on port ${port} (from this page's address)` },
      ...config.servers.filter((server) => server.url !== url),
    ];
  }

  /** The last console answer's findings: status and list, or null when it had none. */
  let shown = null;
  const nativeFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await nativeFetch(input, init);
    try {
      const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url, location.href);
      if (url.origin !== location.origin) {
        shown = { status: response.status, findings: parseViolations(response.headers.get("sl-violations")) };
        if (shown.findings.length === 0) shown = null;
        place();
      }
    } catch {
      // Not a URL this page can read: nothing to show.
    }
    return response;
  };

  /** The header's findings: a JSON array of { location, message }, or the raw text when it is not JSON. */
  function parseViolations(header) {
    if (!header) return [];
    try {
      const list = JSON.parse(header);
      return Array.isArray(list)
        ? list.map((v) => ({
            where: Array.isArray(v?.location) ? v.location.join(".") : "",
            message: String(v?.message ?? JSON.stringify(v)),
            severity: String(v?.severity ?? ""),
          }))
        : [];
    } catch {
      return [{ where: "", message: header, severity: "" }];
    }
  }

  /** The console's response pane: the section holding the answer's status line. */
  function responsePane() {
    const dialog = document.querySelector("[role=dialog]");
    if (!dialog) return null;
    for (const section of dialog.querySelectorAll("section")) {
      if (/^\s*Response\b/.test(section.querySelector(":scope > *")?.textContent ?? "") || section.ariaLabel === "Response") return section;
    }
    return null;
  }

  function render(box) {
    box.replaceChildren();
    const title = document.createElement("strong");
    title.textContent = `${shown.findings.length === 1 ? "1 contract violation" : `${shown.findings.length} contract violations`} (status ${shown.status}, sl-violations)`;
    const list = document.createElement("ul");
    for (const finding of shown.findings) {
      const item = document.createElement("li");
      if (finding.where) {
        const where = document.createElement("code");
        where.textContent = finding.where;
        item.append(where, " ");
      }
      item.append(finding.message);
      list.append(item);
    }
    box.append(title, list);
    shown.rendered = true;
  }

  /** Puts the box at the top of the response pane, or removes it when the last answer had no findings. */
  function place() {
    const old = document.querySelector(".site-violations");
    if (!shown) return old?.remove();
    const pane = responsePane();
    if (!pane) return;
    const box = old ?? document.createElement("div");
    box.className = "site-violations";
    box.setAttribute("role", "alert");
    if (!shown.rendered || !old) render(box);
    const first = pane.firstElementChild;
    const at = first?.nextElementSibling ?? null;
    if (box.parentElement !== pane || box.previousElementSibling !== first) pane.insertBefore(box, at);
  }
  // The console renders its answer after fetch resolves, and again on each change: the box follows.
  new MutationObserver(() => shown && place()).observe(document.body, { childList: true, subtree: true });

  const start = () => {
    const script = document.createElement("script");
    script.src = scalar;
    script.onload = () => window.Scalar.createApiReference("#reference", config);
    document.head.append(script);
  };
  // After the frame's first paint: a frame, then a task.
  requestAnimationFrame(() => setTimeout(start, 0));
})();
