// GraphQL Code Generator's configuration for the typed client check (clients_test.go):
// the schema is the host's, read by introspection from CDA_GRAPHQL_URL as codegen sends
// it (its Accept asks for application/graphql-response+json, so it reads the standard
// mode's schema); the output goes to .gen/ (ignored by git).
import type { CodegenConfig } from '@graphql-codegen/cli';

const schema = process.env.CDA_GRAPHQL_URL;
if (!schema) throw new Error('CDA_GRAPHQL_URL is not set');

const config: CodegenConfig = {
  schema,
  documents: ['documents/*.graphql'],
  generates: {
    '.gen/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { emitLegacyCommonJSImports: false, useTypeImports: true },
    },
  },
  silent: true,
};

export default config;
