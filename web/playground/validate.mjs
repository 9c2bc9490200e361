// Validates an OpenAPI document (the host's openapi.json) with @apidevtools/swagger-parser
// against the OpenAPI 3.1 schema, resolving every $ref. Run by playground_test.go.
//
//   node validate.mjs FILE
import SwaggerParser from '@apidevtools/swagger-parser';

const file = process.argv[2];
if (!file) throw new Error('usage: node validate.mjs FILE');
const api = await SwaggerParser.validate(file);
const ops = Object.values(api.paths).flatMap((item) => Object.keys(item).filter((k) => ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'].includes(k)));
console.log(`${file}: valid OpenAPI ${api.openapi}, ${Object.keys(api.paths).length} paths, ${ops.length} operations`);
