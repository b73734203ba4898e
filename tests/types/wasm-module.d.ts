// edge.js imports the package's .wasm file: edge runtimes (workerd) and
// their bundlers hand it over compiled, as a WebAssembly.Module.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
