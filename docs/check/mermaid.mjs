// Parses every ```mermaid block of the Markdown files named on the command
// line with Mermaid's own parser (mermaid.parse, the parser mermaid.live
// and GitHub's renderer run), in a DOM jsdom provides; prints each block
// that does not parse as FILE:LINE: the parser's message, and exits 1 if
// any. Run through run.sh, which installs the pinned packages.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');

let failed = 0;
let parsed = 0;
for (const file of process.argv.slice(2)) {
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```mermaid') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end].trim() !== '```') end++;
    const text = lines.slice(start, end).join('\n');
    i = end;
    try {
      await mermaid.parse(text);
      parsed++;
    } catch (e) {
      failed++;
      const msg = String(e && e.message ? e.message : e).split('\n').join(' ');
      console.log(`${file}:${start + 1}: ${msg}`);
    }
  }
}
console.log(`${parsed} Mermaid blocks parse, ${failed} do not`);
process.exit(failed > 0 ? 1 : 0);
