/**
 * The console's overview offers the sandbox's collections (docs/partner-tools.md): in Chromium, a
 * signed-in partner of a created sandbox pinned to the example contract version downloads the
 * Postman collection, its environment and the Bruno zip by clicking the links; what arrives is
 * what the control API answers for those credentials (the environment holds them, the zip is one).
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { browserMissing, browserSession, consoleSignIn, inCI } from '../helpers/browser.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
const skip = missing && inCI() ? 'chromium missing in CI: test/browser/pages.test.ts fails for it' : missing;
t.setTimeout(scaled(180_000));

t.test('the overview page downloads the Postman and Bruno collections', { skip }, async (t) => {
  const session = await browserSession(t, { contracts: 'examples/contracts' });
  const created = (await (
    await fetch(`${session.baseUrl}/_sandbox/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contractVersion: '2027-03-01' }),
    })
  ).json()) as { sandboxId: string; credentials: { clientId: string; clientSecret: string } };
  const { page } = await session.newPage(t);
  await consoleSignIn(page, session.baseUrl, created.credentials.clientId, created.credentials.clientSecret);
  t.match(await page.locator('#collections-h + p').textContent(), /contract version 2027-03-01/);

  const download = async (testId: string) => {
    // the first answer of a version builds its collection (the converters run once, then it is kept)
    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout: scaled(60_000) }),
      page.getByTestId(testId).click({ timeout: scaled(60_000) }),
    ]);
    return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
  };
  const collection = await download('download-postman');
  t.equal(collection.name, `obsim-${created.sandboxId}-2027-03-01.postman_collection.json`);
  const parsed = JSON.parse(collection.bytes.toString('utf8'));
  t.equal(parsed.info.schema, 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
  t.match(parsed.info.name, 'contract 2027-03-01');

  const environment = await download('download-postman-environment');
  const values = JSON.parse(environment.bytes.toString('utf8')).values as { key: string; value: string; type: string }[];
  t.match(
    values.find((v) => v.key === 'partnerClientSecret'),
    { value: created.credentials.clientSecret, type: 'secret' },
  );
  t.equal(values.find((v) => v.key === 'contractVersion')?.value, '2027-03-01');

  const zip = await download('download-bruno');
  t.equal(zip.name, `obsim-${created.sandboxId}-2027-03-01.bruno.zip`);
  t.equal(zip.bytes.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004', 'a zip archive');
  t.ok(zip.bytes.includes(Buffer.from(`obsim-${created.sandboxId}-2027-03-01/bruno.json`)), 'of the collection folder');
});
