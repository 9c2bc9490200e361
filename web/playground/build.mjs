// Builds the playground, GraphiQL and API reference pages into a folder the host embeds
// (host/webui/dist by default): esbuild bundles the scripts (pinned in package.json, so
// the same sources give the same bytes; playground_test.go checks the committed folder
// against a fresh build), the HTML pages and openapi.json are written beside them.
//
//   node build.mjs [--out DIR]
import * as esbuild from 'esbuild';
import { mkdir, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapi from './openapi.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const i = process.argv.indexOf('--out');
const out = i > 0 ? process.argv[i + 1] : join(here, '..', '..', 'host', 'webui', 'dist');

await rm(out, { recursive: true, force: true });
await mkdir(join(out, 'web'), { recursive: true });
await esbuild.build({
  absWorkingDir: here,
  entryPoints: { playground: 'src/playground.js', graphiql: 'src/graphiql.jsx', docs: 'src/docs.js', 'playground-style': 'src/playground.css' },
  outdir: join(out, 'web'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  platform: 'browser',
  jsx: 'automatic',
  legalComments: 'eof',
  charset: 'utf8',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
// esbuild names a CSS entry after its entry point; the pages want playground.css.
await copyFile(join(out, 'web', 'playground-style.css'), join(out, 'web', 'playground.css'));
await rm(join(out, 'web', 'playground-style.css'));
for (const page of ['index.html', 'graphiql.html', 'docs.html']) {
  await writeFile(join(out, page), await readFile(join(here, 'src', page)));
}
await writeFile(join(out, 'openapi.json'), JSON.stringify(openapi, null, 2) + '\n');
console.log('built', out);
