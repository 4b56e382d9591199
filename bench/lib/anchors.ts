/**
 * Optional anchors (`--with-anchors`): Stoplight Prism and Mockoon CLI serving obsim's own
 * OpenAPI document with static responses. Installed on demand with npm into a cache folder
 * under the OS temp dir (never a dependency of obsim), reused by later runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startServer, type Server } from './proc.js';

export interface AnchorSpec {
  kind: 'prism' | 'mockoon';
  start(): Promise<{ server: Server; startMs: number }>;
}

/** Exact versions, so runs on different days compare the same anchors (Prism 5.15 and later run on Node 24 only). */
const PACKAGES = ['@stoplight/prism-cli@5.16.0', '@mockoon/cli@9.9.0'];

export async function anchorServers(root: string, tmp: string, log: (line: string) => void): Promise<AnchorSpec[]> {
  // one folder per set of versions: a folder an earlier set was installed into is not reused
  const dir = join(tmpdir(), `obsim-bench-anchors-${PACKAGES.join('-').replace(/[^a-z0-9.-]+/gi, '_')}`);
  const prismBin = join(dir, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const mockoonBin = join(dir, 'node_modules', '@mockoon', 'cli', 'bin', 'run.js');
  if (!existsSync(prismBin) || !existsSync(mockoonBin)) {
    log(`anchors: installing ${PACKAGES.join(', ')} into ${dir} (once; not a dependency of obsim) ...`);
    mkdirSync(dir, { recursive: true });
    const r = spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', ...PACKAGES], {
      stdio: 'inherit',
    });
    if (r.status !== 0) {
      log('anchors: npm install failed; running without them');
      return [];
    }
  }
  // the provider's document, plus the controls' /healthz (the bench waits for it to answer 200;
  // its error schema, ErrorBody, is in both documents)
  const spec = join(tmp, 'openapi.json');
  const controls = join(tmp, 'openapi-controls.json');
  for (const [which, out] of [
    ['provider', spec],
    ['controls', controls],
  ]) {
    const gen = spawnSync(process.execPath, [join(root, 'dist', 'src', 'bin.js'), 'openapi', '--which', which, '--out', out], {
      cwd: root,
      stdio: 'inherit',
    });
    if (gen.status !== 0) {
      log('anchors: could not write the OpenAPI documents; running without them');
      return [];
    }
  }
  const provider = JSON.parse(readFileSync(spec, 'utf8')) as { paths: Record<string, unknown> };
  provider.paths['/healthz'] = (JSON.parse(readFileSync(controls, 'utf8')) as { paths: Record<string, unknown> }).paths['/healthz'];
  writeFileSync(spec, JSON.stringify(provider));
  const anchors: AnchorSpec[] = [];
  if (existsSync(prismBin)) {
    anchors.push({
      kind: 'prism',
      async start() {
        const port = await freePort();
        // static examples, request validation on (the default), logging quiet
        return startServer({
          name: 'prism',
          argv: [
            process.execPath,
            prismBin,
            'mock',
            spec,
            '--host',
            '127.0.0.1',
            '--port',
            String(port),
            '--dynamic',
            'false',
            '--errors',
            'false',
            '--verboseLevel',
            'warn',
          ],
          port,
          timeoutMs: 60_000,
        });
      },
    });
  }
  if (existsSync(mockoonBin)) {
    anchors.push({
      kind: 'mockoon',
      async start() {
        const port = await freePort();
        return startServer({
          name: 'mockoon',
          argv: [
            process.execPath,
            mockoonBin,
            'start',
            '--data',
            spec,
            '--port',
            String(port),
            '--hostname',
            '127.0.0.1',
            '--disable-log-to-file',
            '--disable-admin-api',
          ],
          port,
          timeoutMs: 60_000,
        });
      },
    });
  }
  return anchors;
}
