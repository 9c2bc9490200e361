// Example requests of every query style, for the playground's menus. Written for the
// demo environment; they run on any environment (some then find nothing).

/** REST: the path after /cda/rest/v1/<env>/ and the query string. */
export const restExamples = [
  { label: 'List: name filter, sorted, paged', path: 'contents', query: 'searchByName=caf%C3%A9&sort=Name&sortAsc=true&pageSize=5' },
  { label: 'List: every Page, by name', path: 'contents', query: 'searchByTemplateName=Page&sort=Name&sortAsc=true' },
  { label: 'List: newest first (the default order)', path: 'contents', query: 'pageSize=3' },
  { label: 'List: sorted by a Data element', path: 'contents', query: 'searchByTemplateName=Product&sort=Data.price&sortAsc=true&pageSize=5' },
  { label: 'One item by its ContentID', path: 'contents/Content_9b77044f-f2d4-46d9-a5c6-f68df62306e4', query: '' },
  { label: 'Error: a bad page size', path: 'contents', query: 'pageSize=1e3' },
];

/** GraphQL: a document, its variables (JSON text) and the mode to ask for. */
export const graphqlExamples = [
  { label: 'Documented dialect: three fields of the first page', mode: 'envelope',
    query: 'query {\n  content(pageSize: 3, page: 1, sortAsc: true, PublishedBy: "Erian Suwandi") {\n    Name, ContentID, PublishedBy\n  }\n}' },
  { label: 'Standard: a page with totalItems and typed Data', mode: 'standard',
    query: '{\n  contentPage(pageSize: 2, templateName: "Page") {\n    totalItems\n    items { Name Data { title urlPath } }\n  }\n}' },
  { label: 'Standard: variables and aliases', mode: 'standard',
    query: 'query Latest($n: Int!) {\n  latest: content(pageSize: $n, sort: "CreatedAt") { Name CreatedAt }\n  articles: contentPage(templateName: "Article", pageSize: 1) { totalItems }\n}',
    variables: '{"n": 3}' },
  { label: 'A Data filter', mode: 'envelope',
    query: 'query {\n  content(data: {urlPath: "/home"}) { Name Data { title } }\n}' },
  { label: 'Error: an unknown field', mode: 'standard', query: '{ content { nope } }' },
];

/** Search: a body for POST /cda/es/v1/<env>. */
export const searchExamples = [
  { label: 'Lucene query_string', body: { query: { query_string: { query: 'Data.body:(espresso OR coffee) AND TemplateName:article' } }, size: 3, _source: ['Name', 'TemplateName'] } },
  { label: 'match, with an aggregation', body: { query: { match: { Name: 'coffee guide' } }, size: 3, _source: ['Name'], aggs: { templates: { terms: { field: 'TemplateName' } } } } },
  { label: 'Filters only (no scoring)', body: { query: { bool: { filter: [{ wildcard: { 'Data.urlPath.keyword': '/create-*' } }] } }, from: 0, size: 10, _source: ['Name', 'Data.urlPath'] } },
  { label: 'A date range, sorted', body: { query: { range: { CreatedAt: { gte: '2021-01-01', lt: '2022-01-01' } } }, sort: [{ CreatedAt: 'asc' }], _source: ['Name', 'CreatedAt'] } },
  { label: 'Aggregations only', body: { size: 0, aggs: { t: { terms: { field: 'TemplateName', size: 3 } }, a: { avg: { field: 'Data.helpful' } } } } },
  { label: 'Error: a syntax error', body: { query: { query_string: { query: 'Name:(coffee' } } } },
];
