#!/usr/bin/env node
/**
 * The `obsim` command. From dist/, it starts from the one-file bundle `npm run build` writes
 * (dist/bundle/src/cli.mjs, scripts/bundle.mjs) when that is there and not older than this file:
 * one module to load instead of hundreds is most of obsim's start-up. Otherwise (no bundle, a
 * build without it, running from src/ through tsx, OBSIM_BUNDLE=off) it starts from the modules.
 */
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as Cli from './cli.js';

const bundle = new URL('../bundle/src/cli.mjs', import.meta.url);

function bundleIsFresh(): boolean {
  if (process.env.OBSIM_BUNDLE === 'off') return false;
  const built = statSync(bundle, { throwIfNoEntry: false });
  return built !== undefined && built.mtimeMs >= statSync(fileURLToPath(import.meta.url)).mtimeMs;
}

const { main } = (bundleIsFresh() ? await import(bundle.href) : await import('./cli.js')) as typeof Cli;
await main(process.argv);
