import { chromium } from "playwright-core";
import { serveStatic } from "./scripts/docs/serve.js";
import { CHROMIUM, CHROMIUM_FLAGS } from "./scripts/lib/chromium.js";
const site = await serveStatic("/tmp/site-test");
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
for (const p of ["apis/pay/1.3.0/index.html", "sandbox/index.html"]) {
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
page.on("console", (m) => { if (m.type() === "error") console.log("console", m.type(), m.text().slice(0, 300)); });
const t0 = Date.now();
await page.goto(`${site.url}${p}`);
await page.waitForSelector("[id^='api-1/']");
console.log(p, "first", Date.now() - t0);
await page.waitForTimeout(6000);
const ids = await page.evaluate(() => [...document.querySelectorAll("[id]")].map((e) => e.id).filter((i) => /^api-1\//.test(i) && !/[.]/.test(i.split("/").slice(-1)[0])));
console.log(ids.length, ids.join("\n"));
const side = await page.evaluate(() => [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")).slice(0, 40));
console.log("links", side.join(" "));
}
await browser.close(); await site.close();
