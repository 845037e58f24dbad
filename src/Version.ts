/** The gateway's version, as `--version` and `/health` report it; a test keeps it equal to package.json's. */
export const gatewayVersion = "0.1.0"
