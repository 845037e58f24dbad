import { type Browser, chromium } from "playwright-core"

/**
 * Debian's Chromium (/usr/bin/chromium: `.ci/run` installs it), driven by playwright-core, for the
 * dashboard's benchmark and its browser tests. The flags are the ones this machine needs: it runs as
 * root (no sandbox), and has no network beyond loopback (no background connections, no updates).
 */

const chromiumPath = "/usr/bin/chromium"

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })
