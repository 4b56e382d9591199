/**
 * The Node.js lines obsim runs on. package.json's `engines` says the same (a test holds the two
 * together). 22.14 is the first Node 22 with Node-API 10, which the SQLite driver's binaries are
 * built for: on 22.13 and older they crash the process with a segmentation fault. npm only warns
 * when `engines` is not met, so obsim checks before it loads anything that needs them.
 */
export const SUPPORTED_NODE = { min: '22.14.0', lines: 'Node.js 22 (22.14 or newer) or 24' } as const;

function parts(version: string): number[] {
  return version.replace(/^v/, '').split('.').map(Number);
}

/** Undefined on a supported Node; otherwise one line saying what is needed. */
export function unsupportedNode(version: string = process.versions.node): string | undefined {
  const [major, minor, patch] = parts(version);
  const [minMajor, minMinor, minPatch] = parts(SUPPORTED_NODE.min);
  const ok = major !== minMajor ? major > minMajor : minor !== minMinor ? minor > minMinor : patch >= minPatch;
  return ok ? undefined : `obsim needs ${SUPPORTED_NODE.lines}; this is Node.js ${version.replace(/^v?/, 'v')}.`;
}
