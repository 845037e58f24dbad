import { demoHome } from "../../src/adapters/demo-home.ts"

/**
 * The ids of the demo home as docs/simulator.md lists them: each service, then its getters and setters,
 * indented, in the order of src/adapters/demo-home.ts.
 */
export const demoHomeIdList = (): string =>
  demoHome.services
    .flatMap((service) => [
      service.id,
      ...("getters" in service ? service.getters : []).map((getter) => `  ${getter.id}`),
      ...("setters" in service ? service.setters : []).map((setter) => `  ${setter.id}`)
    ])
    .join("\n")
