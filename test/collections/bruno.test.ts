/**
 * The Bruno collection of a sandbox, judged by Bruno's own CLI (@usebruno/cli, `bru run`): the
 * zip from GET /_sandbox/collections/bruno, unpacked with yauzl (not the library that wrote it),
 * runs against a fresh sandbox of an obsim listening on 127.0.0.1 with the environment inside it;
 * so does the folder `obsim collection --format bruno` writes, under the example contract version.
 * `obsim collection` itself: both formats, and a wrong --format. One obsim for the file.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import t from 'tap';
import { build } from '../helpers/app.js';
import { BIN, ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(300_000));

const require = createRequire(import.meta.url);
const yauzl = require('yauzl') as typeof import('yauzl');
const BRU = join(ROOT, 'node_modules/@usebruno/cli/bin/bru.js');
const V = '2027-03-01';

const app = await build(t, { config: { contracts: 'examples/contracts' } });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
app.publicUrl = address;
const work = mkdtempSync(join(tmpdir(), 'obsim-bruno-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

async function sandbox(body: object = {}) {
  const res = await fetch(`${address}/_sandbox/sandboxes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { sandboxId: string; credentials: { clientId: string; clientSecret: string } };
}

function exec(args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function unzip(zip: Buffer, into: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, archive) => {
      if (err) return reject(err);
      const names: string[] = [];
      archive.on('entry', (entry: import('yauzl').Entry) => {
        names.push(entry.fileName);
        if (entry.fileName.endsWith('/')) return archive.readEntry();
        archive.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const path = join(into, entry.fileName);
            mkdirSync(dirname(path), { recursive: true });
            writeFileSync(path, Buffer.concat(chunks));
            archive.readEntry();
          });
        });
      });
      archive.on('end', () => resolve(names));
      archive.readEntry();
    }),
  );
}

interface BruResult {
  test: { filename: string };
  response: { status: number; data: Record<string, unknown> };
  testResults: { description: string; status: string; error?: string }[];
}
/** `bru run` in a collection folder with its one environment; the JSON report's results. */
async function bruRun(folder: string, target: string[]) {
  const env = readdirSync(join(folder, 'environments'))[0].replace(/\.bru$/, '');
  const report = join(work, `report-${Date.now()}.json`);
  const r = await exec([BRU, 'run', ...target, '-r', '--env', env, '--reporter-json', report], folder);
  const results = (JSON.parse(readFileSync(report, 'utf8')) as { results: BruResult[] }[])[0].results;
  return { ...r, results };
}
const failuresOf = (results: BruResult[]) =>
  results.flatMap((r) =>
    r.testResults.filter((x) => x.status !== 'pass').map((x) => `${r.test.filename}: ${x.description} ${x.error ?? ''}`),
  );

