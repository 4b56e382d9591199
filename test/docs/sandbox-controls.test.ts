/** The "Sandbox control API" section of docs/sandbox-controls.md documents every /_sandbox operation of the OpenAPI document. */
import { readFileSync } from 'node:fs';
import t from 'tap';

const readme = readFileSync(new URL('../../docs/sandbox-controls.md', import.meta.url), 'utf8');
const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};
const start = readme.indexOf('### Sandbox control API');
const section = readme.slice(start, readme.indexOf('\n### ', start + 1));

t.test('every /_sandbox operation of openapi.json is in the README control API section', async (t) => {
  t.ok(start > 0, 'README has a "Sandbox control API" section');
  const ops = Object.entries(openapi.paths)
    .filter(([path]) => path.startsWith('/_sandbox'))
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
  t.ok(ops.length >= 14, `${ops.length} sandbox operations`);
  for (const op of ops) t.ok(section.includes(`\`${op}`), `${op} is documented`);
  // and the other way round: the section documents no operation that does not exist
  const documented = [...section.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/_sandbox[^`?\s]*)/g)].map((m) => `${m[1]} ${m[2]}`);
  for (const op of new Set(documented)) t.ok(ops.includes(op), `${op} (README) exists in openapi.json`);
});
