// Item bodies by range (wasm/README.md): the module holds a snapshot's index part only and
// the glue reads the bodies a request needs from the caller's bytes, from the file at a
// path, or from a source whose reads are asynchronous. Every way answers byte for byte
// as the whole file loaded into the module does; the index part takes no more wasm
// memory; and a body range that fails its check, or a read that fails, costs that
// request only.
//
//   node --test wasm/js/test/bodies.test.mjs    (needs go for the builder; wasm/js's TestNodeTests runs it)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexLength, open } from '../index.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let dir, demo, gen;

// The builder writes the demo environment and a generated one of 3,000 items (about
// 2,700 published, a 21 MB file) into a temporary folder.
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'cdaedge-bodies-'));
  const builder = join(dir, 'builder');
  const run = (cmd, ...args) => execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  run('go', 'build', '-o', builder, './builder');
  demo = join(dir, 'demo.snap');
  gen = join(dir, 'g.snap');
  run(builder, 'build', '--env', 'demo', '--out', demo, 'testdata/demo/content.ndjson');
  run(builder, 'gen', '--items', '3000', '--seed', '1', '--out', join(dir, 'g.ndjson'));
  run(builder, 'build', '--env', 'g', '--out', gen, join(dir, 'g.ndjson'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

// wholeFile is a source whose "index part" is the whole file: the module then holds every
// body and never asks for a range, as before bodies were read by range.
const wholeFile = (bytes) => ({ index: bytes, read() { throw new Error('the whole file was loaded: no range to read'); } });

// bytesSource serves ranges of bytes through read, counting the reads.
function bytesSource(bytes, read = (offset, length) => bytes.subarray(offset, offset + length)) {
  const src = { index: bytes.subarray(0, indexLength(bytes)), reads: 0, read: (o, l) => { src.reads++; return read(o, l); } };
  return src;
}

const json = { 'content-type': 'application/json' };
const graphql = (env, query) => ({ method: 'POST', path: `/cda/graphql/v1/${env}`, headers: json, body: { query } });

// requests are a REST list, a REST get (of the list's first item), a search and a
// GraphQL query that selects content and media references.
function requests(engine, env) {
  const list = { path: `/cda/rest/v1/${env}/contents`, query: 'pageSize=50&sort=Name&sortAsc=true' };
  const first = engine.request(list).json().data[0].ContentID;
  return [
    list,
    { path: `/cda/rest/v1/${env}/contents/${first}` },
    { method: 'POST', path: `/cda/es/v1/${env}`, headers: json, body: { query: { query_string: { query: 'garden OR coffee' } }, size: 40, aggs: { t: { terms: { field: 'TemplateName.keyword' } } } } },
    env === 'demo'
      ? graphql(env, '{ content(pageSize: 30, sortAsc: true) { Name Data { title author { ContentIDs } hero { MediaUrl AltText } featured { ContentIDs } } } }')
      : graphql(env, '{ content(pageSize: 60, templateName: "Article") { Name Data { title author { ContentIDs } image { MediaUrl } related { ContentIDs } } } }'),
  ];
}

const answer = (r) => ({ status: r.status, headers: r.headers, body: Buffer.from(r.body).toString() });

for (const [name, file] of [['demo', () => demo], ['generated', () => gen]]) {
  test(`${name}: bytes, a path and an async source answer as the whole file does`, async () => {
    const bytes = readFileSync(file());
    const whole = await open(wholeFile(bytes));
    const env = whole.environment;
    const reqs = requests(whole, env);
    const want = reqs.map((r) => answer(whole.request(r)));
    for (const w of want) assert.equal(w.status, 200, w.body);

    const viaBytes = await open(bytes);
    const viaPath = await open(file());
    const slow = bytesSource(bytes);
    const read = slow.read;
    slow.read = async (o, l) => { await new Promise((resolve) => setTimeout(resolve, 1)); return read(o, l); };
    const viaAsync = await open(slow);
    // Sources without their index part: the engine reads it into the module's memory,
    // through read, or chunk by chunk through readInto (as the Workers entry streams a
    // range from R2 or static assets), awaited by open's loadSnapshotAsync.
    const viaRead = await open({ read: (o, l) => bytes.subarray(o, o + l) });
    const streamed = {
      read: async (o, l) => bytes.subarray(o, o + l),
      async readInto(o, dst) {
        for (let i = 0; i < dst.length; i += 65536) {
          await new Promise((resolve) => setImmediate(resolve));
          dst.set(bytes.subarray(o + i, o + Math.min(i + 65536, dst.length)), i);
        }
      },
    };
    const viaStream = await open(streamed);
    try {
      for (let round = 0; round < 2; round++) { // the second from the block cache
        for (const [i, r] of reqs.entries()) {
          assert.deepEqual(answer(viaBytes.request(r)), want[i], `bytes, request ${i}`);
          assert.deepEqual(answer(viaPath.request(r)), want[i], `path, request ${i}`);
          assert.deepEqual(answer(await viaAsync.requestAsync(r)), want[i], `async source, request ${i}`);
          assert.deepEqual(answer(viaRead.request(r)), want[i], `source without index, request ${i}`);
          assert.deepEqual(answer(await viaStream.requestAsync(r)), want[i], `streamed source, request ${i}`);
        }
      }
      assert.ok(slow.reads > 0, 'the async source was never read: the module held every body');
      // Calls made together are answered one after another, each with its own answer.
      const together = await Promise.all(reqs.map((r) => viaAsync.requestAsync(r)));
      together.forEach((r, i) => assert.deepEqual(answer(r), want[i], `concurrent request ${i}`));
    } finally {
      viaPath.close();
    }
  });
}

test('the index part takes no more wasm memory than the whole file', async (t) => {
  const bytes = readFileSync(gen);
  const whole = await open(wholeFile(bytes));
  const part = await open(bytes);
  const list = { path: '/cda/rest/v1/g/contents', query: 'pageSize=100' };
  assert.deepEqual(answer(part.request(list)), answer(whole.request(list)));
  t.diagnostic(`file ${bytes.length} bytes, index part ${indexLength(bytes)}: wasm memory ${whole.memoryBytes} whole, ${part.memoryBytes} index part`);
  // Bodies are stored deflated (about a quarter of their JSON), so the whole file is not
  // much larger than its index part; the saving that matters is at scale (100k items:
  // the Node scalecheck tool), and here only the direction is checked.
  assert.ok(part.memoryBytes <= whole.memoryBytes, `wasm memory ${part.memoryBytes} with the index part, ${whole.memoryBytes} with the whole file`);
});

test('a corrupt body range is a 500 and a failed read an error; the engine goes on', async () => {
  const bytes = readFileSync(demo);
  const whole = await open(wholeFile(bytes));
  const list = { path: '/cda/rest/v1/demo/contents', query: 'pageSize=5' };
  const want = answer(whole.request(list));

  let fault = 'flip';
  const src = bytesSource(bytes, (offset, length) => {
    const b = Uint8Array.from(bytes.subarray(offset, offset + length)); // a copy (Buffer's slice is a view)
    if (fault === 'flip') b[length >> 1] ^= 0x20;
    if (fault === 'throw') throw new Error('disk on fire');
    if (fault === 'promise') return Promise.resolve(b);
    return b;
  });
  const engine = await open(src);
  const broken = engine.request(list);
  assert.equal(broken.status, 500, broken.text());
  assert.equal(broken.json().error.code, 'internal');
  fault = 'throw';
  assert.throws(() => engine.request(list), /disk on fire/);
  await assert.rejects(engine.requestAsync(list), /disk on fire/);
  fault = 'promise';
  assert.throws(() => engine.request(list), /use handleAsync/);
  assert.deepEqual(answer(await engine.requestAsync(list)), want);
  fault = null;
  assert.deepEqual(answer(engine.request(list)), want);

  // A failed read of the index part fails the load, closes the source and leaves the
  // engine serving what it served.
  let closed = false;
  const failing = { read: (o, l) => bytes.subarray(o, o + l), readInto() { throw new Error('index read failed'); }, close() { closed = true; } };
  await assert.rejects(engine.loadSnapshotAsync(failing), /index read failed/);
  assert.ok(closed, 'the failed source was not closed');
  assert.deepEqual(answer(engine.request(list)), want);
  assert.throws(() => engine.loadSnapshot({ read: async () => bytes.subarray(0, 80) }), /use loadSnapshotAsync/);
});

test('close() closes the files the engine opened, also when open() fails', { skip: !existsSync('/proc/self/fd') }, async () => {
  const fds = () => readdirSync('/proc/self/fd').length;
  const before = fds();
  const engine = await open([demo, gen]);
  assert.equal(fds(), before + 2);
  engine.close();
  assert.equal(fds(), before);
  assert.throws(() => engine.request({ path: '/cda/rest/v1/demo/contents' }), /closed/);

  const notSnapshot = join(dir, 'not.snap');
  writeFileSync(notSnapshot, 'x'.repeat(200));
  await assert.rejects(open([demo, notSnapshot]), /not\.snap: not a snapshot file/);
  assert.equal(fds(), before);
});
