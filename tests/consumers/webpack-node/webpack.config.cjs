// The serverless / Next.js case: everything, the package included, in one
// CommonJS file for Node.
const path = require("node:path");
module.exports = {
  mode: "production",
  target: "node",
  entry: "./app.mjs",
  output: { path: path.resolve(process.env.OUT_DIR), filename: "server.cjs" },
};
