// Search speed of the cdaedge module (through the Node package, wasm/js) beside Orama
// and MiniSearch, in one Node process, on the same generated items and the same
// queries. Prints the median (p50) time of each query per engine and the ratio
// Orama / us (above 1: we are faster).
//
//   node web/bench/search.mjs --module build/module-tinygo.wasm \
//     --items build/bench/items-10000.ndjson --snapshot build/bench/bench-10000.snap [...more pairs]
//
// The task bench:node generates the items (builder gen, seed 1) and builds the snapshots.
// --module may be given more than once, as LABEL=FILE, to compare builds of the module
// in the same run; the ratio is Orama over the last one.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import MiniSearch from 'minisearch';
import { open } from '../../wasm/js/index.mjs';

const { values } = parseArgs({
  options: {
    module: { type: 'string', multiple: true },
    items: { type: 'string', multiple: true },
    snapshot: { type: 'string', multiple: true },
    runs: { type: 'string', default: '200' },
    minisearch: { type: 'boolean', default: true },
  },
});
if (!values.module || !values.items || values.items.length !== (values.snapshot ?? []).length) {
  console.error('usage: search.mjs --module FILE (--items NDJSON --snapshot SNAP)...');
  process.exit(2);
}
const runs = Number(values.runs);

// The queries, in each engine's own terms. Full text searches the same text fields in
// each engine (Name, Data.title, Data.body with its markup stripped, Data.summary,
// Data.tags), any of the words (OR), ranked by BM25 (MiniSearch: its BM25+).
const from = Date.parse('2021-01-01T00:00:00Z');
const to = Date.parse('2022-01-01T00:00:00Z');
const textFields = ['Name', 'Data.title', 'Data.body', 'Data.summary', 'Data.tags'];
const fullText = (q) => ({ query_string: { query: q, fields: textFields } });
const queries = [
  {
    name: 'full text "coffee garden", top 10',
    us: { query: fullText('coffee garden'), size: 10 },
    orama: { term: 'coffee garden', limit: 10 },
    mini: (ms) => ms.search('coffee garden'),
  },
  {
    name: 'full text AND TemplateName Recipe, top 10',
    us: { query: { bool: { must: [fullText('coffee garden')], filter: [{ term: { 'TemplateName.keyword': 'Recipe' } }] } }, size: 10 },
    orama: { term: 'coffee garden', where: { template: { eq: 'Recipe' } }, limit: 10 },
    mini: (ms) => ms.search('coffee garden', { filter: (r) => r.template === 'Recipe' }),
  },
  {
    name: 'TemplateName Article, sort CreatedAt desc, top 10',
    us: { query: { bool: { filter: [{ term: { 'TemplateName.keyword': 'Article' } }] } }, sort: [{ CreatedAt: 'desc' }], size: 10 },
    orama: { term: '', where: { template: { eq: 'Article' } }, sortBy: { property: 'created', order: 'DESC' }, limit: 10 },
  },
  {
    name: 'CreatedAt in 2021, page 3 of 10',
    us: { query: { range: { CreatedAt: { gte: '2021-01-01', lt: '2022-01-01' } } }, from: 20, size: 10 },
    orama: { term: '', where: { created: { between: [from, to - 1] } }, offset: 20, limit: 10 },
  },
  // Ours only: query_string without default_field searches every text field.
  {
    name: 'query_string "coffee garden", every field',
    us: { query: { query_string: { query: 'coffee garden' } }, size: 10 },
  },
  {
    name: 'query_string "coffee mountain festival", every field',
    us: { query: { query_string: { query: 'coffee mountain festival' } }, size: 10 },
  },
];

