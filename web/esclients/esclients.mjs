// The official Elasticsearch JavaScript client and the OpenSearch JavaScript client
// against the host's Elasticsearch-compatible routes (API.md, "Search:
// Elasticsearch-compatible routes"), as a new user would use them: the pinned versions
// of package.json, pointed at the search base path, with no shim, no custom transport
// and no extra headers.
//
//   node esclients.mjs <base>    e.g. http://127.0.0.1:8080/cda/es/v1
//
// It prints one line per check and exits 1 when any fails. Run by esclients_test.go
// against build/host serving the demo environment.
import assert from 'node:assert/strict';
import { Client, errors } from '@elastic/elasticsearch';
import { Client as OpenSearchClient, errors as osErrors } from '@opensearch-project/opensearch';

const base = process.argv[2];
if (!base) {
  process.stderr.write('usage: node esclients.mjs <search base URL>\n');
  process.exit(2);
}

const CAFE = 'Content_1f75041c-8d56-4167-b5d0-5619e31144d6';
const NEWEST = 'Content_b8c3378b-3431-44a1-8e41-3592eba852f7';

let failures = 0;
async function check(name, fn) {
  try {
    await fn();
    process.stdout.write(`ok   ${name}\n`);
  } catch (e) {
    failures++;
    process.stdout.write(`FAIL ${name}: ${e && e.stack || e}\n`);
  }
}

// The Elasticsearch client: its product check passes on the X-Elastic-Product header.
{
  const client = new Client({ node: base });
  await check('elasticsearch: ping and info', async () => {
    assert.equal(await client.ping(), true);
    const info = await client.info();
    assert.match(info.version.number, /^8\./);
    assert.equal(info.tagline, 'You Know, for Search');
  });
  await check('elasticsearch: search with a blank query', async () => {
    const r = await client.search({ index: 'demo' });
    assert.equal(r.hits.total.value, 35);
    assert.equal(r.hits.total.relation, 'eq');
    assert.equal(r.hits.hits.length, 10);
    assert.equal(r.hits.hits[0]._id, NEWEST);
    assert.equal(r.hits.hits[0]._index, 'demo');
    assert.equal(r.hits.hits[0]._source.ContentID, NEWEST);
    assert.equal(typeof r.took, 'number');
    assert.equal(r.timed_out, false);
  });
  await check('elasticsearch: search with a query, _source filtering and highlight', async () => {
    const r = await client.search({
      index: 'demo',
      query: { match: { 'Data.body': 'espresso' } },
      _source: ['Name'],
      highlight: { fields: { 'Data.*': {} } },
    });
    assert.equal(r.hits.total.value, 1);
    const hit = r.hits.hits[0];
    assert.equal(hit._id, CAFE);
    assert.ok(hit._score > 0);
    assert.equal(r.hits.max_score, hit._score);
    assert.deepEqual(hit._source, { Name: 'Café Müller', ContentID: CAFE });
    assert.match(hit.highlight['Data.body'][0], /serves <em>espresso<\/em> in thick/);
  });
  await check('elasticsearch: highlight with pre_tags, post_tags and whole values', async () => {
    const r = await client.search({
      index: 'demo',
      q: 'Data.subtitle:espresso',
      highlight: { pre_tags: ['<b>'], post_tags: ['</b>'], number_of_fragments: 0, fields: { 'Data.subtitle': {} } },
    });
    assert.deepEqual(r.hits.hits[0].highlight, { 'Data.subtitle': ['<b>Espresso</b> in the old town'] });
  });
  await check('elasticsearch: aggregations', async () => {
    const r = await client.search({ index: 'demo', size: 0, aggs: { t: { terms: { field: 'TemplateName', size: 2 } } } });
    assert.deepEqual(r.aggregations.t.buckets, [{ key: 'Article', doc_count: 8 }, { key: 'Page', doc_count: 8 }]);
    assert.equal(r.hits.hits.length, 0);
  });
  await check('elasticsearch: count', async () => {
    const r = await client.count({ index: 'demo', query: { term: { 'TemplateName.keyword': 'Product' } } });
    assert.equal(r.count, 7);
  });
  await check('elasticsearch: msearch, each search naming its index, one failing', async () => {
    const r = await client.msearch({
      searches: [
        { index: 'demo' }, { query: { match_all: {} }, size: 1 },
        { index: 'nope' }, { query: { match_all: {} } },
      ],
    });
    assert.equal(r.responses.length, 2);
    assert.equal(r.responses[0].hits.total.value, 35);
    assert.equal(r.responses[0].status, 200);
    assert.equal(r.responses[1].error.type, 'index_not_found_exception');
    assert.equal(r.responses[1].status, 404);
  });
  await check('elasticsearch: msearch under an index', async () => {
    const r = await client.msearch({ index: 'demo', searches: [{}, { size: 0 }] });
    assert.equal(r.responses[0].hits.total.value, 35);
  });
  await check('elasticsearch: an error is a ResponseError in Elasticsearch\'s shape', async () => {
    await assert.rejects(client.search({ index: 'demo', query: { bogus: {} } }), (e) => {
      assert.ok(e instanceof errors.ResponseError, e.name);
      assert.equal(e.meta.statusCode, 400);
      assert.equal(e.body.error.type, 'parsing_exception');
      assert.equal(e.body.error.root_cause[0].type, 'parsing_exception');
      assert.match(e.message, /parsing_exception/);
      return true;
    });
  });
  await check('elasticsearch: an unknown index is index_not_found_exception', async () => {
    await assert.rejects(client.search({ index: 'nope' }), (e) => {
      assert.ok(e instanceof errors.ResponseError, e.name);
      assert.equal(e.meta.statusCode, 404);
      assert.equal(e.body.error.type, 'index_not_found_exception');
      return true;
    });
  });
}

