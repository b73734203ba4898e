// A browser app with webpack 5's defaults; the runner builds it in
// development and in production mode (`--mode`).
const path = require("node:path");
module.exports = {
  entry: "./main.js",
  output: { path: path.resolve(process.env.OUT_DIR), filename: "main.js" },
};
