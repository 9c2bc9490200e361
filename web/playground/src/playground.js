// The playground: REST, GraphQL and search side by side, answered by the host this page
// came from or by the query module run in this page (the engine switch, or a dropped
// .snap file). Each panel shows the answer, its status, totalItems and the time taken.
import { hostTransport, browserTransport, loadModule, fetchSnapshot } from './transport.js';
import { restExamples, graphqlExamples, searchExamples } from './examples.js';

const $ = (id) => document.getElementById(id);
const state = { transport: hostTransport(), env: '', module: null };

const pretty = (text) => {
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; }
};
const kb = (n) => (n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);
const ms = (x) => (x < 10 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`);

function showAnswer(prefix, answer, out = `${prefix}-body`) {
  const st = $(`${prefix}-status`);
  st.textContent = String(answer.status);
  st.className = 'status ' + (answer.status < 300 ? 'ok' : answer.status < 500 ? 'warn' : 'err');
  const j = answer.json();
  const total = j && typeof j === 'object' && !Array.isArray(j) ? (j.totalItems ?? j.data?.contentPage?.totalItems) : undefined;
  $(`${prefix}-total`).textContent = total === undefined ? '' : `totalItems ${total}`;
  $(`${prefix}-time`).textContent = `${ms(answer.ms)} · ${state.transport.kind === 'host' ? 'host' : 'in page'}`;
  $(out).textContent = pretty(answer.text);
}

function showFailure(prefix, err, out = `${prefix}-body`) {
  $(`${prefix}-status`).textContent = 'failed';
  $(`${prefix}-status`).className = 'status err';
  $(out).textContent = String(err?.message ?? err);
}

const envPath = () => encodeURIComponent(state.env);

async function sendREST() {
  const path = $('rest-path').value.trim().replace(/^\//, '');
  try {
    showAnswer('rest', await state.transport.send({ path: `/cda/rest/v1/${envPath()}/${path}`, query: $('rest-query').value.trim().replace(/^\?/, '') }));
  } catch (err) { showFailure('rest', err); }
}

async function sendGraphQL() {
  const body = { query: $('graphql-query').value };
  const vars = $('graphql-variables').value.trim();
  if (vars) {
    try { body.variables = JSON.parse(vars); } catch (err) { return showFailure('graphql', new Error('variables: ' + err.message)); }
  }
  const headers = { 'content-type': 'application/json' };
  if ($('graphql-mode').value === 'standard') headers.accept = 'application/graphql-response+json';
  try {
    showAnswer('graphql', await state.transport.send({ method: 'POST', path: `/cda/graphql/v1/${envPath()}`, headers, body: JSON.stringify(body) }));
  } catch (err) { showFailure('graphql', err); }
}

async function sendSearch() {
  const text = $('search-body').value;
  const headers = { 'content-type': 'application/json' };
  let validateBody = text;
  try {
    const parsed = JSON.parse(text || '{}');
    validateBody = JSON.stringify(parsed && typeof parsed === 'object' && parsed.query ? { query: parsed.query } : {});
  } catch { /* the search answers invalid_json, with the offset */ }
  try {
    const answer = await state.transport.send({ method: 'POST', path: `/cda/es/v1/${envPath()}`, headers, body: text });
    showAnswer('search', answer, 'search-out');
    const v = await state.transport.send({ method: 'POST', path: `/cda/es/v1/${envPath()}/_validate/query`, query: 'explain=true', headers, body: validateBody });
    const j = v.json() ?? {};
    $('search-explain').textContent = j.valid ? (j.explanation || '(match everything)') : `invalid: ${j.error ?? j.error?.message ?? v.text}`;
    $('search-explain').className = j.valid ? '' : 'invalid';
  } catch (err) { showFailure('search', err, 'search-out'); }
}

function fillExamples(id, list, apply) {
  const sel = $(id);
  sel.innerHTML = '';
  list.forEach((ex, i) => sel.add(new Option(ex.label, String(i))));
  sel.onchange = () => apply(list[Number(sel.value)]);
  apply(list[0]);
}

function graphiqlLink() {
  const p = new URLSearchParams({ env: state.env, query: $('graphql-query').value });
  if (state.transport.kind === 'browser') p.set('engine', 'browser');
  $('open-graphiql').href = 'graphiql?' + p;
}

async function setEnvironments(preferred) {
  const envs = await state.transport.environments();
  const sel = $('env');
  sel.innerHTML = '';
  for (const e of envs) sel.add(new Option(e, e));
  // No list (a worker serving these pages has no /readyz): the one asked for, or demo.
  if (!envs.length) envs.push(preferred || 'demo');
  state.env = envs.includes(preferred) ? preferred : envs.includes('demo') ? 'demo' : envs[0];
  sel.value = state.env;
  for (const el of document.querySelectorAll('.env-name')) el.textContent = state.env || '<env>';
  graphiqlLink();
  return envs;
}

function setStatus(text, cls = '') {
  $('engine-status').textContent = text;
  $('engine-status').className = 'muted ' + cls;
}

async function useHost() {
  state.transport = hostTransport();
  const envs = await setEnvironments(state.env);
  setStatus(`Requests go to ${location.host}, which serves ${envs.join(', ')}.`);
  document.body.dataset.engine = 'host';
}

// useBrowser loads the module (once) and the snapshots, then answers in this page.
async function useBrowser(snapshots, names) {
  setStatus('Loading the query module…');
  const t0 = performance.now();
  if (!state.module) state.module = await loadModule();
  if (!snapshots) {
    const env = state.env || 'demo';
    snapshots = [await fetchSnapshot(env)];
    names = [`${env}.snap`];
  }
  state.transport = await browserTransport(state.module.module, snapshots);
  await setEnvironments(state.env);
  const size = snapshots.reduce((n, s) => n + s.byteLength, 0);
  setStatus(`The query module (${kb(state.module.bytes)}) runs in this page with ${names.join(', ')} (${kb(size)}), ready in ${ms(performance.now() - t0)}. No request leaves the page.`, 'ok');
  document.body.dataset.engine = 'browser';
  document.querySelector('input[name=engine][value=browser]').checked = true;
}

async function switchEngine(kind, snapshots, names) {
  try {
    if (kind === 'browser') await useBrowser(snapshots, names); else await useHost();
    const u = new URL(location.href);
    if (kind === 'browser') u.searchParams.set('engine', 'browser'); else u.searchParams.delete('engine');
    history.replaceState(null, '', u);
  } catch (err) {
    setStatus(`Could not switch: ${err.message}`, 'err');
    console.error(err);
  }
}

function setupDrop() {
  const over = (e) => { e.preventDefault(); document.body.classList.add('dragging'); };
  window.addEventListener('dragover', over);
  window.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  window.addEventListener('drop', async (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    const files = [...(e.dataTransfer?.files ?? [])].filter((f) => f.name.endsWith('.snap'));
    if (!files.length) return setStatus('Drop a .snap file (a snapshot the builder wrote).', 'err');
    const snaps = await Promise.all(files.map(async (f) => new Uint8Array(await f.arrayBuffer())));
    state.env = '';
    await switchEngine('browser', snaps, files.map((f) => f.name));
  });
}

async function main() {
  fillExamples('rest-examples', restExamples, (ex) => { $('rest-path').value = ex.path; $('rest-query').value = ex.query; });
  fillExamples('graphql-examples', graphqlExamples, (ex) => {
    $('graphql-query').value = ex.query; $('graphql-variables').value = ex.variables ?? ''; $('graphql-mode').value = ex.mode; graphiqlLink();
  });
  fillExamples('search-examples', searchExamples, (ex) => { $('search-body').value = JSON.stringify(ex.body, null, 2); });
  $('rest-send').onclick = sendREST;
  $('graphql-send').onclick = sendGraphQL;
  $('search-send').onclick = sendSearch;
  $('graphql-query').oninput = graphiqlLink;
  for (const r of document.querySelectorAll('input[name=engine]')) r.onchange = () => switchEngine(r.value);
  $('env').onchange = () => {
    state.env = $('env').value;
    for (const el of document.querySelectorAll('.env-name')) el.textContent = state.env;
    graphiqlLink();
  };
  for (const id of ['rest-query', 'rest-path']) $(id).onkeydown = (e) => { if (e.key === 'Enter') sendREST(); };
  for (const [id, fn] of [['graphql-query', sendGraphQL], ['search-body', sendSearch]]) {
    $(id).onkeydown = (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); fn(); } };
  }
  setupDrop();
  const params = new URLSearchParams(location.search);
  state.env = params.get('env') ?? '';
  await useHost().catch((err) => setStatus(`The host did not answer /readyz: ${err.message}`, 'err'));
  if (params.get('engine') === 'browser') await switchEngine('browser');
  document.body.dataset.ready = 'true';
}

main();