// The OpenSearch client checks no product.
{
  const client = new OpenSearchClient({ node: base });
  await check('opensearch: search', async () => {
    const r = await client.search({ index: 'demo', body: { query: { match: { 'Data.body': 'espresso' } } } });
    assert.equal(r.statusCode, 200);
    assert.equal(r.body.hits.total.value, 1);
    assert.equal(r.body.hits.hits[0]._id, CAFE);
  });
  await check('opensearch: aggregations and highlight', async () => {
    const r = await client.search({
      index: 'demo',
      body: { query: { match: { Name: 'café' } }, aggs: { t: { terms: { field: 'TemplateName' } } }, highlight: { fields: { Name: {} } } },
    });
    assert.equal(r.body.hits.hits[0].highlight.Name[0], '<em>Café</em> Müller');
    assert.ok(r.body.aggregations.t.buckets.length > 0);
  });
  await check('opensearch: count', async () => {
    const r = await client.count({ index: 'demo' });
    assert.equal(r.body.count, 35);
  });
  await check('opensearch: msearch', async () => {
    const r = await client.msearch({ body: [{ index: 'demo' }, { size: 0 }, { index: 'demo' }, { query: { ids: { values: [CAFE] } } }] });
    assert.equal(r.body.responses[0].hits.total.value, 35);
    assert.equal(r.body.responses[1].hits.hits[0]._id, CAFE);
  });
  await check('opensearch: an error is a ResponseError with the body', async () => {
    await assert.rejects(client.search({ index: 'demo', body: { size: -1 } }), (e) => {
      assert.ok(e instanceof osErrors.ResponseError, e.name);
      assert.equal(e.meta.statusCode, 400);
      assert.equal(e.meta.body.error.type, 'illegal_argument_exception');
      return true;
    });
  });
}

process.stdout.write(failures ? `${failures} checks failed\n` : 'all checks passed\n');
process.exit(failures ? 1 : 0);
