/**
 * A worker thread of obsim's own (the readiness reporter, the shadow's replay): the compiled
 * JavaScript entry beside the caller, or, from the TypeScript sources (npm run dev, the tests),
 * the `.ts` entry under tsx. A worker does not inherit tsx's loader (tsx#354), so it registers it
 * first; tsx's API is resolved here, from obsim's own package, so a worker started by a process
 * whose working directory is elsewhere still finds it. Compiled obsim never loads tsx, a dev
 * dependency.
 */
import { Worker } from 'node:worker_threads';

export function ownWorker(callerUrl: string, name: string, workerData: unknown): Worker {
  const entry = new URL(callerUrl.endsWith('.ts') ? `./${name}.ts` : `./${name}.js`, callerUrl);
  if (entry.pathname.endsWith('.js')) return new Worker(entry, { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}
