// A browser app bundled by `bun build --target=browser`.
import "../browser-app.mjs";
