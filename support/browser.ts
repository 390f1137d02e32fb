// Debian's Chromium (scripts/setup.sh --with browser), driven headless over the DevTools protocol
// by playwright-core (pinned in package.json; its Chromium driver speaks CDP): for the HTML report's
// browser test and benchmark. No browser is downloaded; a missing Chromium is an error that says
// how to install it.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { BrowserContext, Page } from "playwright-core";

export const CHROMIUM = process.env.TXMAIL_CHROMIUM ?? "/usr/bin/chromium";

export class NoBrowserError extends Error {
  override readonly name = "NoBrowserError";
}

/** Headless Chromium with a fresh profile and nothing that talks to the network by itself. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new NoBrowserError(
      `no Chromium at ${CHROMIUM}: the HTML report's browser test needs Debian's Chromium — run ` +
        `'bash scripts/setup.sh --with browser' (apt-get install chromium), or set TXMAIL_CHROMIUM`,
    );
  }
  const { chromium } = require("playwright-core") as typeof import("playwright-core");
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a page did while it loaded: its console errors, uncaught errors, and every request it made. */
export interface PageWatch {
  errors: string[];
  requests: string[];
}

/** Records console errors, uncaught errors and requests; a request for anything but a file is aborted. */
export async function watchPage(page: Page): Promise<PageWatch> {
  const watch: PageWatch = { errors: [], requests: [] };
  page.on("console", (m) => {
    if (m.type() === "error") watch.errors.push(m.text());
  });
  page.on("pageerror", (e) => watch.errors.push(String(e)));
  page.on("request", (r) => watch.requests.push(r.url()));
  await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
  return watch;
}
