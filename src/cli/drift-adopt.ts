/**
 * `obsim drift adopt --from REPORT --out DIR/NAME.yaml` (docs/contract-versions.md, "From drift to
 * a version"): a drift report turned into a contract version file (src/contracts/adopt.ts),
 * written only once obsim itself loads it (so it never writes a file `obsim serve` refuses), with
 * what was adopted and what was not (and why) on standard error and in the file's comments.
 *
 * A report made with obsim answering by a contract version V is adopted over V: V is read from
 * `--contracts DIR` (default: the folder of `--out`), and the file written carries V's changes
 * first, so it serves on its own.
 *
 * Exit 0 when the file is written; 1 when nothing in the report can be adopted (nothing written);
 * 2 when the report cannot be read or is not one, the name is not a version name, or the version
 * the report was made under is not in the folder (one line).
 */
import { readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { Document } from 'yaml';
import { adoptDrifts, type Adoption, type DriftReportInput } from '../contracts/adopt.js';
import { readDriftReport } from '../contracts/drift-report.js';
import { ContractFileError } from '../contracts/errors.js';
import { checkDocument, loadVersion, loadVersions, VERSION_NAME, type LoadedVersion } from '../contracts/load.js';
import { BASE_VERSION } from '../domain/contract-switches.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { committedProviderDocument } from '../plugins/contract-versions.js';
import { CliExit } from './exit.js';

const fail = (message: string): never => {
  throw new CliExit(2, `obsim drift adopt: ${message}`);
};

async function reportText(from: string): Promise<string> {
  if (/^https?:\/\//.test(from)) {
    const base = from.replace(/\/+$/, '');
    const url = base.endsWith('/_shadow/report') ? base : `${base}/_shadow/report`;
    try {
      const res = await fetch(`${url}?format=json`);
      if (!res.ok) fail(`${url} answered ${res.status}`);
      return await res.text();
    } catch (err) {
      if (err instanceof CliExit) throw err;
      return fail(`no drift report from ${from} (${(err as Error).message})`);
    }
  }
  try {
    return readFileSync(from, 'utf8');
  } catch (err) {
    return fail(`cannot read ${from} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** The version the report's obsim answered by, read from `dir` (undefined: the base). */
async function versionUnder(report: DriftReportInput, dir: string, base: OpenApiDocument): Promise<LoadedVersion | undefined> {
  const name = report.contractVersion;
  if (name === undefined || name === BASE_VERSION) return undefined;
  let versions: LoadedVersion[];
  try {
    versions = await loadVersions(dir, base);
  } catch (err) {
    if (err instanceof ContractFileError)
      return fail(`the report was made under contract version ${name}, read from ${dir}: ${err.file === dir ? err.problem : err.message}`);
    throw err;
  }
  const found = versions.find((v) => v.name === name);
  if (!found)
    fail(
      `the report was made under contract version ${name}, which is not in ${dir} (give --contracts DIR, the folder obsim served it from: the version adopted carries its changes)`,
    );
  return found;
}

/** The version file's text: the overlay, with what was adopted and what was not in its opening comment. */
function versionText(adoption: Adoption, from: string, over: LoadedVersion | undefined): string {
  const doc = new Document(adoption.version);
  doc.commentBefore = [
    ` A contract version adopted from the drift report ${from} by obsim drift adopt.`,
    ...(over
      ? [
          ` The report was made with obsim answering by contract version ${over.name} (${over.file}):`,
          ` its actions and switches come first, then what was adopted, so this file serves on its own.`,
        ]
      : []),
    ' Serve it with obsim serve --contracts DIR; edit it by hand as any version (docs/contract-versions.md).',
    ' Adopted:',
    ...adoption.adopted.map((a) => `   - ${a}`),
    ...(adoption.notAdopted.length > 0
      ? [
          ' Not adopted (a version cannot say it):',
          ...adoption.notAdopted.map((n) => `   - ${n.where}: ${n.kind} at ${n.pointer || '(the answer)'}: ${n.reason}`),
        ]
      : []),
  ].join('\n');
  return doc.toString({ lineWidth: 0 });
}

export async function adoptReport(opts: { from: string; out: string; contracts?: string }): Promise<void> {
  const name = basename(opts.out, extname(opts.out));
  if (!/\.(ya?ml)$/i.test(opts.out)) fail(`--out ${opts.out}: the version file is YAML (DIR/NAME.yaml)`);
  if (!VERSION_NAME.test(name) || name === 'base')
    fail(`--out ${opts.out}: ${name} is not a version name (1 to 64 letters, digits, ., -, _; not base)`);
  let report;
  try {
    report = readDriftReport(await reportText(opts.from), opts.from);
  } catch (err) {
    if (err instanceof CliExit) throw err;
    return fail((err as Error).message);
  }
  const base = committedProviderDocument();
  const over = await versionUnder(report, opts.contracts ?? dirname(opts.out), base);
  const adoption = over
    ? adoptDrifts(report, over.document, name, { name: over.name, overlay: over.overlay, switches: over.switches })
    : adoptDrifts(report, base, name);
  for (const n of adoption.notAdopted)
    process.stderr.write(`not adopted: ${n.where}: ${n.kind} at ${n.pointer || '(the answer)'}: ${n.reason}\n`);
  if (adoption.adopted.length === 0)
    throw new CliExit(
      1,
      `obsim drift adopt: nothing in ${opts.from} can be adopted (${adoption.notAdopted.length} not adopted); nothing written`,
    );
  // written beside its place, loaded as obsim serve would, then renamed into it
  mkdirSync(dirname(opts.out), { recursive: true });
  const tmp = join(dirname(opts.out), `.${name}.${process.pid}.adopting.yaml`);
  writeFileSync(tmp, versionText(adoption, opts.from, over));
  try {
    await checkDocument(loadVersion(tmp, base));
  } catch (err) {
    rmSync(tmp, { force: true });
    if (err instanceof ContractFileError)
      fail(`the version made from ${opts.from} does not load: ${err.problem}${err.pointer ? ` (at ${err.pointer})` : ''}`);
    throw err;
  }
  renameSync(tmp, opts.out);
  for (const a of adoption.adopted) process.stderr.write(`adopted: ${a}\n`);
  process.stderr.write(
    `obsim drift adopt: wrote ${opts.out} (version ${name}): ${adoption.adopted.length} adopted, ${adoption.notAdopted.length} not adopted\n`,
  );
}
