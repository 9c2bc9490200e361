// The OpenAPI 3.1 document of the delivery API (edge/API.md is the contract it follows):
// the REST and search endpoints, the GraphQL endpoint's transport and the host's health
// endpoints. build.mjs writes it as openapi.json, which the host serves at /openapi.json;
// openapi_test.go checks its paths and methods against the router's route table and
// validate.mjs against the OpenAPI 3.1 schema.

const env = {
  name: 'env', in: 'path', required: true,
  description: 'The environment id (API.md D1): one snapshot file, `[A-Za-z0-9][A-Za-z0-9_.-]{0,127}`, case-sensitive.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$' }, example: 'demo',
};
const auth = [{}, { previewToken: [] }];
const json = (schema, example) => ({ 'application/json': example === undefined ? { schema } : { schema, example } });
const ref = (name) => ({ $ref: `#/components/schemas/${name}` });
const errorResponse = (description) => ({ description, content: json(ref('ErrorEnvelope')) });
const errors = {
  400: errorResponse('A bad request: `invalid_argument`, `invalid_json`, `invalid_query` or `too_complex` (API.md D8, D11).'),
  401: errorResponse('A preview environment without the right access token (`unauthorized`, D3).'),
  404: errorResponse('`environment_not_found`, `content_not_found` or `not_found`.'),
  405: { description: 'The route does not take this method (`method_not_allowed`); `Allow` lists those it takes.', headers: { Allow: { schema: { type: 'string' } } }, content: json(ref('ErrorEnvelope')) },
  413: errorResponse('The body is larger than the limit (`payload_too_large`, 1 MiB by default).'),
  414: errorResponse('The URL is longer than the limit (`uri_too_long`, 8 KiB by default).'),
};
const ok = (description, schema, example) => ({
  description,
  headers: {
    ETag: { description: 'A strong entity tag; `If-None-Match` with it answers 304.', schema: { type: 'string' } },
    'Cache-Control': { description: '`public, max-age=60` by default; `private, no-store` for preview environments (D11).', schema: { type: 'string' } },
    'Cda-Work-Steps': { description: 'The work the request spent, in engine steps, out of its budget of 5 million (D11); the same in every runtime.', schema: { type: 'integer' } },
  },
  content: json(schema, example),
});
const notModified = { description: 'Not modified: the `If-None-Match` tag matches.' };
const query = (name, description, schema = { type: 'string' }, example) =>
  ({ name, in: 'query', required: false, description, schema, ...(example === undefined ? {} : { example }) });

// The Elasticsearch-compatible routes answer in Elasticsearch's shapes, errors included,
// and carry X-Elastic-Product, which the official clients require.
const esProduct = { 'X-Elastic-Product': { description: '`Elasticsearch`: the official clients refuse an answer without it.', schema: { const: 'Elasticsearch' } } };
const esOk = (description, schema) => ({ description, headers: esProduct, content: json(schema) });
const esError = (description) => ({ description, headers: esProduct, content: json(ref('ESError')) });
const esErrors = {
  400: esError('A bad request, as Elasticsearch shapes it (`error.type` such as `parsing_exception`, `x_content_parse_exception`, `illegal_argument_exception`).'),
  401: esError('A preview environment without the right access token (`security_exception`).'),
  404: esError('No such environment (`index_not_found_exception`).'),
  405: esError('The route does not take this method.'),
  413: esError('The body is larger than the limit.'),
  414: esError('The URL is longer than the limit.'),
};
const msearchOperation = (operationId, summary) => ({
  tags: ['Elasticsearch-compatible'], operationId, summary, security: auth,
  requestBody: { required: true, content: { 'application/x-ndjson': { schema: { type: 'string' }, example: '{"index":"demo"}\n{"query":{"match":{"Name":"coffee"}},"size":2}\n' } } },
  responses: { 200: esOk('`{"took":0,"responses":[…]}`: one search answer or error per search, in order.', ref('ESMsearchAnswer')), ...esErrors },
});

