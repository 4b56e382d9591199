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

process.on('message', (job) => {
  run(job).then(
    (summary) => process.send({ id: job.id, summary }),
    (err) => process.send({ id: job.id, error: String(err?.stack ?? err) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
