/**
 * The house rules hold by rule: the dependency checker's config keeps the layer rules of
 * docs/architecture.md (so none can be dropped quietly), the checker finds no violation, and no
 * hand-written source file grows past the size where it holds several things at once.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';

const require = createRequire(import.meta.url);
const root = new URL('../../', import.meta.url);

interface PathRule {
  path?: string;
  pathNot?: string;
  circular?: boolean;
}
interface Rule {
  name: string;
  severity: string;
  from: PathRule;
  to: PathRule;
}
const config = require('../../.dependency-cruiser.cjs') as { forbidden: Rule[]; options: { tsPreCompilationDeps: boolean } };
const rule = (name: string) => config.forbidden.find((r) => r.name === name);

/** Whether `rule` forbids an import of `to` from `from` (what depcruise decides for these path rules). */
function forbids(r: Rule, from: string, to: string): boolean {
  const matches = (p: PathRule, file: string) =>
    (p.path === undefined || new RegExp(p.path).test(file)) && (p.pathNot === undefined || !new RegExp(p.pathNot).test(file));
  return matches(r.from, from) && matches(r.to, to);
}

t.test('the config forbids the domain from importing the store, by a named error rule', async (t) => {
  const r = rule('domain-is-pure');
  if (!r) return t.fail('domain-is-pure is missing from .dependency-cruiser.cjs');
  t.equal(r.severity, 'error');
  t.ok(forbids(r, 'src/domain/payment.ts', 'src/store/payments.ts'), 'domain -> store is forbidden');
  t.ok(forbids(r, 'src/domain/payment.ts', 'src/engine/lifecycle.ts'), 'domain -> engine is forbidden');
  t.ok(forbids(r, 'src/domain/payment.ts', 'schemas/webhooks.ts'), 'domain -> schemas is forbidden');
  t.notOk(forbids(r, 'src/domain/payment.ts', 'src/domain/machine.ts'), 'domain -> domain is allowed');
});

t.test('the config forbids cycles, type-only imports included', async (t) => {
  const r = rule('no-circular');
  if (!r) return t.fail('no-circular is missing from .dependency-cruiser.cjs');
  t.equal(r.severity, 'error');
  t.equal(r.to.circular, true);
  t.equal(config.options.tsPreCompilationDeps, true, 'type-only imports are cruised');
});

t.test('the store stays below the engine and SQL stays in the store', async (t) => {
  const store = rule('store-below-engine');
  const sql = rule('sql-only-in-store');
  if (!store || !sql) return t.fail('store-below-engine or sql-only-in-store is missing');
  t.ok(forbids(store, 'src/store/payments.ts', 'src/engine/world.ts'));
  t.notOk(forbids(store, 'src/store/payments.ts', 'src/domain/payment.ts'), 'the store takes its types from the domain');
  t.ok(forbids(sql, 'src/routes/partner/payments.ts', 'node_modules/better-sqlite3/lib/index.js'));
  t.notOk(forbids(sql, 'src/store/db.ts', 'node_modules/better-sqlite3/lib/index.js'));
});

t.test('the server never reaches up to the layer that starts processes', async (t) => {
  const r = rule('http-below-processes');
  if (!r) return t.fail('http-below-processes is missing from .dependency-cruiser.cjs');
  t.equal(r.severity, 'error');
  t.ok(forbids(r, 'src/routes/sandboxes/index.ts', 'src/cluster/supervisor.ts'), 'routes -> cluster is forbidden');
  t.ok(forbids(r, 'src/plugins/shard.ts', 'src/cluster/haproxy.ts'), 'plugins -> cluster is forbidden');
  t.notOk(forbids(r, 'src/cli/cluster.ts', 'src/cluster/supervisor.ts'), 'the CLI starts the cluster');
  t.notOk(forbids(r, 'src/routes/sandboxes/index.ts', 'src/plugins/shard-peers.ts'), 'the peers fan-out is a plugin the routes may use');
});

t.test('the MCP server and the CLI are adapters side by side: MCP never imports the CLI', async (t) => {
  const r = rule('mcp-not-cli');
  if (!r) return t.fail('mcp-not-cli is missing from .dependency-cruiser.cjs');
  t.equal(r.severity, 'error');
  t.ok(forbids(r, 'src/mcp/tools.ts', 'src/cli/trigger.ts'), 'mcp -> cli is forbidden');
  t.ok(forbids(r, 'src/mcp/tools.ts', 'src/cli.ts'), 'and the CLI entry');
  t.notOk(forbids(r, 'src/mcp/tools.ts', 'src/scenarios/triggers.ts'), 'the triggers beside the scenario runner are shared');
  t.notOk(forbids(r, 'src/cli/mcp.ts', 'src/mcp/server.ts'), 'the CLI starts the MCP server');
});

t.test('the validator and serializer compilers sit below both the plugins and the contract registry', async (t) => {
  const r = rule('compilers-below-plugins');
  if (!r) return t.fail('compilers-below-plugins is missing from .dependency-cruiser.cjs');
  t.equal(r.severity, 'error');
  t.ok(forbids(r, 'src/contracts/registry.ts', 'src/plugins/contract-versions.ts'), 'contracts -> plugins is forbidden');
  t.ok(forbids(r, 'src/compilers/validation.ts', 'src/plugins/errors.ts'), 'compilers -> plugins is forbidden');
  t.ok(forbids(r, 'src/contracts/load.ts', 'src/routes/sandbox/contract.ts'), 'contracts -> routes is forbidden');
  t.notOk(forbids(r, 'src/contracts/registry.ts', 'src/compilers/validation.ts'), 'the registry imports the compilers downward');
  t.notOk(forbids(r, 'src/plugins/errors.ts', 'src/compilers/validation.ts'), 'and so do the plugins');
});

t.test('the checker finds no violation in the tree', async (t) => {
  const bin = new URL('node_modules/dependency-cruiser/bin/dependency-cruiser.mjs', root).pathname;
  const out = execFileSync(
    process.execPath,
    [bin, '--config', '.dependency-cruiser.cjs', '--output-type', 'err', 'src', 'schemas', 'fixtures', 'test', 'bench', 'scripts'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  t.match(out, /no dependency violations found/);
});

/** Files a generator writes: they say so on their first line and are not held to the size limit. */
const GENERATED = /^\/\* Generated from .* Do not edit\. \*\//;
const MAX_LINES = 420;

t.test(`no hand-written source file is longer than ${MAX_LINES} lines`, async (t) => {
  const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.cjs', '*.js'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.startsWith('bench/results/'));
  t.ok(files.length > 100, 'the tree is listed');
  const long = files.flatMap((f) => {
    const text = readFileSync(new URL(f, root), 'utf8');
    if (GENERATED.test(text)) return [];
    const lines = text.split('\n').length;
    return lines > MAX_LINES ? [`${f}: ${lines} lines`] : [];
  });
  t.same(long, [], 'split these by what they hold');
});
