/**
 * Pact's libraries, loaded on demand (as src/lazy.ts does for obsim's own heavy modules): from the
 * partner's project first (resolved from the current directory, where a team that writes pacts
 * has @pact-foundation/pact installed), else from obsim's own install, else a one-line message
 * saying how to install them. `npm ci && npm start` never loads them: they are optional peer
 * dependencies of obsim, pinned to the versions its tests use.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The versions obsim's tests use (package.json pins the same). */
export const PACT_VERSION = '17.1.4';
export const SWAGGER_MOCK_VALIDATOR_VERSION = '14.5.0';

export class PactLibraryMissing extends Error {}

/** Where a library is looked for, in order: the partner's project (the current directory), then obsim's own install. */
export const libraryPlaces = (): string[] => [join(process.cwd(), 'package.json'), import.meta.url];

/** Where `specifier` resolves from the first of `places` that has it; undefined: none does. */
function resolveFromProject(specifier: string, places: readonly string[]): string | undefined {
  for (const from of places) {
    try {
      return createRequire(from).resolve(specifier);
    } catch {
      /* not there: the next place */
    }
  }
  return undefined;
}

const missing = (specifier: string, version: string, command: string) =>
  new PactLibraryMissing(
    `${command} needs ${specifier}, which is not installed here or beside obsim: npm install --save-dev ${specifier}@${version}`,
  );

export interface PactVerifier {
  verifyProvider(): Promise<string>;
}
export type VerifierConstructor = new (options: Record<string, unknown>) => PactVerifier;

/** Pact JS's provider Verifier (the Rust reference verifier inside @pact-foundation/pact). */
export function loadVerifier(command: string, places: readonly string[] = libraryPlaces()): VerifierConstructor {
  const resolved = resolveFromProject('@pact-foundation/pact', places);
  if (!resolved) throw missing('@pact-foundation/pact', PACT_VERSION, command);
  // the verifier reports usage to Pact's servers unless told not to; obsim runs offline
  process.env.PACT_DO_NOT_TRACK ??= 'true';
  // its proxy (http-proxy) calls util._extend, which Node reports as deprecated on every run
  process.noDeprecation = true;
  return (createRequire(resolved)(resolved) as { Verifier: VerifierConstructor }).Verifier;
}

export interface ValidationResult {
  code: string;
  message: string;
  type: 'error' | 'warning';
  mockDetails?: { interactionDescription?: string; location?: string };
  specDetails?: { location?: string };
}
export interface ValidationOutcome {
  errors: ValidationResult[];
  warnings: ValidationResult[];
  success: boolean;
}
interface SwaggerMockValidator {
  validate(options: { specPathOrUrl: string; mockPathOrUrl: string }): Promise<ValidationOutcome>;
}

/** PactFlow's swagger-mock-validator (an ES module): the subset check of a pact against an OpenAPI document. */
export async function loadSwaggerMockValidator(
  command: string,
  places: readonly string[] = libraryPlaces(),
): Promise<SwaggerMockValidator> {
  const resolved = resolveFromProject('@pactflow/swagger-mock-validator', places);
  if (!resolved) throw missing('@pactflow/swagger-mock-validator', SWAGGER_MOCK_VALIDATOR_VERSION, command);
  const module = (await import(pathToFileURL(resolved).href)) as {
    SwaggerMockValidatorFactory: { create(): SwaggerMockValidator };
  };
  return module.SwaggerMockValidatorFactory.create();
}
