// What the package's JS uses that TypeScript's lib does not declare.

// edge.js imports the package's .wasm file: edge runtimes (workerd) and
// their bundlers hand it over compiled, as a WebAssembly.Module.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}

// wasm-inline.js decodes with `Uint8Array.fromBase64` where the runtime
// has it (ES2026; absent from TypeScript 5.9's lib), else with `atob`.
interface Uint8ArrayConstructor {
  fromBase64?(text: string): Uint8Array;
}
