import { render } from "preact"
import { App } from "../pages/App.tsx"

const root = document.getElementById("app")
if (root !== null) render(<App />, root)
