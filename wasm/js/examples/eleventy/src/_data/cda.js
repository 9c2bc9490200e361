// Global data for every template: one snapshot (CDA_SNAPSHOT, default the demo built by
// `go tool task demo`) asked in the three query styles through the engine, in process.
import { readFile } from 'node:fs/promises';
import { open } from '@cdaedge/engine';

export default async function () {
  const file = process.env.CDA_SNAPSHOT ?? new URL('../../../../../build/snapshots/demo.snap', import.meta.url);
  const cda = await open(await readFile(file));

  // REST: the site's pages, by name.
  const pages = cda.rest({ searchByTemplateName: 'Page', sort: 'Name', sortAsc: true, pageSize: 100 });

  // GraphQL: every article, newest first, with the Data elements the templates show.
  const articles = cda.graphql(`query Articles($n: Int!) {
    content(templateName: "Article", sort: "PublishedAt", pageSize: $n) {
      Name ContentID PublishedAt Data { title subtitle slug body }
    }
  }`, { n: 100 });

  // Search: the Elasticsearch query DSL, with Lucene's query_string syntax.
  const coffee = cda.search({
    query: { query_string: { query: 'Data.body:(espresso OR coffee)' } },
    size: 5, _source: ['Name', 'TemplateName', 'Data.slug'],
  });

  return { environment: cda.environment, pages, articles, coffee };
}
