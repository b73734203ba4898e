// A Vite app: nothing but the import (no plugin, no optimizeDeps setting).
import "../browser-app.mjs";
