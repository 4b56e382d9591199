/**
 * `npm run deploy:configs`: writes the router configurations under deploy/ from
 * src/cluster/haproxy.ts, so the shipped files and `obsim cluster` route alike
 * (test/cluster/deploy.test.ts checks they are current and that HAProxy accepts them).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deployConfigs } from '../src/cluster/deploy.js';

const root = fileURLToPath(new URL('..', import.meta.url));
for (const [file, text] of Object.entries(deployConfigs())) writeFileSync(`${root}/${file}`, text);
console.log(`written: ${Object.keys(deployConfigs()).join(', ')}`);
