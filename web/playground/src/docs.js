// The API reference: openapi.json (the document the host serves) rendered as a page:
// each operation with its parameters, body, answers and the schemas they name.
const $ = (id) => document.getElementById(id);

const h = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v);
  for (const c of children.flat()) if (c !== undefined && c !== null) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
};

// md renders the little Markdown the descriptions use: `code` and nothing else.
const md = (text = '') => {
  const span = h('span');
  String(text).split(/(`[^`]+`)/).forEach((part) => {
    span.append(part.startsWith('`') && part.endsWith('`') && part.length > 1 ? h('code', {}, part.slice(1, -1)) : document.createTextNode(part));
  });
  return span;
};

const refName = (s) => s?.$ref?.split('/').pop();
const typeOf = (s) => {
  if (!s) return '';
  if (s.$ref) return h('a', { href: '#schema-' + refName(s) }, refName(s));
  if (s.oneOf) return h('span', {}, ...s.oneOf.flatMap((x, i) => [i ? ' | ' : '', typeOf(x)]));
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return h('span', {}, 'array of ', typeOf(s.items));
  const t = Array.isArray(s.type) ? s.type.join(' | ') : s.type ?? 'any';
  return s.enum ? `${t}: ${s.enum.join(', ')}` : t;
};

function params(list) {
  if (!list?.length) return null;
  return h('table', {},
    h('thead', {}, h('tr', {}, h('th', {}, 'Parameter'), h('th', {}, 'In'), h('th', {}, 'Type'), h('th', {}, 'Meaning'))),
    h('tbody', {}, list.map((p) => h('tr', {},
      h('td', {}, h('code', {}, p.name), p.required ? ' *' : ''), h('td', {}, p.in), h('td', {}, typeOf(p.schema)), h('td', {}, md(p.description))))));
}

function operation(path, method, op, shared) {
  const id = op.operationId;
  const body = op.requestBody?.content;
  return h('section', { class: 'op', id },
    h('h3', {}, h('span', { class: 'method ' + method }, method.toUpperCase()), ' ', h('code', {}, path)),
    h('p', {}, h('strong', {}, op.summary)),
    op.description ? h('p', {}, md(op.description)) : null,
    params([...(shared ?? []), ...(op.parameters ?? [])]),
    body ? h('div', {}, h('h4', {}, 'Body'), h('ul', {}, Object.entries(body).map(([type, c]) => h('li', {}, h('code', {}, type), ': ', typeOf(c.schema),
      c.example !== undefined ? h('pre', {}, typeof c.example === 'string' ? c.example : JSON.stringify(c.example, null, 2)) : null)))) : null,
    h('h4', {}, 'Answers'),
    h('ul', {}, Object.entries(op.responses).map(([status, r]) => h('li', {}, h('span', { class: 'status ' + (status < 300 ? 'ok' : status < 400 ? '' : 'warn') }, status), ' ', md(r.description),
      r.content ? h('span', { class: 'muted' }, ' — ', ...Object.entries(r.content).flatMap(([type, c], i) => [i ? ', ' : '', h('code', {}, type), ' ', typeOf(c.schema)])) : null))),
  );
}

function schema(name, s) {
  const props = Object.entries(s.properties ?? {});
  return h('section', { class: 'op', id: 'schema-' + name },
    h('h3', {}, name),
    s.description ? h('p', {}, md(s.description)) : null,
    props.length ? h('table', {}, h('tbody', {}, props.map(([k, v]) => h('tr', {},
      h('td', {}, h('code', {}, k), s.required?.includes(k) ? ' *' : ''), h('td', {}, typeOf(v)), h('td', {}, md(v.description)))))) : h('p', {}, typeOf(s)));
}

async function main() {
  const doc = await (await fetch('openapi.json')).json();
  const root = $('docs');
  root.textContent = '';
  const nav = h('nav', { class: 'toc' }, h('h2', {}, 'Operations'));
  const ops = h('div', { class: 'ops' });
  root.append(h('div', { class: 'intro' }, h('h1', {}, doc.info.title), h('p', {}, md(doc.info.summary)), h('p', {}, md(doc.info.description)),
    h('p', {}, 'OpenAPI ', doc.openapi, ' · ', h('a', { href: 'openapi.json' }, 'openapi.json'))), h('div', { class: 'docs-body' }, nav, ops));
  for (const tag of doc.tags) {
    ops.append(h('h2', { id: 'tag-' + tag.name }, tag.name), h('p', { class: 'muted' }, md(tag.description)));
    const list = h('ul');
    nav.append(h('h4', {}, tag.name), list);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of ['get', 'post', 'put', 'delete', 'head']) {
        const op = item[method];
        if (!op || !op.tags?.includes(tag.name)) continue;
        ops.append(operation(path, method, op, item.parameters));
        list.append(h('li', {}, h('a', { href: '#' + op.operationId }, h('span', { class: 'method ' + method }, method.toUpperCase()), ' ', path)));
      }
    }
  }
  ops.append(h('h2', { id: 'schemas' }, 'Schemas'));
  for (const [name, s] of Object.entries(doc.components.schemas)) ops.append(schema(name, s));
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  document.body.dataset.ready = 'true';
}

main().catch((err) => { $('docs').textContent = `Could not load openapi.json: ${err.message}`; });
