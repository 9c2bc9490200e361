// GraphiQL against an environment's GraphQL endpoint in the standard mode (GraphQL over
// HTTP, API.md D9), so introspection gives GraphiQL the environment's typed schema and
// it completes Data's elements. ?env= picks the environment, ?engine=browser runs the
// query module in this page instead of asking the host, ?query= fills the editor.
import React from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import { hostTransport, browserTransport, loadModule, fetchSnapshot } from './transport.js';

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

async function main() {
  let transport = hostTransport();
  let envs = await transport.environments().catch(() => []);
  let env = params.get('env') || (envs.includes('demo') ? 'demo' : envs[0] || 'demo');
  if (params.get('engine') === 'browser') {
    const { module } = await loadModule();
    transport = await browserTransport(module, [await fetchSnapshot(env)]);
    envs = await transport.environments();
    $('engine-status').textContent = 'the module in this page';
  } else {
    $('engine-status').textContent = `host ${location.host}`;
  }
  const sel = $('env');
  for (const e of envs.length ? envs : [env]) sel.add(new Option(e, e));
  sel.value = env;
  sel.onchange = () => {
    const u = new URL(location.href);
    u.searchParams.set('env', sel.value);
    location.assign(u);
  };

  const fetcher = async (graphQLParams) => {
    const answer = await transport.send({
      method: 'POST',
      path: `/cda/graphql/v1/${encodeURIComponent(env)}`,
      query: 'mode=standard',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify(graphQLParams),
    });
    return answer.json() ?? { errors: [{ message: `${answer.status}: ${answer.text}` }] };
  };
  const initial = params.get('query') ??
    '# The typed schema of this environment: press Ctrl-Space for completion.\n{\n  contentPage(pageSize: 3, templateName: "Article") {\n    totalItems\n    items {\n      Name\n      PublishedAt\n      Data { title }\n    }\n  }\n}\n';
  createRoot($('graphiql')).render(
    React.createElement(GraphiQL, { fetcher, defaultQuery: initial, initialQuery: initial, defaultEditorToolsVisibility: false }),
  );
}

main().catch((err) => { $('graphiql').textContent = `GraphiQL could not start: ${err.message}`; });
