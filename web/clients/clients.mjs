// Real GraphQL clients against the host's GraphQL endpoint (API.md D9), as a new user
// would use them: the pinned versions of package.json, their own fetch (Node's), no
// shim, no custom fetch, no extra headers. The endpoint answers them in the standard
// mode because each sends Accept: application/graphql-response+json.
//
//   node clients.mjs <endpoint>    e.g. http://127.0.0.1:8080/cda/graphql/v1/demo
//
// It prints one line per check and exits 1 when any fails. Run by clients_test.go
// against build/host serving the demo environment.
import assert from 'node:assert/strict';
import { GraphQLClient, ClientError, batchRequests } from 'graphql-request';
import { ApolloClient, HttpLink, InMemoryCache, CombinedGraphQLErrors, gql } from '@apollo/client';
import { Client, cacheExchange, fetchExchange } from '@urql/core';

const endpoint = process.argv[2];
if (!endpoint) {
  process.stderr.write('usage: node clients.mjs <graphql endpoint URL>\n');
  process.exit(2);
}
const metricsURL = new URL('/metrics', endpoint).href;

const HOME = 'Content_9b77044f-f2d4-46d9-a5c6-f68df62306e4';
const NEWEST = 'Content_b8c3378b-3431-44a1-8e41-3592eba852f7';

// The documented queries (API.md, "GraphQL: query content"), in standard syntax.
const documented = {
  firstPage: `query { content(pageSize: 3, page: 1, sortAsc: true, PublishedBy: "Erian Suwandi") { Name, ContentID, PublishedBy } }`,
  noArguments: `query { content { Name ContentID } }`,
  dataFilter: `query { content(data: {urlPath: "/home"}) { Name Data { title urlPath } } }`,
  variables: `query($n: String) { content(name: $n, pageSize: 5) { Name Data { title slug } } }`,
};

// Standard queries: variables, fragments, aliases, totalItems through contentPage.
const standard = {
  page: `query Pages($size: Int!, $page: Int) {
    contentPage(pageSize: $size, page: $page, templateName: "Page", sort: "Name", sortAsc: true) {
      totalItems page pageSize items { ...Card }
    }
  }
  fragment Card on Content { ContentID Name Data { title urlPath hero { MediaUrl AltText } } }`,
  aliases: `query Ends { newest: content(pageSize: 1) { ContentID } oldest: content(pageSize: 1, sortAsc: true) { ContentID } }`,
};

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

// graphqlRequests reads the host's count of GraphQL requests (Prometheus text), to show
// that a cached answer made no request.
async function graphqlRequests() {
  const text = await (await fetch(metricsURL)).text();
  let n = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('cda_http_requests_total{') && line.includes('route="graphql"')) {
      n += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return n;
}

function checkPage(p) {
  assert.equal(p.totalItems, 8);
  assert.equal(p.page, 1);
  assert.equal(p.pageSize, 3);
  assert.deepEqual(p.items.map((i) => i.Name), ['About Us', 'Contact', 'Create Content']);
  assert.equal(p.items[0].Data.urlPath, '/about-us');
}

// Plain fetch, as existing callers use the endpoint: the documented envelope (D8, D9).
await check('fetch without Accept: the documented envelope, data[0] and totalItems', async () => {
  const r = await fetch(endpoint, { method: 'POST', body: documented.firstPage });
  assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  const body = await r.json();
  assert.equal(body.status, 200);
  assert.equal(body.data[0].Name, 'Home');
  assert.equal(body.totalItems, 15);
  assert.ok(r.headers.get('etag'), 'ETag is not readable');
});

// graphql-request 7.
{
  const client = new GraphQLClient(endpoint);
  await check('graphql-request: documented list query', async () => {
    const d = await client.request(documented.firstPage);
    assert.deepEqual(d.content.map((i) => i.Name), ['Home', 'About Us', 'Publishing Workflow']);
  });
  await check('graphql-request: content without arguments is a list', async () => {
    const d = await client.request(documented.noArguments);
    assert.equal(d.content.length, 10);
    assert.equal(d.content[0].ContentID, NEWEST);
  });
  await check('graphql-request: data filter and Data { title urlPath }', async () => {
    const d = await client.request(documented.dataFilter);
    assert.deepEqual(d.content, [{ Name: 'Home', Data: { title: 'Welcome to Northwind Journal', urlPath: '/home' } }]);
  });
  await check('graphql-request: variables; an element an item lacks is null', async () => {
    const d = await client.request(documented.variables, { n: 'home' });
    assert.deepEqual(d.content, [{ Name: 'Home', Data: { title: 'Welcome to Northwind Journal', slug: null } }]);
  });
  await check('graphql-request: contentPage reaches totalItems, with fragments', async () => {
    checkPage((await client.request(standard.page, { size: 3 })).contentPage);
  });
  await check('graphql-request: aliases', async () => {
    const d = await client.request(standard.aliases);
    assert.deepEqual(d, { newest: [{ ContentID: NEWEST }], oldest: [{ ContentID: HOME }] });
  });
  await check('graphql-request: GET', async () => {
    const d = await new GraphQLClient(endpoint, { method: 'GET' }).request(standard.aliases);
    assert.equal(d.oldest[0].ContentID, HOME);
  });
  await check('graphql-request: batchRequests', async () => {
    const r = await batchRequests(endpoint, [{ document: standard.aliases }, { document: standard.page, variables: { size: 3 } }]);
    assert.equal(r.length, 2);
    assert.equal(r[0].data.newest[0].ContentID, NEWEST);
    checkPage(r[1].data.contentPage);
  });
  await check('graphql-request: an error is a ClientError with the message', async () => {
    await assert.rejects(client.request(`{ content { Data { nope } } }`), (e) => {
      assert.ok(e instanceof ClientError, String(e));
      assert.equal(e.response.status, 400);
      assert.match(e.response.errors[0].message, /unknown field "nope" on ContentData/);
      assert.equal(e.response.errors[0].extensions.code, 'invalid_query');
      return true;
    });
  });
}

