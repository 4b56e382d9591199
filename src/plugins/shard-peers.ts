/**
 * The one view across shards (docs/cluster.md): the admin sandbox list. The shard that answers
 * asks every other shard of `--shard-peers` for its own list (`scope=shard`, with the caller's
 * admin key) and merges them, oldest first; a shard that does not answer in time is named, its
 * sandboxes missing. The shard plugin (./shard.ts) hands it to the routes as `app.acrossShards`.
 */

/** How long the list waits for another shard's answer before naming it unreachable. */
const PEER_TIMEOUT_MS = 2000;

/** What the merge reads of each sandbox (the rest is passed on as it came). */
export interface Listed {
  sandboxId: string;
  createdAt: string;
}

async function listOnPeer(
  name: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ name: string; items: Listed[] | undefined }> {
  try {
    const { request } = await import('undici');
    const res = await request(`${url}/_sandbox/sandboxes?scope=shard`, {
      headers,
      headersTimeout: PEER_TIMEOUT_MS,
      bodyTimeout: PEER_TIMEOUT_MS,
    });
    const body = (await res.body.json()) as { items?: Listed[] };
    return { name, items: res.statusCode === 200 && Array.isArray(body.items) ? body.items : undefined };
  } catch {
    return { name, items: undefined };
  }
}

/** This shard's `own` sandboxes and every other peer's, oldest first; `unreachable` names the silent peers. */
export async function listAcrossShards<T extends Listed>(
  own: T[],
  self: string | undefined,
  peers: Record<string, string>,
  headers: Record<string, string>,
): Promise<{ items: (T | Listed)[]; unreachable: string[] }> {
  const answers = await Promise.all(
    Object.entries(peers)
      .filter(([name]) => name !== self)
      .map(([name, url]) => listOnPeer(name, url, headers)),
  );
  const items = [...own, ...answers.flatMap((a) => a.items ?? [])].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.sandboxId.localeCompare(b.sandboxId),
  );
  return { items, unreachable: answers.filter((a) => a.items === undefined).map((a) => a.name) };
}
