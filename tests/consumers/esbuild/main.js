// An esbuild app: `esbuild main.js --bundle`, nothing else.
import "../browser-app.mjs";