// Apollo Client 4: HttpLink and InMemoryCache as the getting-started guide sets them up.
{
  const client = new ApolloClient({ link: new HttpLink({ uri: endpoint }), cache: new InMemoryCache() });
  const PAGE = gql(standard.page);
  await check('Apollo Client: result.data is the query shape, totalItems reachable', async () => {
    const r = await client.query({ query: PAGE, variables: { size: 3 } });
    checkPage(r.data.contentPage);
    assert.equal(r.data.contentPage.__typename, 'ContentPage');
    assert.equal(r.data.contentPage.items[0].Data.__typename, 'ContentData');
  });
  await check('Apollo Client: the same query again is served from the cache', async () => {
    const before = await graphqlRequests();
    const r = await client.query({ query: PAGE, variables: { size: 3 } });
    checkPage(r.data.contentPage);
    assert.equal(await graphqlRequests(), before, 'the second query reached the server');
    const cached = client.readQuery({ query: PAGE, variables: { size: 3 } });
    checkPage(cached.contentPage);
  });
  await check('Apollo Client: documented queries', async () => {
    const r = await client.query({ query: gql(documented.firstPage) });
    assert.deepEqual(r.data.content.map((i) => i.Name), ['Home', 'About Us', 'Publishing Workflow']);
    const one = await client.query({ query: gql(documented.noArguments) });
    assert.equal(one.data.content.length, 10);
  });
  await check('Apollo Client: a GraphQL error is CombinedGraphQLErrors with its message (errorPolicy all)', async () => {
    const r = await client.query({ query: gql`query Bad { content { Data { nope } } }`, errorPolicy: 'all' });
    assert.ok(CombinedGraphQLErrors.is(r.error), String(r.error));
    assert.match(r.error.errors[0].message, /unknown field "nope" on ContentData/);
  });
  await check('Apollo Client: a GraphQL error rejects as CombinedGraphQLErrors (errorPolicy none)', async () => {
    await assert.rejects(client.query({ query: gql`query Bad2 { content(pageSize: 0) { Name } }` }), (e) => {
      assert.ok(CombinedGraphQLErrors.is(e), String(e));
      assert.match(e.message, /pageSize must be/);
      return true;
    });
  });
}

// urql (core), with its document cache; it sends queries as GET within the URL limit.
{
  const client = new Client({ url: endpoint, exchanges: [cacheExchange, fetchExchange] });
  await check('urql: data is the query shape, totalItems reachable', async () => {
    const r = await client.query(standard.page, { size: 3 }).toPromise();
    assert.equal(r.error, undefined, String(r.error));
    checkPage(r.data.contentPage);
  });
  await check('urql: the same query again is a cache hit', async () => {
    const before = await graphqlRequests();
    const r = await client.query(standard.page, { size: 3 }).toPromise();
    assert.equal(r.operation.context.meta?.cacheOutcome, 'hit');
    checkPage(r.data.contentPage);
    assert.equal(await graphqlRequests(), before);
  });
  await check('urql: documented queries and aliases', async () => {
    const r = await client.query(documented.firstPage, {}).toPromise();
    assert.deepEqual(r.data.content.map((i) => i.Name), ['Home', 'About Us', 'Publishing Workflow']);
    const a = await client.query(standard.aliases, {}).toPromise();
    assert.equal(a.data.oldest[0].ContentID, HOME);
  });
  await check('urql: a GraphQL error carries its message', async () => {
    const r = await client.query(`{ content { Data { nope } } }`, {}).toPromise();
    assert.ok(r.error, 'no error');
    assert.match(r.error.graphQLErrors[0].message, /unknown field "nope" on ContentData/);
  });
}

process.stdout.write(failures ? `${failures} checks failed\n` : 'all checks passed\n');
process.exit(failures ? 1 : 0);
