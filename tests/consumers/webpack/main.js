// A webpack 5 app, default settings but the entry.
import "../browser-app.mjs";
