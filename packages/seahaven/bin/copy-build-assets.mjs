// Part of `npm run build` (and `prepare`): copy the files the compiled example worlds read at run time into dist/,
// beside their compiled modules. `tsc` emits only JavaScript and declarations, but a world reads its schema with
// `readSql(import.meta.url, 'schema.sql')` and its frozen fixtures from `new URL('./fixtures/', import.meta.url)`, so
// dist/worlds/<name>/ needs schema.sql and fixtures/*.sqlite + *.json for `seahaven/worlds/stripe` & co. to load.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const worlds = join(root, 'worlds');
let copied = 0;
const copy = (from, to) => {
  mkdirSync(join(to, '..'), { recursive: true });
  copyFileSync(from, to);
  copied++;
};
for (const entry of readdirSync(worlds, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  const src = join(worlds, entry.name);
  const out = join(root, 'dist', 'worlds', entry.name);
  for (const file of readdirSync(src))
    if (file.endsWith('.sql')) copy(join(src, file), join(out, file));
  const fixtures = join(src, 'fixtures');
  if (!existsSync(fixtures)) continue;
  for (const file of readdirSync(fixtures)) {
    if (file.endsWith('.sqlite') || file.endsWith('.json') || file === '.gitignore')
      copy(join(fixtures, file), join(out, 'fixtures', file));
  }
}
process.stdout.write(`copied ${copied} world assets into dist/worlds\n`);