t.test(
  "Bruno's CLI runs the zipped collection with its environment against a fresh sandbox: every test passes, the Flows end paid",
  async (t) => {
    const s = await sandbox();
    const headers = { 'x-partner-client-id': s.credentials.clientId, 'x-partner-client-secret': s.credentials.clientSecret };
    const res = await fetch(`${address}/_sandbox/collections/bruno`, { headers });
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'application/zip');
    t.equal(res.headers.get('cache-control'), 'no-store');
    const names = await unzip(Buffer.from(await res.arrayBuffer()), join(work, 'zip'));
    const top = `obsim-${s.sandboxId}-base`;
    t.ok(
      names.every((n) => n.startsWith(`${top}/`)),
      'one folder',
    );
    t.ok(names.includes(`${top}/bruno.json`) && names.includes(`${top}/collection.bru`));
    const folder = join(work, 'zip', top);
    t.equal(readFileSync(join(folder, '.gitignore'), 'utf8'), '.env\n', 'the credentials file is kept out of git');
    t.equal(
      readFileSync(join(folder, '.env'), 'utf8'),
      `OBSIM_PARTNER_CLIENT_ID=${s.credentials.clientId}\nOBSIM_PARTNER_CLIENT_SECRET=${s.credentials.clientSecret}\n`,
    );
    const envFile = readFileSync(join(folder, 'environments', readdirSync(join(folder, 'environments'))[0]), 'utf8');
    t.notOk(envFile.includes(s.credentials.clientSecret), 'the environment file holds no secret: it reads them from .env');

    const run = await bruRun(folder, []);
    t.equal(run.code, 0, `bru run exits 0\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
    t.same(failuresOf(run.results), [], 'no failed test');
    t.equal(run.results.length, 29, 'every request ran');
    t.ok(run.results.reduce((n, r) => n + r.testResults.length, 0) >= 80, 'and every request was checked');
    const last = run.results.at(-1)!;
    t.equal(last.test.filename, 'Flows/Payment- test merchant, payment, settlement, paid/The payment is paid.bru');
    t.match(last.response.data, { status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted' });
    const payment = run.results.find((r) => r.test.filename.endsWith('A payment for that merchant (pending).bru'))!;
    t.equal(last.response.data.paymentId, payment.response.data.paymentId, 'the status read is of the payment created');
  },
);

t.test(
  'obsim collection --format bruno under the example version: the folder Bruno runs, the version checked by its own tests',
  async (t) => {
    const s = await sandbox({ contractVersion: V });
    const out = join(work, 'cli-bruno');
    const env = { OBSIM_BASE_URL: address, OBSIM_PARTNER_CLIENT_SECRET: s.credentials.clientSecret };
    const cli = await exec([...BIN, 'collection', '--format', 'bruno', '--sandbox', s.sandboxId, '--out', out], ROOT, env);
    t.equal(cli.code, 0, cli.stderr);
    t.equal(cli.stdout.trim(), `obsim collection: wrote ${join(out, `obsim-${s.sandboxId}-${V}`)}`);
    // the ais folder first, with no token yet: each of its bearer requests' pre-request script fetches one
    const run = await bruRun(join(out, `obsim-${s.sandboxId}-${V}`), ['ais', 'Flows']);
    t.equal(run.code, 0, run.stdout.slice(-2000));
    t.same(failuresOf(run.results), []);
    const firstAis = run.results.findIndex((r) => r.test.filename.startsWith('ais/'));
    t.equal(firstAis, 0, 'the ais folder ran first: no request before it generated a token');
    t.equal(run.results[firstAis].response.status, 200, 'its first request answered: the pre-request script fetched a token');
    t.ok(
      run.results.filter((r) => r.test.filename.startsWith('ais/')).every((r) => r.response.status === 200),
      'every ais request answered under that token',
    );
    const passed = run.results.flatMap((r) => r.testResults.filter((x) => x.status === 'pass').map((x) => x.description));
    t.ok(passed.includes(`${V} adds paymentReference: present`));
    t.ok(passed.includes(`${V} removes merchantName: absent`));
    t.match(run.results.at(-1)!.response.data, { status: 'paid', paymentReference: /^PAY-\d+$/ });
  },
);

t.test('obsim collection --format postman writes the collection and its environment; a wrong --format is one line, exit 2', async (t) => {
  const s = await sandbox();
  const out = join(work, 'cli-postman');
  const env = {
    OBSIM_BASE_URL: address,
    OBSIM_PARTNER_CLIENT_ID: s.credentials.clientId,
    OBSIM_PARTNER_CLIENT_SECRET: s.credentials.clientSecret,
  };
  const cli = await exec([...BIN, 'collection', '--format', 'postman', '--contract-version', V, '--out', out], ROOT, env);
  t.equal(cli.code, 0, cli.stderr);
  t.same(readdirSync(out).sort(), [
    `obsim-${s.sandboxId}-${V}.postman_collection.json`,
    `obsim-${s.sandboxId}-${V}.postman_environment.json`,
  ]);
  const environment = JSON.parse(readFileSync(join(out, `obsim-${s.sandboxId}-${V}.postman_environment.json`), 'utf8'));
  t.match(environment.values, [
    { key: 'baseUrl', value: address },
    { key: 'partnerClientId', value: s.credentials.clientId, type: 'secret' },
  ]);

  const wrong = await exec([...BIN, 'collection', '--format', 'insomnia', '--out', out], ROOT, env);
  t.equal(wrong.code, 2);
  t.equal(wrong.stderr, 'obsim collection: --format must be postman or bruno, got "insomnia"\n', 'one line');
  const unknown = await exec([...BIN, 'collection', '--format', 'postman', '--contract-version', 'nope', '--out', out], ROOT, env);
  t.equal(unknown.code, 2);
  t.match(
    unknown.stderr,
    /^obsim collection: GET \/_sandbox\/collections\/postman\?version=nope answered 400: No contract version "nope".* \(at \/version\)\n$/,
  );
  const refused = await exec([...BIN, 'collection', '--format', 'postman', '--out', out], ROOT, {
    ...env,
    OBSIM_PARTNER_CLIENT_SECRET: 'wrong',
  });
  t.equal(refused.code, 2);
  t.match(refused.stderr, /answered 401/);
});

t.test('the Bruno CLI is the version package.json pins', async (t) => {
  const pins = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies;
  t.equal(JSON.parse(readFileSync(join(ROOT, 'node_modules/@usebruno/cli/package.json'), 'utf8')).version, pins['@usebruno/cli']);
});
