// A static-site build step with no server: open the demo snapshot and render the list of
// pages (REST), the three newest articles (GraphQL) and a search, as HTML.
//
//   go tool task demo build:wasm       # build/snapshots/demo.snap, wasm/js/module.wasm
//   node wasm/js/examples/pages.mjs [build/snapshots/demo.snap] > pages.html
import { readFile } from 'node:fs/promises';
import { open } from '../index.mjs'; // in your project: from '@cdaedge/engine'

const file = process.argv[2] ?? new URL('../../../build/snapshots/demo.snap', import.meta.url);
const cda = await open(await readFile(file));

const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// REST: every published page, by name.
const pages = cda.rest({ searchByTemplateName: 'Page', sort: 'Name', sortAsc: true, pageSize: 100 });

// GraphQL: the documented dialect.
const articles = cda.graphql('query { content(pageSize: 3, page: 1, TemplateName: "Article") { Name, ContentID, PublishedAt } }');

// Search: Elasticsearch query DSL.
const hits = cda.search({ query: { query_string: { query: 'Data.body:(espresso OR coffee)' } }, size: 3 });

console.log(`<!doctype html>
<h1>Pages (${pages.totalItems})</h1>
<ul>
${pages.data.map((p) => `  <li><a href="${esc(p.Data?.urlPath)}">${esc(p.Name)}</a></li>`).join('\n')}
</ul>
<h2>Latest articles</h2>
<ul>
${(articles.data?.content ?? articles.data ?? []).map((a) => `  <li>${esc(a.Name)} <small>${esc(a.PublishedAt)}</small></li>`).join('\n')}
</ul>
<h2>About coffee (${hits.totalItems} hits)</h2>
<ul>
${hits.data.map((h) => `  <li>${esc(h.Name)}</li>`).join('\n')}
</ul>`);