const stripTags = (html) => (html ?? '').replace(/<[^>]*>/g, ' ').replace(/&[a-z#0-9]+;/gi, ' ');

function toDoc(item, i) {
  const d = item.Data ?? {};
  return {
    id: String(i),
    name: item.Name ?? '',
    template: item.TemplateName ?? '',
    created: Date.parse(item.CreatedAt),
    title: typeof d.title === 'string' ? d.title : '',
    body: typeof d.body === 'string' ? stripTags(d.body) : '',
    summary: typeof d.summary === 'string' ? d.summary : '',
    tags: Array.isArray(d.tags) ? d.tags.join(' ') : '',
  };
}

// p50s runs the functions in turn, runs times after a warm-up, and returns the median
// wall time of each in microseconds. Taking turns spreads whatever else the machine is
// doing evenly over the engines compared.
function p50s(fns) {
  for (let i = 0; i < Math.min(20, runs); i++) fns.forEach((fn) => fn());
  const t = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    fns.forEach((fn, k) => {
      const s = process.hrtime.bigint();
      fn();
      t[k].push(Number(process.hrtime.bigint() - s) / 1000);
    });
  }
  return t.map((x) => x.sort((a, b) => a - b)[x.length >> 1]);
}

const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`).padStart(10);

for (let k = 0; k < values.items.length; k++) {
  const lines = readFileSync(values.items[k], 'utf8').split('\n').filter((l) => l !== '');
  const items = lines.map((l) => JSON.parse(l)).filter((it) => (it.Status ?? 'Published') === 'Published');
  const docs = items.map(toDoc);
  const avg = Math.round(lines.reduce((n, l) => n + l.length, 0) / lines.length);

  const snapBytes = readFileSync(values.snapshot[k]);
  const engines = [];
  for (const m of values.module) {
    const [label, file] = m.includes('=') ? m.split('=', 2) : ['cdaedge', m];
    engines.push({ label, cda: await open(snapBytes, { module: readFileSync(file) }) });
  }
  const cda = engines[engines.length - 1].cda;

  const orama = create({
    schema: { id: 'string', name: 'string', template: 'enum', created: 'number', title: 'string', body: 'string', summary: 'string', tags: 'string' },
  });
  await insertMultiple(orama, docs, 1000);
  const textProps = ['name', 'title', 'body', 'summary', 'tags'];

  let mini = null;
  if (values.minisearch) {
    mini = new MiniSearch({ fields: textProps, storeFields: ['template'] });
    mini.addAll(docs);
  }

  console.log(`\n${docs.length} published items (of ${lines.length}; ~${avg} bytes each), ${runs} runs per query, p50:`);
  console.log(`${'query'.padEnd(56)} ${engines.map((e) => e.label.padStart(10)).join(' ')} ${'Orama'.padStart(10)} ${'MiniSearch'.padStart(10)}  Orama/us`);
  for (const q of queries) {
    const body = JSON.stringify(q.us);
    const env = cda.search(body);
    const oramaQuery = q.orama && { ...q.orama, properties: q.orama.term ? textProps : undefined };
    const res = oramaQuery ? oramaSearch(orama, oramaQuery) : { count: '-' };
    if (typeof res?.then === 'function') throw new Error('Orama answered asynchronously');
    for (const e of engines) {
      if (e.cda.search(body).totalItems !== env.totalItems) throw new Error(`${e.label}: another answer to ${q.name}`);
    }
    const fns = [...engines.map((e) => () => e.cda.search(body)), oramaQuery ? () => oramaSearch(orama, oramaQuery) : () => {}];
    // MiniSearch ranks every match; the top 10 are the first ten.
    if (mini && q.mini) fns.push(() => q.mini(mini).slice(0, 10));
    const times = p50s(fns);
    const ours = times.slice(0, engines.length);
    const [or, mi = NaN] = times.slice(engines.length);
    const us = ours[ours.length - 1];
    const miHits = mini && q.mini ? `, MiniSearch ${q.mini(mini).length}` : '';
    const dash = '-'.padStart(10);
    console.log(
      `${q.name.padEnd(56)} ${ours.map(fmt).join(' ')} ${oramaQuery ? fmt(or) : dash} ${Number.isNaN(mi) ? dash : fmt(mi)}  ${oramaQuery ? `${(or / us).toFixed(1)}x` : '-'}` +
        `   (hits: us ${env.totalItems}, Orama ${res.count}${miHits})`,
    );
  }
}
