// The browser test of the playground (run by playground_test.go): Debian's Chromium,
// driven by playwright-core (it never downloads a browser), loads the pages from a
// running host, sends one request of each style from the page and checks what the page
// shows; then does the same with the query module running in the page (the demo
// snapshot, then a dropped .snap file) and checks the answers are the host's, byte for
// byte; GraphiQL runs a query and completes a Data element from the typed schema; the
// API reference renders every operation of openapi.json. Screenshots go to OUTDIR.
//
//   node browser.mjs BASE_URL OUTDIR [CHROMIUM]
import { chromium } from 'playwright-core';
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';

const [base, outDir, executablePath = '/usr/bin/chromium'] = process.argv.slice(2);
if (!base || !outDir) throw new Error('usage: node browser.mjs BASE_URL OUTDIR [CHROMIUM]');
await mkdir(outDir, { recursive: true });
const profile = await mkdtemp(join(tmpdir(), 'cdaedge-chromium-'));
const timeout = 30000;

const context = await chromium.launchPersistentContext(profile, {
  executablePath,
  headless: true,
  viewport: { width: 1600, height: 1000 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const problems = [];
let passed = 0;
const step = async (name, fn) => {
  const t0 = Date.now();
  await fn();
  passed++;
  console.log(`ok  ${name} (${Date.now() - t0} ms)`);
};

try {
  const page = context.pages()[0] ?? await context.newPage();
  page.setDefaultTimeout(timeout);
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // The error examples' 400s are logged by Chromium as failed loads; anything else counts.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource: .* status of 400/.test(msg.text())) problems.push(`console error: ${msg.text()}`);
  });
  const apiRequests = [];
  page.on('request', (req) => { if (new URL(req.url()).pathname.startsWith('/cda/')) apiRequests.push(req.url()); });

  // sendAndRead clicks a panel's Send button and waits for its answer.
  const sendAndRead = async (panel, example, out = `${panel}-body`) => {
    await page.selectOption(`#${panel}-examples`, String(example));
    await page.evaluate((p) => { for (const id of [`${p}-status`, `${p}-total`]) document.getElementById(id).textContent = ''; }, panel);
    await page.click(`#${panel}-send`);
    await page.waitForFunction((p) => document.getElementById(`${p}-status`).textContent !== '', panel);
    return {
      status: await page.textContent(`#${panel}-status`),
      total: await page.textContent(`#${panel}-total`),
      time: await page.textContent(`#${panel}-time`),
      body: await page.textContent(`#${out}`),
    };
  };
  const runAll = async () => {
    const rest = await sendAndRead('rest', 0);
    assert.equal(rest.status, '200', rest.body);
    assert.equal(rest.total, 'totalItems 1');
    assert.match(rest.body, /Café Müller/);
    assert.match(rest.time, /\d ms/);
    const gql = await sendAndRead('graphql', 0);
    assert.equal(gql.status, '200', gql.body);
    assert.match(gql.body, /"PublishedBy": "Erian Suwandi"/);
    const std = await sendAndRead('graphql', 1);
    assert.equal(std.status, '200', std.body);
    assert.equal(std.total, 'totalItems 8');
    const search = await sendAndRead('search', 0, 'search-out');
    assert.equal(search.status, '200', search.body);
    assert.match(search.total, /^totalItems \d+$/);
    await page.waitForFunction(() => document.getElementById('search-explain').textContent !== '');
    const explain = await page.textContent('#search-explain');
    assert.match(explain, /Data\.body:espresso/, explain);
    const bad = await sendAndRead('search', 5, 'search-out');
    assert.equal(bad.status, '400');
    await page.waitForFunction(() => document.getElementById('search-explain').textContent.startsWith('invalid'));
    return { rest, gql, std, search, bad, explain };
  };

  let host;
  await step('playground, answered by the host: REST, GraphQL (both modes), search with _validate/query', async () => {
    await page.goto(base + '/');
    await page.waitForSelector('body[data-ready=true]');
    assert.match(await page.textContent('#engine-status'), /serves demo/);
    host = await runAll();
    assert.ok(apiRequests.length >= 6, 'the host mode sends its requests to the host');
    await sendAndRead('search', 0, 'search-out'); // a successful answer on the screenshot
    await page.screenshot({ path: join(outDir, 'playground.png') });
  });

  await step('playground, the module in the page with the demo snapshot: the same bytes as the host', async () => {
    await page.goto(base + '/?engine=browser');
    await page.waitForSelector('body[data-ready=true]');
    await page.waitForFunction(() => document.body.dataset.engine === 'browser');
    assert.match(await page.textContent('#engine-status'), /runs in this page with demo\.snap/);
    apiRequests.length = 0;
    const local = await runAll();
    assert.deepEqual(apiRequests, [], 'the in-browser mode sends no API request');
    for (const k of ['rest', 'gql', 'std', 'search', 'bad']) {
      assert.equal(local[k].body, host[k].body, `${k}: the module in the page answers as the host does`);
      assert.equal(local[k].total, host[k].total);
    }
    assert.equal(local.explain, host.explain);
    await sendAndRead('search', 0, 'search-out');
    await page.screenshot({ path: join(outDir, 'playground-in-browser.png') });
  });

  await step('playground, a dropped .snap file', async () => {
    await page.goto(base + '/');
    await page.waitForSelector('body[data-ready=true]');
    await page.evaluate(async () => {
      const bytes = await (await fetch('web/snapshots/demo.snap')).arrayBuffer();
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'dropped.snap'));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => document.body.dataset.engine === 'browser');
    assert.match(await page.textContent('#engine-status'), /dropped\.snap/);
    const rest = await sendAndRead('rest', 0);
    assert.equal(rest.total, 'totalItems 1');
  });

  await step('GraphiQL: a query through the standard mode, completion of a Data element from the typed schema', async () => {
    await page.goto(base + '/graphiql');
    await page.waitForSelector('.graphiql-container .CodeMirror');
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(() => /"totalItems": 8/.test(document.querySelector('.result-window')?.textContent ?? ''));
    // Completion: type inside Data { } and read the hints GraphiQL offers.
    await page.evaluate(() => {
      const cm = document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror;
      cm.setValue('{ contentPage { items { Data {  } } } }');
      cm.focus();
      cm.setCursor({ line: 0, ch: '{ contentPage { items { Data { '.length });
    });
    await page.keyboard.type('url', { delay: 50 });
    await page.waitForSelector('.CodeMirror-hints');
    const hints = await page.textContent('.CodeMirror-hints');
    assert.match(hints, /urlPath/, hints);
    await page.keyboard.press('Escape');
    await page.evaluate(() => {
      document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue('{\n  contentPage(pageSize: 3, templateName: "Article") {\n    totalItems\n    items { Name Data { title } }\n  }\n}\n');
    });
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(() => /"title"/.test(document.querySelector('.result-window')?.textContent ?? ''));
    await page.screenshot({ path: join(outDir, 'playground-graphiql.png') });
  });

  await step('GraphiQL with the module in the page', async () => {
    apiRequests.length = 0;
    await page.goto(base + '/graphiql?engine=browser');
    await page.waitForSelector('.graphiql-container .CodeMirror');
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(() => /"totalItems": 8/.test(document.querySelector('.result-window')?.textContent ?? ''));
    assert.deepEqual(apiRequests, []);
  });

  await step('API reference: every operation of openapi.json rendered', async () => {
    await page.goto(base + '/docs');
    await page.waitForSelector('body[data-ready=true]');
    const doc = await (await page.request.get(base + '/openapi.json')).json();
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId).filter(Boolean));
    for (const id of ids) assert.ok(await page.$(`section.op[id="${id}"]`), `operation ${id} is on the page`);
    await page.screenshot({ path: join(outDir, 'playground-docs.png') });
  });

  assert.deepEqual(problems, [], 'no page errors or console errors');
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
}
console.log(`${passed} passed, 0 failed`);
