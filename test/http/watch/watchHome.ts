/**
 * The simulated home of the watch tests: a lamp and a thermostat in the living room whose setters drive
 * their getters, a smoke sensor that reports only on thresholds (and refuses an `Always` watch), and a
 * door whose getter cycles on its own.
 */
export const adapter = "simulator@watch.test"

export const lamp = "getter:lamp@w"
export const temperature = "getter:temperature@w"
export const smoke = "getter:smoke@w"
export const door = "getter:door@w"

export const watchHome = {
  adapter,
  services: [
    {
      id: "service:lamp@w",
      tags: ["living"],
      getters: [{ id: lamp, kind: "OnOff", value: { OnOff: "Off" } }],
      setters: [{ id: "setter:lamp@w", kind: "OnOff", drives: lamp }]
    },
    {
      id: "service:thermostat@w",
      tags: ["living"],
      getters: [{ id: temperature, kind: "Thermostat", value: { Temperature: { C: 20 } } }],
      setters: [{ id: "setter:temperature@w", kind: "Thermostat", drives: temperature }]
    },
    {
      id: "service:smoke@w",
      getters: [{ id: smoke, kind: "OnOff", watch: "thresholds-only", value: { OnOff: "Off" } }],
      setters: [{ id: "setter:smoke@w", kind: "OnOff", drives: smoke }]
    },
    {
      id: "service:door@w",
      getters: [{ id: door, kind: "OpenClosed", cycle: { every_ms: 100, values: [{ OpenClosed: "Closed" }, { OpenClosed: "Open" }] } }]
    }
  ]
}

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: unknown }>

/** Writes `value` to the setter of `getter` (its id with `setter:`) in vocabulary B, expecting success. */
export const writeB = async (call: Call, getter: string, value: unknown) => {
  const setter = getter.replace(/^getter:/, "setter:")
  const reply = await call("PUT", "/api/v1/channels/set", { select: { id: setter }, value })
  if (reply.status !== 200) throw new Error(`write failed: ${JSON.stringify(reply)}`)
}

/** The same in vocabulary A. */
export const writeA = async (call: Call, getter: string, value: unknown) => {
  const setter = getter.replace(/^getter:/, "setter:")
  const reply = await call("POST", "/api/v1/channels/value", [[{ id: { Exactly: setter } }], value])
  if (reply.status !== 200) throw new Error(`write failed: ${JSON.stringify(reply)}`)
}

export const on = { OnOff: "On" }
export const off = { OnOff: "Off" }
export const celsius = (degrees: number) => ({ Temperature: { C: degrees } })
export const fahrenheit = (degrees: number) => ({ Temperature: { F: degrees } })

/** The next `n` frames that are not values (a device joining with a value reports it at once). */
export const nextWithoutValues = async (client: { readonly next: () => Promise<unknown> }, n: number) => {
  const out: Array<unknown> = []
  while (out.length < n) {
    const frame = await client.next()
    if (!(typeof frame === "object" && frame !== null && "Value" in frame)) out.push(frame)
  }
  return out
}
