// The code blocks of the READMEs and docs/*.md, for the tests that run
// them (package.test.mjs runs the Node and shell blocks, the consumers'
// test the browser ones). Not a test file: `node --test` runs only
// `*.test.mjs`.
//
// The rule, also checked by tidy (xtask/src/tidy.rs, `code_blocks`): a
// fence whose language is code (js, javascript, mjs, ts, typescript, sh,
// bash, shell) runs in CI unless the paragraph right after its closing
// fence says why not: `*Not run by the tests: REASON.*`. `js browser`
// runs in Chromium, bundled by esbuild with `process.env.PREDMARKET_URL`
// and `process.env.PREDMARKET_KEY` defined as the test server's.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const CODE = new Set(["js", "javascript", "mjs", "ts", "typescript", "sh", "bash", "shell"]);
const MARKER = "*Not run by the tests: ";

/** README.md, crates/wasm/README.md and every doc under docs/ but the
 * spec (the files tidy reads). */
export function docFiles() {
  const docs = readdirSync(join(root, "docs"), { recursive: true })
    .filter((name) => name.endsWith(".md") && !name.startsWith(`spec${sep}`))
    .sort()
    .map((name) => join("docs", name));
  return ["README.md", join("crates", "wasm", "README.md"), ...docs];
}

/**
 * The code blocks of one Markdown text: `{ line, lang, flags, code,
 * notRun }`, `notRun` being the marker's reason or `null`.
 */
export function blocksOf(text) {
  const lines = text.split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\S*)(.*)$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.trimStart().startsWith("```"));
    if (end < 0) break;
    const lang = open[1];
    if (CODE.has(lang)) {
      let after = [];
      for (let j = end + 1; j < lines.length && lines[j].trim() !== ""; j++) after.push(lines[j]);
      after = after.join(" ");
      const notRun = after.startsWith(MARKER) && after.endsWith("*") ? after.slice(MARKER.length, -1).trim() : null;
      blocks.push({ line: i + 1, lang, flags: open[2].trim().split(/\s+/).filter(Boolean), code: lines.slice(i + 1, end).join("\n") + "\n", notRun });
    }
    i = end;
  }
  return blocks;
}

/** Every code block of every doc, with its file (relative to the root). */
export function codeBlocks() {
  return docFiles().flatMap((file) => blocksOf(readFileSync(join(root, file), "utf8")).map((b) => ({ file, ...b })));
}

/** How a block runs: "node", "browser", "shell", or why it does not. */
export function runnerOf(block) {
  if (block.notRun !== null) return { skip: block.notRun };
  if (["js", "javascript", "mjs"].includes(block.lang)) return { run: block.flags.includes("browser") ? "browser" : "node" };
  if (["sh", "bash", "shell"].includes(block.lang)) return { run: "shell" };
  return { error: `${block.lang} blocks have no runner: mark the block not run, with why` };
}

export const shown = (block) => `${relative(root, join(root, block.file))}:${block.line}`;