const restListParams = [
  query('searchByName', 'Items whose `Name` contains every word of the value (D4).', { type: 'string' }, 'café'),
  query('searchByTemplateName', 'The same on `TemplateName`.'),
  query('status', 'The same on `Status`.'),
  query('searchByCreatedBy', 'The same on `CreatedBy`.'),
  query('page', 'Page number, from 1 (D7). Digits only.', { type: 'integer', minimum: 1, maximum: 2147483647, default: 1 }),
  query('pageSize', 'Items per page. Digits only.', { type: 'integer', minimum: 1, maximum: 1000, default: 10 }),
  query('sort', 'A top-level member (any case) or `Data.<path>` (D6). Default `CreatedAt`.', { type: 'string', default: 'CreatedAt' }, 'Name'),
  query('sortAsc', '`true`/`false` in any case, or `1`/`0`; default descending.', { type: 'string' }, 'true'),
];

const searchURLParams = [
  query('source', 'The search body as JSON, for GET (as in Elasticsearch). Not together with a body.'),
  query('source_content_type', 'If given, `application/json`.'),
  query('q', "Elasticsearch's URI search: a `query_string` query.", { type: 'string' }, 'Name:coffee'),
  query('df', 'URI search: the default field.'),
  query('default_operator', 'URI search: `OR` (default) or `AND`.', { type: 'string', enum: ['OR', 'AND', 'or', 'and'] }),
  query('analyzer', 'URI search: the analyzer.'),
  query('analyze_wildcard', 'URI search: analyze wildcard terms.', { type: 'boolean' }),
  query('lenient', 'URI search: ignore format errors.', { type: 'boolean' }),
  query('from', 'Hits to skip.', { type: 'integer', minimum: 0 }),
  query('size', 'Maximum number of hits, 0 to 10000.', { type: 'integer', minimum: 0, maximum: 10000 }),
  query('sort', '`field`, `field:asc` or `field:desc`, comma-separated.'),
  query('_source', 'Source filtering: `false`, `true` or comma-separated patterns.'),
  query('_source_includes', 'Patterns of members to return.'),
  query('_source_excludes', 'Patterns of members to leave out.'),
  query('Page', 'The delivery API\'s page number, from 1.', { type: 'integer', minimum: 1 }),
  query('PageSize', 'The delivery API\'s page size, 1 to 10000.', { type: 'integer', minimum: 1, maximum: 10000 }),
  query('Sort', 'A top-level member or `Data.<path>`.'),
  query('SortAsc', '`true` sorts ascending.'),
];

const item = {
  type: 'object',
  description: 'A content item, as stored: members in the documented order, `Data` as written (API.md, "The content item").',
  required: ['ContentID'],
  properties: {
    Status: { type: 'string' }, CreatedBy: { type: 'string' }, CreatedAt: { type: 'string', format: 'date-time' },
    UpdatedBy: { type: 'string' }, UpdatedAt: { type: 'string', format: 'date-time' },
    PublishedBy: { type: 'string' }, PublishedAt: { type: 'string', format: 'date-time' },
    Name: { type: 'string' }, TemplateName: { type: 'string' }, TemplateID: { type: 'string' },
    ContentID: { type: 'string' }, ParentID: { type: 'string' },
    Data: { type: 'object', additionalProperties: true },
  },
  additionalProperties: true,
};

const graphqlRequest = {
  type: 'object', required: ['query'],
  properties: {
    query: { type: 'string', description: 'The GraphQL document: the documented dialect or standard GraphQL.' },
    variables: { type: ['object', 'null'], additionalProperties: true },
    operationName: { type: ['string', 'null'] },
  },
};

