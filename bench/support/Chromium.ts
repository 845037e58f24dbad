import { type Browser, chromium } from "playwright-core"
import { chromiumHeadlessShell, requireProgram } from "../../test/support/requiredProgram.ts"

/**
 * The headless shell of Debian's Chromium (`chromium-headless-shell`: `.ci/run` installs it), driven by
 * playwright-core, for the dashboard's benchmark and its browser tests. The shell runs the same Blink
 * and V8 as the browser a person runs, without the browser's own windows and services: the browser
 * test files, one after the other in one worker, cost it 32 s of CPU against 48 s in `/usr/bin/chromium`,
 * and a launch 1.1 s against 3.2 s (measured, load 13-22). The flags are the ones this machine needs: it
 * runs as root (no sandbox), and has no network beyond loopback (no background connections, no updates).
 * Where it is not installed this throws at once, before it returns a promise, in one line that says how
 * to install it.
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: requireProgram(chromiumHeadlessShell),
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
