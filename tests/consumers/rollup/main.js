// A Rollup app with the usual node-resolve plugin (browser exports).
import "../browser-app.mjs";
