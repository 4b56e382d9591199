/**
 * Both committed documents pass the two linters a partner's toolchain would run on them, with the
 * repository's configurations (.spectral.yaml: spectral:oas, every rule on, failing on any result;
 * redocly.yaml: recommended-strict, warnings raised to errors): zero results from either. The
 * configurations turn no rule off. A document with a broken example or no operationId fails
 * both, with the linter's own message (so this test can fail).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { DOCUMENTS as PUBLISHED } from '../../src/openapi/documents.js';
import { redocly, spectral } from '../helpers/linters.js';
import { ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

const DOCUMENTS = Object.values(PUBLISHED).map((d) => d.file);

t.test('the configurations extend the standard rulesets and turn no rule off', async (t) => {
  // what the files say once their comments are dropped
  const config = (file: string) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
  t.match(config('.spectral.yaml'), /extends: \['spectral:oas'\]/);
  t.notMatch(config('.spectral.yaml'), /\boff\b|rules:/);
  t.match(config('redocly.yaml'), /- recommended-strict/);
  t.notMatch(config('redocly.yaml'), /\boff\b|rules:/);
});

for (const file of DOCUMENTS) {
  t.test(`${file}: Spectral (spectral:oas) finds nothing`, async (t) => {
    const r = spectral(file);
    t.same(
      r.results.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`),
      [],
    );
    t.equal(r.code, 0, r.stderr);
  });
  t.test(`${file}: Redocly (recommended, strict) finds nothing`, async (t) => {
    const r = redocly(file);
    t.same(
      r.problems.map((p) => `${p.ruleId}: ${p.message}`),
      [],
    );
    t.same(r.totals, { errors: 0, warnings: 0, ignored: 0 });
    t.equal(r.code, 0);
  });
}

t.test('a broken example and a missing operationId fail both linters, in their own words', async (t) => {
  const doc = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'));
  doc.paths['/v1/partner/payments'].post.requestBody.content['application/json'].example.amount = 'x';
  delete doc.paths['/v1/partner/payments/{paymentId}/status'].get.operationId;
  const bad = join(t.testdir({}), 'bad.json');
  writeFileSync(bad, JSON.stringify(doc, null, 2));

  const s = spectral(bad);
  t.not(s.code, 0, 'spectral exits non-zero');
  t.match(
    s.results.map((p) => `${p.code}: ${p.message}`),
    [/oas3-valid-media-example: "amount" property type must be number/, /operation-operationId: Operation must have "operationId"/],
  );
  const r = redocly(bad);
  t.not(r.code, 0, 'redocly exits non-zero');
  t.match(r.problems.map((p) => `${p.ruleId}: ${p.message}`).sort(), [
    /no-invalid-media-type-examples: Example value must conform to the schema/,
    /operation-operationId: Operation object should contain `operationId`/,
  ]);
});
