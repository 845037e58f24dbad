import { readFileSync } from "node:fs"

/**
 * What /proc says of a process the bench started: its resident memory, and the CPU time it has used.
 * NaN where there is no /proc (the figures are then left out, not made up).
 */

/** VmRSS of `pid`, in bytes. */
export const residentBytes = (pid: number): number => {
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kib === undefined ? Number.NaN : Number(kib) * 1_024
  } catch {
    return Number.NaN
  }
}

/** Linux reports CPU times in /proc in units of USER_HZ, which is 100 on every architecture it runs on. */
const ticksPerSecond = 100

/**
 * The CPU time `pid` has used so far, user and system, in milliseconds (10 ms steps). Unlike requests per
 * second, the CPU time a request costs holds on a machine busy with other work: it says what the server
 * spent, not how much of the machine it got.
 */
export const cpuMs = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // The fields after the command name, which is in parentheses and may hold spaces: state is the first.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1_000) / ticksPerSecond
  } catch {
    return Number.NaN
  }
}
