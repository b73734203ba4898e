// Rollup resolves bare imports only through a plugin: the standard one,
// with the `browser` condition as a browser app sets it.
import { nodeResolve } from "@rollup/plugin-node-resolve";

export default {
  input: "main.js",
  output: { dir: process.env.OUT_DIR, format: "es" },
  plugins: [nodeResolve({ browser: true })],
};
