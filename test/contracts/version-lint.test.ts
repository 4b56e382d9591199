/**
 * Every shipped contract version's served document (`/openapi.json?version=NAME`, from
 * examples/contracts) passes the project's own OpenAPI lint as the base does: the real Spectral
 * (spectral:oas, failing on any result) and Redocly (recommended-strict), with the repository's
 * configurations (test/contract/openapi-lint.test.ts lints the base). Its examples show what the
 * version sends (src/contracts/examples.ts). The same overlay applied without shaping the examples
 * fails both linters: what this test would catch.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { applyOverlay, type OverlayDocument } from '../../src/contracts/overlay.js';
import { committedProviderDocument } from '../../src/plugins/contract-versions.js';
import { build, json, PARTNER } from '../helpers/app.js';
import { redocly, spectral } from '../helpers/linters.js';
import { ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(300_000));

const SHIPPED = join(ROOT, 'examples/contracts');
const files = readdirSync(SHIPPED).filter((f) => /\.(ya?ml|json)$/.test(f));

t.test('every shipped version passes Spectral and Redocly as the base does', async (t) => {
  t.ok(files.length >= 1, 'the shipped versions are listed');
  const app = await build(t, { config: { contracts: SHIPPED } });
  const names = json<{ items: { name: string }[] }>(
    await app.inject({ method: 'GET', url: '/_sandbox/contract/versions', headers: PARTNER }),
  ).items.map((v) => v.name);
  t.equal(names.length, files.length + 1, 'the base and each file');
  const dir = t.testdir({});
  for (const name of names.filter((n) => n !== 'base')) {
    const res = await app.inject({ method: 'GET', url: `/openapi.json?version=${encodeURIComponent(name)}` });
    t.equal(res.statusCode, 200);
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(JSON.parse(res.body), null, 2));
    const s = spectral(file);
    t.same(
      s.results.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`),
      [],
      `${name}: Spectral finds nothing`,
    );
    t.equal(s.code, 0, s.stderr);
    const r = redocly(file);
    t.same(
      r.problems.map((p) => `${p.ruleId}: ${p.message}`),
      [],
      `${name}: Redocly finds nothing`,
    );
    t.equal(r.code, 0);
  }
});

t.test('the example version without its examples shaped: both linters fail on the payment examples', async (t) => {
  const overlay = parse(readFileSync(join(SHIPPED, '2027-03-01.yaml'), 'utf8')) as OverlayDocument;
  const file = join(t.testdir({}), 'unshaped.json');
  writeFileSync(file, JSON.stringify(applyOverlay(committedProviderDocument(), overlay), null, 2));
  const s = spectral(file);
  t.not(s.code, 0);
  t.match(
    s.results.map((p) => `${p.code}: ${p.message}`),
    [/oas3-valid-media-example/, /oas3-valid-media-example/],
  );
  const r = redocly(file);
  t.not(r.code, 0);
  t.equal(r.problems.filter((p) => p.ruleId === 'no-invalid-media-type-examples').length, 4, 'the four errors the finding names');
});