/** The document; build.mjs writes it as openapi.json. */
export default {
  openapi: '3.1.0',
  info: {
    title: 'cdaedge delivery API',
    version: '1',
    summary: 'REST, GraphQL and search over an environment\'s published content.',
    description: 'Every answer is JSON: `{"status":200,"data":…,"totalItems":N}` on success, `{"status":4xx,"error":{"code","message"}}` on failure (API.md D8). Every route also answers `HEAD` (as its `GET`) and `OPTIONS` (CORS preflight). Preview environments need `Authorization: Bearer <token>` (D3). The full contract, rules D1–D12, is edge/API.md in the repository.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: '/', description: 'The host or worker that serves this document' }],
  tags: [
    { name: 'REST', description: 'List and get content items.' },
    { name: 'GraphQL', description: 'The GraphQL endpoint\'s transport: the envelope mode (default) and GraphQL over HTTP (the standard mode), API.md D9.' },
    { name: 'Search', description: 'An Elasticsearch search body; the differences from Elasticsearch are in API.md, "Search: where it differs".' },
    { name: 'Elasticsearch-compatible', description: 'The routes the official Elasticsearch and OpenSearch clients call (`new Client({ node: \'http://host/cda/es/v1\' })`): answers and errors in Elasticsearch\'s shapes, with `X-Elastic-Product: Elasticsearch`.' },
    { name: 'Operations', description: 'The host\'s health endpoints.' },
  ],
  paths: {
    '/cda/rest/v1/{env}/contents': {
      parameters: [env],
      get: {
        tags: ['REST'], operationId: 'listContents', summary: 'List content items',
        description: 'Filters combine; an empty value counts as absent; unknown parameters are ignored; a known one in another case, or repeated, is a 400 (D12). A page past the end answers `data: []` with the true `totalItems`.',
        security: auth, parameters: restListParams,
        responses: { 200: ok('A page of items and the number of matches.', ref('ListEnvelope')), 304: notModified, ...errors },
      },
    },
    '/cda/rest/v1/{env}/contents/{contentId}': {
      parameters: [env, { name: 'contentId', in: 'path', required: true, description: 'The item\'s `ContentID`, exactly (case-sensitive).', schema: { type: 'string' }, example: 'Content_9b77044f-f2d4-46d9-a5c6-f68df62306e4' }],
      get: {
        tags: ['REST'], operationId: 'getContent', summary: 'Get one content item',
        description: 'Query parameters are ignored.', security: auth,
        responses: { 200: ok('The item.', ref('ItemEnvelope')), 304: notModified, ...errors },
      },
    },
    '/cda/graphql/v1/{env}': {
      parameters: [env, query('mode', '`standard` answers GraphQL over HTTP, `envelope` forces the envelope; default: standard when `Accept` lists `application/graphql-response+json`.', { type: 'string', enum: ['standard', 'envelope'] })],
      get: {
        tags: ['GraphQL'], operationId: 'graphqlGet', summary: 'Run a GraphQL query (cacheable GET)', security: auth,
        parameters: [
          query('query', 'The GraphQL document.', { type: 'string' }, '{ content(pageSize: 2) { Name } }'),
          query('variables', 'Variables as JSON text.'),
          query('operationName', 'The operation to run.'),
        ],
        responses: { 200: ok('The envelope (envelope mode) or `{"data":…}` (standard mode; introspection in both).', ref('GraphQLAnswer')), 304: notModified, ...errors },
      },
      post: {
        tags: ['GraphQL'], operationId: 'graphqlPost', summary: 'Run a GraphQL query', security: auth,
        description: 'The body is JSON (`{"query","variables","operationName"}`, or an array of them in the standard mode) with `application/json`, the raw document with `application/graphql`, and otherwise JSON if it parses, else a raw document.',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { oneOf: [graphqlRequest, { type: 'array', items: graphqlRequest }] }, example: { query: '{ contentPage(pageSize: 2, templateName: "Page") { totalItems items { Name } } }' } },
            'application/graphql': { schema: { type: 'string' }, example: 'query { content(pageSize: 3) { Name, ContentID } }' },
          },
        },
        responses: {
          200: { ...ok('The envelope (envelope mode) or `{"data":…}` (standard mode).', ref('GraphQLAnswer')), content: { ...json(ref('GraphQLAnswer')), 'application/graphql-response+json': { schema: ref('GraphQLAnswer') } } },
          400: { description: 'Envelope mode: the D8 envelope with GraphQL\'s `errors` too. Standard mode: `{"errors":[…]}` as `application/graphql-response+json`.', content: { ...json(ref('ErrorEnvelope')), 'application/graphql-response+json': { schema: ref('GraphQLAnswer') } } },
          401: errors[401], 404: errors[404], 405: errors[405], 413: errors[413], 414: errors[414],
        },
      },
    },
    '/cda/graphql/v1/{env}/schema.graphql': {
      parameters: [env],
      get: {
        tags: ['GraphQL'], operationId: 'graphqlSchema', summary: 'The environment\'s schema as SDL', security: auth,
        parameters: [query('mode', '`standard`: the standard mode\'s schema.', { type: 'string', enum: ['standard', 'envelope'] })],
        responses: { 200: { description: 'GraphQL SDL.', content: { 'application/graphql': { schema: { type: 'string' } } } }, 304: notModified, 401: errors[401], 404: errors[404] },
      },
    },
    '/cda/es/v1/{env}': {
      parameters: [env],
      get: {
        tags: ['Search'], operationId: 'searchGet', summary: 'Search with the body in the URL (`source`) or a URI search (`q`)', security: auth,
        parameters: searchURLParams,
        responses: { 200: ok('A page of hits, the number of matches and the aggregations asked for.', ref('SearchEnvelope')), 304: notModified, ...errors },
      },
      post: {
        tags: ['Search'], operationId: 'search', summary: 'Search with an Elasticsearch query DSL body', security: auth,
        description: 'A blank body means `{"query":{"match_all":{}}}`. An unknown member or clause type is a 400 `invalid_query` naming its JSON path.',
        parameters: searchURLParams.filter((p) => p.name !== 'source' && p.name !== 'source_content_type'),
        requestBody: {
          required: false,
          content: json(ref('SearchBody'), { query: { query_string: { query: 'Data.body:(espresso OR coffee) AND TemplateName:article' } }, size: 3 }),
        },
        responses: { 200: ok('A page of hits, the number of matches and the aggregations asked for.', ref('SearchEnvelope')), 304: notModified, ...errors },
      },
    },
    '/cda/es/v1/{env}/_validate/query': {
      parameters: [env, query('explain', 'With `true` (or no value): explain the query in Lucene\'s notation, or the error.', { type: 'string' }, 'true')],
      get: {
        tags: ['Search'], operationId: 'validateGet', summary: 'Validate a query given in the URL', security: auth,
        parameters: [query('source', 'The body `{"query":…}` as JSON.')],
        responses: { 200: ok('Whether the query is valid, and with `explain` its explanation or error.', ref('ValidateAnswer')), 304: notModified, ...errors },
      },
      post: {
        tags: ['Search'], operationId: 'validate', summary: 'Validate a query', security: auth,
        description: 'The body is `{"query": {...}}`; a blank body means `match_all`. Any other member makes the query invalid.',
        requestBody: { required: false, content: json({ type: 'object', properties: { query: { type: 'object' } } }, { query: { query_string: { query: 'a AND b', default_field: 'Name' } } }) },
        responses: { 200: ok('`{"status":200,"valid":true,"explanation":"+Name:a +Name:b"}`', ref('ValidateAnswer')), ...errors },
      },
    },
    '/cda/es/v1/': {
      get: {
        tags: ['Elasticsearch-compatible'], operationId: 'esInfo', summary: "The cluster information document the official Elasticsearch clients read",
        description: 'A fixed document (API.md, "Elasticsearch-compatible routes"): `version.number` 8.19.0, `build_flavor` default and the tagline, so that clients which check the product accept the host. Also answered without the trailing slash.',
        responses: { 200: esOk('The information document.', ref('ESInfo')) },
      },
    },
    '/cda/es/v1/{env}/_search': {
      parameters: [env],
      get: {
        tags: ['Elasticsearch-compatible'], operationId: 'esSearchGet', summary: "Search, answered in Elasticsearch's shape (`hits.hits`, `_id`, `_score`, `_source`)", security: auth,
        parameters: searchURLParams.concat([query('rest_total_hits_as_int', '`true`: `hits.total` as a number.', { type: 'boolean' })]),
        responses: { 200: esOk('Hits in Elasticsearch\'s shape; `took` is always 0 (the engine is deterministic).', ref('ESSearchAnswer')), ...esErrors },
      },
      post: {
        tags: ['Elasticsearch-compatible'], operationId: 'esSearch', summary: "Search with a query DSL body (`highlight` too), answered in Elasticsearch's shape", security: auth,
        parameters: [query('rest_total_hits_as_int', '`true`: `hits.total` as a number.', { type: 'boolean' })],
        requestBody: { required: false, content: json(ref('SearchBody'), { query: { match: { Name: 'coffee' } }, highlight: { fields: { Name: {} } }, size: 3 }) },
        responses: { 200: esOk('Hits in Elasticsearch\'s shape.', ref('ESSearchAnswer')), ...esErrors },
      },
    },
    '/cda/es/v1/{env}/_count': {
      parameters: [env],
      get: {
        tags: ['Elasticsearch-compatible'], operationId: 'esCountGet', summary: 'Count the matches of a URI search (`q`) or of all items', security: auth,
        parameters: [query('q', "A `query_string` query.", { type: 'string' }, 'Name:coffee'), query('source', 'The body `{"query":…}` as JSON.')],
        responses: { 200: esOk('`{"count":N,"_shards":{…}}`', ref('ESCountAnswer')), ...esErrors },
      },
      post: {
        tags: ['Elasticsearch-compatible'], operationId: 'esCount', summary: 'Count the matches of a query', security: auth,
        requestBody: { required: false, content: json({ type: 'object', properties: { query: { type: 'object' } } }, { query: { match: { Name: 'coffee' } } }) },
        responses: { 200: esOk('`{"count":N,"_shards":{…}}`', ref('ESCountAnswer')), ...esErrors },
      },
    },
    '/cda/es/v1/{env}/_msearch': {
      parameters: [env],
      get: msearchOperation('esMsearchGet', 'Several searches in one request (NDJSON: a header line, then a body line, per search); a header without `index` searches `{env}`'),
      post: msearchOperation('esMsearch', 'Several searches in one request (NDJSON: a header line, then a body line, per search); a header without `index` searches `{env}`'),
    },
    '/cda/es/v1/_msearch': {
      get: msearchOperation('esMsearchAllGet', 'Several searches in one request, each naming its environment in its header line (`{"index":"demo"}`)'),
      post: msearchOperation('esMsearchAll', 'Several searches in one request, each naming its environment in its header line (`{"index":"demo"}`)'),
    },
    '/healthz': {
      get: {
        tags: ['Operations'], operationId: 'healthz', summary: 'Liveness: 200 while the process is alive',
        responses: { 200: { description: 'Alive.', content: json({ type: 'object', properties: { status: { const: 'ok' } } }) } },
      },
    },
    '/readyz': {
      get: {
        tags: ['Operations'], operationId: 'readyz', summary: 'Readiness: the served environments',
        responses: {
          200: { description: 'Ready.', content: json(ref('Ready')) },
          503: { description: 'No snapshot is served.', content: json(ref('Ready')) },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      previewToken: { type: 'http', scheme: 'bearer', description: 'The access token of a preview environment (D3). Published environments need none.' },
    },
    schemas: {
      Item: item,
      ListEnvelope: {
        type: 'object', required: ['status', 'data', 'totalItems'],
        properties: { status: { const: 200 }, data: { type: 'array', items: ref('Item') }, totalItems: { type: 'integer', minimum: 0 } },
      },
      ItemEnvelope: { type: 'object', required: ['status', 'data'], properties: { status: { const: 200 }, data: ref('Item') } },
      SearchEnvelope: {
        type: 'object', required: ['status', 'data', 'totalItems'],
        properties: {
          status: { const: 200 }, data: { type: 'array', items: ref('Item') }, totalItems: { type: 'integer', minimum: 0 },
          aggregations: { type: 'object', additionalProperties: true, description: 'Shaped as Elasticsearch shapes it; only when asked.' },
        },
      },
      SearchBody: {
        type: 'object',
        description: 'An Elasticsearch search body (API.md, "Body members"): `query`, `from`, `size`, `sort`, `_source`, `aggs`, `post_filter`, or the delivery API\'s `Page`, `PageSize`, `Sort`, `SortAsc` and field filters.',
        properties: {
          query: { type: 'object', description: 'One query clause, e.g. `{"match":{"Name":"coffee"}}`.' },
          from: { type: 'integer', minimum: 0 }, size: { type: 'integer', minimum: 0, maximum: 10000 },
          sort: {}, _source: {}, aggs: { type: 'object' }, aggregations: { type: 'object' }, post_filter: { type: 'object' },
          Page: { type: ['integer', 'string'] }, PageSize: { type: ['integer', 'string'] }, Sort: { type: 'string' }, SortAsc: { type: ['boolean', 'string'] },
        },
        additionalProperties: true,
      },
      ValidateAnswer: {
        type: 'object', required: ['status', 'valid'],
        properties: { status: { const: 200 }, valid: { type: 'boolean' }, explanation: { type: 'string' }, error: { type: 'string' } },
      },
      GraphQLAnswer: {
        type: 'object',
        description: 'Envelope mode: `{"status":200,"data":…,"totalItems":N}`. Standard mode and introspection: `{"data":{…}}` or `{"errors":[…]}`.',
        properties: { status: { type: 'integer' }, data: {}, totalItems: { type: 'integer' }, errors: { type: 'array', items: { type: 'object' } } },
      },
      ErrorEnvelope: {
        type: 'object', required: ['status', 'error'],
        properties: {
          status: { type: 'integer' },
          error: {
            type: 'object', required: ['code', 'message'],
            properties: {
              code: { type: 'string', enum: ['invalid_argument', 'invalid_json', 'invalid_query', 'too_complex', 'unauthorized', 'environment_not_found', 'content_not_found', 'not_found', 'method_not_allowed', 'payload_too_large', 'uri_too_long', 'internal'] },
              message: { type: 'string' },
            },
          },
          errors: { type: 'array', items: { type: 'object' }, description: 'GraphQL\'s errors, on GraphQL answers.' },
        },
      },
      ESInfo: {
        type: 'object', required: ['version', 'tagline'],
        properties: { name: { type: 'string' }, cluster_name: { type: 'string' }, version: { type: 'object', properties: { number: { type: 'string' }, build_flavor: { type: 'string' } } }, tagline: { type: 'string' } },
      },
      ESSearchAnswer: {
        type: 'object', required: ['took', 'timed_out', '_shards', 'hits'],
        properties: {
          took: { type: 'integer' }, timed_out: { type: 'boolean' }, _shards: { type: 'object' },
          hits: {
            type: 'object',
            properties: {
              total: { oneOf: [{ type: 'object', properties: { value: { type: 'integer' }, relation: { const: 'eq' } } }, { type: 'integer' }] },
              max_score: { type: ['number', 'null'] },
              hits: { type: 'array', items: { type: 'object', properties: { _index: { type: 'string' }, _id: { type: 'string', description: 'The ContentID.' }, _score: { type: ['number', 'null'] }, _source: ref('Item'), highlight: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } } } },
            },
          },
          aggregations: { type: 'object', additionalProperties: true },
        },
      },
      ESCountAnswer: { type: 'object', required: ['count'], properties: { count: { type: 'integer', minimum: 0 }, _shards: { type: 'object' } } },
      ESMsearchAnswer: { type: 'object', required: ['responses'], properties: { took: { type: 'integer' }, responses: { type: 'array', items: { type: 'object' } } } },
      ESError: {
        type: 'object', required: ['error', 'status'],
        properties: {
          error: { type: 'object', properties: { root_cause: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' }, reason: { type: 'string' } } } }, type: { type: 'string' }, reason: { type: 'string' } } },
          status: { type: 'integer' },
        },
      },
      Ready: {
        type: 'object',
        properties: {
          status: { type: 'string' },
          environments: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, version: { type: 'string' }, preview: { type: 'boolean' }, items: { type: 'integer' }, bytes: { type: 'integer' } } } },
        },
      },
    },
  },
};
