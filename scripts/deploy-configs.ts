/**
 * `npm run deploy:configs`: writes the router and monitoring configurations under deploy/ from
 * src/cluster/haproxy.ts and src/cluster/monitoring.ts, so the shipped files and `obsim cluster`
 * route and are watched alike
 * (test/cluster/deploy.test.ts checks they are current and that HAProxy accepts them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deployConfigs } from '../src/cluster/deploy.js';

const root = fileURLToPath(new URL('..', import.meta.url));
for (const [file, text] of Object.entries(deployConfigs())) {
  mkdirSync(dirname(`${root}/${file}`), { recursive: true });
  writeFileSync(`${root}/${file}`, text);
}
console.log(`written: ${Object.keys(deployConfigs()).join(', ')}`);
