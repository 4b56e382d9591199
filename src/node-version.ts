/**
 * The Node.js lines obsim runs on. package.json's `engines` says the same (a test holds the two
 * together): npm only warns when they are not met, and the SQLite driver's binary crashes the
 * process on older lines, so obsim checks before it loads anything that needs them.
 */
export const SUPPORTED_NODE = { min: '22.12.0', lines: 'Node.js 22 (22.12 or newer) or 24' } as const;

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
