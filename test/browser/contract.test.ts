/**
 * The console's contract page in real Chromium: the version picker, and beside it the changelog
 * between the two versions picked (as many rows as the API's changelog has changes), and what of
 * it the signed-in sandbox's own traffic touched, each touched change linking to the journal
 * entries behind it. Picking other versions shows their changelog. Nothing loads from outside obsim.
 */
import t from 'tap';
import { browserMissing, browserSession, consoleSignIn, inCI } from '../helpers/browser.js';
import { CORPUS_DIR } from '../helpers/changelog-corpus.js';
import { scaled } from '../helpers/speed.js';

const missing = browserMissing();
const skip = missing && inCI() ? 'chromium missing in CI: test/browser/pages.test.ts fails for it' : missing;

t.test(
  'the contract page: the changelog beside the version picker, and this sandbox’s impact',
  { skip, timeout: scaled(120_000) },
  async (t) => {
    const session = await browserSession(t, { contracts: CORPUS_DIR });
    const { baseUrl, newPage } = session;
    const created = (await (
      await fetch(`${baseUrl}/_sandbox/sandboxes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contractVersion: 'corpus-a' }),
      })
    ).json()) as { credentials: { clientId: string; clientSecret: string } };
    const { clientId, clientSecret } = created.credentials;
    const headers = { 'content-type': 'application/json', 'x-partner-client-id': clientId, 'x-partner-client-secret': clientSecret };
    await fetch(`${baseUrl}/v1/partner/merchants/test`, { method: 'POST', headers, body: JSON.stringify({ companyName: 'Console ApS' }) });
    const api = async (path: string) => (await fetch(`${baseUrl}${path}`, { headers })).json() as Promise<any>;
    const aToB = await api('/_sandbox/contract/changelog?from=corpus-a&to=corpus-b');
    const baseToA = await api('/_sandbox/contract/changelog?from=base&to=corpus-a');

    const { page, requested } = await newPage(t);
    await consoleSignIn(page, baseUrl, clientId, clientSecret);
    await page.getByRole('link', { name: 'Contract' }).click();
    await page.locator('h1', { hasText: 'Contract' }).waitFor();
    t.equal(await page.locator('#from').inputValue(), 'corpus-a', 'from: the sandbox’s own version');
    t.equal(await page.locator('#to').inputValue(), 'corpus-b', 'to: the newest');
    t.same(await page.locator('#to option').allTextContents(), ['base', 'corpus-a', 'corpus-b']);
    const picker = await page.getByTestId('version-picker').boundingBox();
    const changelog = await page.getByTestId('changelog').boundingBox();
    t.ok(picker && changelog, 'both drawn');
    t.equal(
      await page.getByTestId('changelog-summary').textContent(),
      `${aToB.summary.changes} changes, ${aToB.summary.breaking} breaking a client.`,
    );
    t.equal(await page.getByTestId('changelog').locator('tbody tr').count(), aToB.changes.length, 'a row per change');

    const impact = page.getByTestId('impact');
    t.match(await page.getByTestId('impact-verdict').textContent(), /breaking 2 of the 2 changes its traffic touched break a client/);
    const links = await impact.locator('a[href^="/console/requests/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    t.equal(links.length, 2, 'each touched change links to the call behind it');
    await impact.locator('a[href^="/console/requests/"]').first().click();
    await page.locator('h1', { hasText: 'Request POST /v1/partner/merchants/test' }).waitFor();
    await page.goBack();

    await page.locator('#from').selectOption('base');
    await page.locator('#to').selectOption('corpus-a');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('changelog').locator('h2', { hasText: 'Changes from base to corpus-a' }).waitFor();
    t.equal(await page.getByTestId('changelog').locator('tbody tr').count(), baseToA.changes.length);
    t.match(page.url(), /\/console\/contract\?from=base&to=corpus-a$/);
    t.same(
      requested.filter((u) => !u.startsWith(baseUrl)),
      [],
      'nothing is loaded from outside obsim',
    );
  },
);
