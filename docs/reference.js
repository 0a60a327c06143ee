// The reference pages' one script (copied to assets/reference.js by `npm run docs:build`): reads the
// page's Scalar configuration from its JSON block and renders the reference with the local bundle.
// `?port=N` (1-65535) puts http://127.0.0.1:N first among the request console's servers: a mock
// started with --port-base, or a test's on a free port. Nothing but a loopback address is taken
// from the URL, so a link cannot point the console (and the token typed into it) at another host.
(() => {
  const config = JSON.parse(document.getElementById("reference-config").textContent);
  const port = Number(new URLSearchParams(location.search).get("port"));
  if (Number.isInteger(port) && port > 0 && port < 65536) {
    const url = `http://127.0.0.1:${port}`;
    config.servers = [
      { url, description: `Local mock or sandbox on port ${port} (from this page's address)` },
      ...config.servers.filter((server) => server.url !== url),
    ];
  }
  window.Scalar.createApiReference("#reference", config);
})();
