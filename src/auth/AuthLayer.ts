import { Layer } from "effect"
import { TokenRepository } from "../store/TokenRepository.ts"
import { UserRepository } from "../store/UserRepository.ts"
import { LiveSockets } from "./LiveSockets.ts"
import { LoginThrottle } from "./LoginThrottle.ts"
import { Tokens } from "./Tokens.ts"
import { Users } from "./Users.ts"

/**
 * Users, tokens, the login throttle and the watch-socket counter. Needs Database and GatewayConfig.
 * (The first-run admin, FirstRun, waits for the port: see main.ts.)
 */
export const AuthLayer = Layer.mergeAll(Users.layer, Tokens.layer, LoginThrottle.layer, LiveSockets.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(UserRepository.layer, TokenRepository.layer))
)
