/**
 * The load generator, run as a child process of bench/run.ts (pinned to its own core with
 * taskset). It receives jobs over IPC, runs autocannon and answers with a summary.
 *
 * Latency is recorded here from autocannon's `response` events with sub-millisecond
 * precision (autocannon's own histogram has 1 ms resolution, too coarse for a local server).
 *
 * Job: { id, url, method, path, headers, body, connections, durationS, overallRate?, unique? }
 *   unique: replace every `{{n}}` in the body with a counter (distinct referenceNumbers).
 * Reply: { id, rps, total, non2xx, errors, timeouts, p50, p90, p99, max, mean, statusCodes }
 */
import autocannon from 'autocannon';
import { Agent, request as httpRequest } from 'node:http';

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

let counter = 0;

function run(job) {
  return new Promise((resolve, reject) => {
    let lat = new Float64Array(1 << 16);
    let n = 0;
    const record = (ms) => {
      if (n === lat.length) {
        const bigger = new Float64Array(lat.length * 2);
        bigger.set(lat);
        lat = bigger;
      }
      lat[n++] = ms;
    };
    const request = { method: job.method, path: job.path, headers: job.headers, body: job.body };
    if (job.unique && job.body) {
      const template = job.body;
      request.setupRequest = (req) => {
        req.body = template.replaceAll('{{n}}', String(++counter));
        return req;
      };
    }
    const instance = autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: job.durationS,
        overallRate: job.overallRate,
        requests: [request],
        timeout: 10,
        excludeErrorStats: true,
      },
      (err, result) => {
        if (err) return reject(err);
        const sorted = lat.subarray(0, n).sort();
        let sum = 0;
        for (let i = 0; i < n; i++) sum += sorted[i];
        const ok = result['2xx'];
        resolve({
          rps: ok / (result.duration || job.durationS),
          total: ok,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          statusCodes: result.statusCodeStats,
          p50: percentile(sorted, 50),
          p90: percentile(sorted, 90),
          p99: percentile(sorted, 99),
          max: n ? sorted[n - 1] : null,
          mean: n ? sum / n : null,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) record(responseTime);
    });
  });
}

/**
 * Open-loop probe (job.probeRate set): one GET every 1000/probeRate ms whatever the answers do,
 * over keep-alive connections; latency of each answer. autocannon's overallRate sends each
 * second's quota in a burst, so it measures its own queueing rather than the server's.
 */
async function probe(job) {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const target = new URL(job.url);
  const lat = [];
  let non2xx = 0;
  let errors = 0;
  const inflight = [];
  const interval = 1000 / job.probeRate;
  const total = Math.round(job.probeRate * job.durationS);
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = t0 + i * interval - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(
      new Promise((resolve) => {
        const started = performance.now();
        const req = httpRequest(
          { host: target.hostname, port: target.port, path: job.path, method: 'GET', headers: job.headers, agent },
          (res) => {
            res.resume();
            res.once('end', () => {
              if (res.statusCode < 300) lat.push(performance.now() - started);
              else non2xx++;
              resolve();
            });
          },
        );
        req.once('error', () => {
          errors++;
          resolve();
        });
        req.end();
      }),
    );
  }
  await Promise.all(inflight);
  agent.destroy();
  const sorted = Float64Array.from(lat).sort();
  let sum = 0;
  for (const x of sorted) sum += x;
  return {
    rps: sorted.length / job.durationS,
    total: sorted.length,
    non2xx,
    errors,
    timeouts: 0,
    statusCodes: {},
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : null,
    mean: sorted.length ? sum / sorted.length : null,
  };
}

process.on('message', (job) => {
  (job.probeRate ? probe(job) : run(job)).then(
    (summary) => process.send({ id: job.id, summary }),
    (err) => process.send({ id: job.id, error: String(err?.stack ?? err) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
