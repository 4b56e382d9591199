/**
 * Load a dependency on first use instead of at start-up. obsim's start-up time is part
 * of its promise (a CI job never waits on it): undici (webhook delivery, scenario transport,
 * `obsim listen`), xmlbuilder2 (JUnit reports) and yaml (scenario files and recordings) are ~2.5 MB of code that
 * `obsim serve` does not need to answer its first request.
 *
 *   const undici = lazyRequire<typeof import('undici')>('undici');
 *   await undici().request(url, …);
 *
 * An ES module (jose: AIS tokens, the console's session cookie) is imported instead, so its loader
 * answers a promise:
 *
 *   const jose = lazyImport<typeof import('jose')>('jose');
 *   const { jwtVerify } = await jose();
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}

export function lazyImport<T>(specifier: string): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= import(specifier) as Promise<T>);
}
