/**
 * A worker thread of obsim's own (the readiness reporter, the shadow's replay, the HAR importer):
 * the compiled JavaScript entry beside the caller. From the TypeScript sources (npm run dev, the
 * tests), the entry's compiled twin in dist/ when the build is current (src/build-state.ts): a
 * thread that loads an obsim takes about a third less CPU from the build than through a
 * TypeScript loader, and the tests start a hundred of them. Otherwise the `.ts` entry under tsx,
 * so that an edited source is never hidden by a stale build. A worker does not inherit tsx's loader
 * (tsx#354), so it registers it first; tsx's API is resolved here, from obsim's own package, so a
 * worker started by a process whose working directory is elsewhere still finds it. Compiled obsim
 * never loads tsx, a dev dependency.
 */
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildIsCurrent } from './build-state.js';
import { packageRoot } from './package-root.js';

export function ownWorker(callerUrl: string, name: string, workerData: unknown): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), { workerData });
  const entry = new URL(`./${name}.ts`, callerUrl);
  if (buildIsCurrent()) {
    const root = packageRoot();
    const twin = `${root}/dist/${relative(root, fileURLToPath(entry)).replace(/\.ts$/, '.js')}`;
    // without the parent's preloads (a TypeScript loader, a test runner's tracker): compiled code needs no loader,
    // and a thread loading an obsim through tsx's hooks cost half again as much CPU
    const execArgv = withoutPreloads(process.execArgv);
    return new Worker(pathToFileURL(twin), { workerData, execArgv });
  }
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/** Node's arguments without the modules it loads first (`--import X`, `--import=X`, `--require`, `--loader`). */
function withoutPreloads(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = /^(--import|--require|-r|--loader|--experimental-loader)(=.*)?$/.exec(args[i]);
    if (!flag) out.push(args[i]);
    else if (flag[2] === undefined) i++; // its value is the next argument
  }
  return out;
}
