// Checks the edge GraphQL endpoint's schema with graphql-js (API.md D9).
//
//   node check.mjs introspection-query   prints graphql-js's full introspection query
//                                        (the one GraphiQL sends) as JSON: {"query": "..."}
//   node check.mjs check < input.json    input: {"introspection": <response body>,
//                                        "sdl": "<schema.graphql>", "queries": ["..."],
//                                        "invalid": ["..."], "types": {"Type.field": "T"}}
//
// `check` builds a client schema from the introspection answer (buildClientSchema, as
// GraphiQL does), builds a schema from the SDL (buildSchema), checks that both print the
// same, and validates every query against both; each of "invalid" must be rejected by
// both, so that a vacuous schema cannot pass. "types" are fields whose type (as
// graphql-js prints it, "[String!]") both schemas must give: the typed schema of D9.
// It prints {"ok": bool, "problems": [...]} and exits 0 either way; the Go test reads
// the verdict. The Go test runs it once per mode (envelope and standard).
import {
  buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema,
  parse, printSchema, validate, validateSchema,
} from 'graphql';
import { readFileSync } from 'node:fs';

const mode = process.argv[2];
if (mode === 'introspection-query') {
  const query = getIntrospectionQuery({
    descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true,
    schemaDescription: true, inputValueDeprecation: true, oneOf: true,
  });
  process.stdout.write(JSON.stringify({ query }));
  process.exit(0);
}
if (mode !== 'check') {
  process.stderr.write('usage: node check.mjs introspection-query | check < input.json\n');
  process.exit(2);
}

const input = JSON.parse(readFileSync(0, 'utf8'));
const problems = [];
const schemas = [];
try {
  const body = input.introspection;
  if (!body || typeof body.data !== 'object' || body.errors) {
    throw new Error('the introspection answer is not {"data": {...}}: ' + JSON.stringify(body).slice(0, 300));
  }
  const s = buildClientSchema(body.data);
  for (const e of validateSchema(s)) problems.push('client schema: ' + e.message);
  schemas.push(['introspection', s]);
} catch (e) {
  problems.push('buildClientSchema: ' + e.message);
}
try {
  const s = buildSchema(input.sdl);
  for (const e of validateSchema(s)) problems.push('SDL schema: ' + e.message);
  schemas.push(['SDL', s]);
} catch (e) {
  problems.push('buildSchema(SDL): ' + e.message);
}
if (schemas.length === 2) {
  const a = printSchema(lexicographicSortSchema(schemas[0][1]));
  const b = printSchema(lexicographicSortSchema(schemas[1][1]));
  if (a !== b) problems.push('the introspection answer and the SDL describe different schemas:\n' + a + '\n---\n' + b);
}
for (const q of input.queries) {
  let doc;
  try {
    doc = parse(q);
  } catch (e) {
    problems.push(`parse ${JSON.stringify(q)}: ${e.message}`);
    continue;
  }
  for (const [name, s] of schemas) {
    for (const e of validate(s, doc)) problems.push(`validate against ${name} ${JSON.stringify(q)}: ${e.message}`);
  }
}
for (const q of input.invalid ?? []) {
  for (const [name, s] of schemas) {
    if (validate(s, parse(q)).length === 0) problems.push(`${name} accepts the invalid query ${JSON.stringify(q)}`);
  }
}
for (const [path, want] of Object.entries(input.types ?? {})) {
  const [typeName, fieldName] = path.split('.');
  for (const [name, s] of schemas) {
    const type = s.getType(typeName);
    const field = type && typeof type.getFields === 'function' ? type.getFields()[fieldName] : undefined;
    const got = field ? String(field.type) : '(none)';
    if (got !== want) problems.push(`${name}: ${path} is ${got}, want ${want}`);
  }
}
process.stdout.write(JSON.stringify({ ok: problems.length === 0, problems }));
