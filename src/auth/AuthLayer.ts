import { Layer } from "effect"
import { LiveSockets } from "./LiveSockets.ts"
import { LoginThrottle } from "./LoginThrottle.ts"
import { Tokens } from "./Tokens.ts"
import { Users } from "./Users.ts"

/**
 * Users, tokens, the login throttle and the watch-socket counter. Needs a UserStore, a TokenStore and GatewayConfig.
 * (The first-run admin, FirstRun, waits for the port: see main.ts.)
 */
export const AuthLayer = Layer.mergeAll(Users.layer, Tokens.layer, LoginThrottle.layer, LiveSockets.layer)
