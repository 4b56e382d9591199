/**
 * The scripts obsim writes into a collection, in each tool's own script API: Postman's `pm`
 * (Newman runs it) and Bruno's `bru`/`req`/`res` (its CLI runs it). The same checks and the same
 * steps in both, from ./plan.ts; only the words differ. Scripts are plain ES5-style JavaScript so
 * both sandboxes (Postman's, Bruno's QuickJS "safe" mode) run them as they are.
 */
import { pointerTokens } from '../domain/contract-switches.js';
import { CLOCK_VARIABLES, DEFAULT_USER, TOKEN_PERMISSIONS, type Check, type Prepare } from './plan.js';

export type Dialect = 'postman' | 'bruno';

interface Words {
  test: string;
  expect: string;
  status: string;
  body: string;
  get: (name: string) => string;
  set: (name: string, value: string) => string;
}

const WORDS: Record<Dialect, Words> = {
  postman: {
    test: 'pm.test',
    expect: 'pm.expect',
    status: 'pm.response.code',
    body: '(function () { try { return pm.response.json(); } catch (e) { return undefined; } })()',
    get: (name) => `pm.variables.get(${JSON.stringify(name)})`,
    set: (name, value) => `pm.collectionVariables.set(${JSON.stringify(name)}, ${value})`,
  },
  bruno: {
    test: 'test',
    expect: 'expect',
    status: 'res.getStatus()',
    body: 'res.getBody()',
    get: (name) => `bru.getVar(${JSON.stringify(name)}) || bru.getEnvVar(${JSON.stringify(name)})`,
    set: (name, value) => `bru.setVar(${JSON.stringify(name)}, ${value})`,
  },
};

const q = JSON.stringify;
const path = (pointer: string) => q(pointerTokens(pointer));
const AT = 'function at(v, path) { return path.reduce(function (o, k) { return o == null ? undefined : o[k]; }, v); }';

function checkLines(w: Words, check: Check): string[] {
  const t = (name: string, body: string) => `${w.test}(${q(name)}, function () { ${body} });`;
  switch (check.kind) {
    case 'status':
      return [t(`answers ${check.codes.join(' or ')}`, `${w.expect}(${w.status}).to.be.oneOf(${q(check.codes)});`)];
    case 'required':
      return [
        t(
          `the answer has every field ${check.version} requires`,
          `${q(check.fields)}.forEach(function (f) { ${w.expect}(body, f).to.have.property(f); });`,
        ),
      ];
    case 'present':
      return [t(`${check.version} adds ${check.field}: present`, `${w.expect}(body).to.have.property(${q(check.field)});`)];
    case 'absent':
      return [t(`${check.version} removes ${check.field}: absent`, `${w.expect}(body).to.not.have.property(${q(check.field)});`)];
    case 'equals':
      return [
        t(`${check.pointer.slice(1)} is ${check.value}`, `${w.expect}(at(body, ${path(check.pointer)})).to.equal(${q(check.value)});`),
      ];
    case 'sameAs':
      return [
        t(
          `${check.pointer.slice(1)} is the one chained in {{${check.variable}}}`,
          `${w.expect}(String(at(body, ${path(check.pointer)}))).to.equal(String(${w.get(check.variable)}));`,
        ),
      ];
    case 'capture':
      return [
        t(
          `{{${check.variable}}} from ${check.pointer}`,
          `var v = at(body, ${path(check.pointer)}); ${w.expect}(v, ${q(check.pointer)}).to.not.equal(undefined); ${w.set(check.variable, 'String(v)')};`,
        ),
      ];
  }
}

/** The test script of a request: its checks, in order (captures last, once the answer is judged). */
export function testScript(dialect: Dialect, checks: readonly Check[]): string {
  const w = WORDS[dialect];
  const ordered = [...checks.filter((c) => c.kind !== 'capture'), ...checks.filter((c) => c.kind === 'capture')];
  return [`// obsim: checks from the served document, and the ids chained to later requests`, AT, `var body = ${w.body};`]
    .concat(ordered.flatMap((c) => checkLines(w, c)))
    .join('\n');
}

/** The date variables from the sandbox clock (GET /_sandbox/clock with the partner headers). */
const clockAssignments = (set: (name: string, value: string) => string) =>
  Object.entries(CLOCK_VARIABLES)
    .map(([name, days]) => `${set(name, `new Date(now + ${days} * 86400000).toISOString()`)};`)
    .join(' ');

/** The pre-request script of a request that prepares something (its dates). */
export function prepareScript(dialect: Dialect, prepare: readonly Prepare[]): string | undefined {
  if (!prepare.includes('clock')) return undefined;
  if (dialect === 'postman')
    return [
      '// obsim: the dates this request sends come from the sandbox clock (GET /_sandbox/clock), not from this computer',
      'pm.sendRequest({',
      "  url: pm.variables.replaceIn('{{baseUrl}}/_sandbox/clock'),",
      "  method: 'GET',",
      "  header: { 'X-Partner-Client-Id': pm.variables.get('partnerClientId'), 'X-Partner-Client-Secret': pm.variables.get('partnerClientSecret') }",
      '}, function (err, res) {',
      '  if (err) throw err;',
      '  var now = Date.parse(res.json().now);',
      `  ${clockAssignments(WORDS.postman.set)}`,
      '});',
    ].join('\n');
  return [
    '// obsim: the dates this request sends come from the sandbox clock (GET /_sandbox/clock), not from this computer',
    'const clock = await bru.sendRequest({',
    "  url: bru.interpolate('{{baseUrl}}/_sandbox/clock'),",
    "  method: 'GET',",
    "  headers: { 'X-Partner-Client-Id': bru.interpolate('{{partnerClientId}}'), 'X-Partner-Client-Secret': bru.interpolate('{{partnerClientSecret}}') }",
    '});',
    'var now = Date.parse(clock.data.now);',
    clockAssignments(WORDS.bruno.set),
  ].join('\n');
}

/**
 * The collection's pre-request script: an AIS request (bearer auth) without a token fetches one
 * with generate-token for {{userId}} and {{merchantId}}, every AIS permission, and keeps it in
 * {{bearerToken}} (a token in the environment wins).
 */
export function tokenScript(dialect: Dialect): string {
  const body = (get: (n: string) => string) =>
    `JSON.stringify({ userId: ${get('userId')} || ${q(DEFAULT_USER)}, merchantId: Number(${get('merchantId')}), permissions: ${q(TOKEN_PERMISSIONS)} })`;
  if (dialect === 'postman')
    return [
      '// obsim: a bearer token from POST /v1/auth/generate-token when the environment has none',
      "if (pm.request.auth && pm.request.auth.type === 'bearer' && !pm.variables.get('bearerToken')) {",
      '  pm.sendRequest({',
      "    url: pm.variables.replaceIn('{{baseUrl}}/v1/auth/generate-token'),",
      "    method: 'POST',",
      '    header: {',
      "      'Content-Type': 'application/json',",
      "      'X-Partner-Client-Id': pm.variables.get('partnerClientId'),",
      "      'X-Partner-Client-Secret': pm.variables.get('partnerClientSecret'),",
      "      'Obsim-Contract-Version': pm.variables.get('contractVersion')",
      '    },',
      `    body: { mode: 'raw', raw: ${body((n) => `pm.variables.get(${q(n)})`)} }`,
      '  }, function (err, res) {',
      '    if (err) throw err;',
      "    pm.collectionVariables.set('bearerToken', res.json().token);",
      '  });',
      '}',
    ].join('\n');
  const get = (n: string) => `bru.interpolate('{{${n}}}')`;
  return [
    '// obsim: a bearer token from POST /v1/auth/generate-token when the environment has none',
    "if (req.getAuthMode() === 'bearer' && !bru.getVar('bearerToken') && !bru.getEnvVar('bearerToken')) {",
    '  const issued = await bru.sendRequest({',
    `    url: ${get('baseUrl')} + '/v1/auth/generate-token',`,
    "    method: 'POST',",
    '    headers: {',
    "      'Content-Type': 'application/json',",
    `      'X-Partner-Client-Id': ${get('partnerClientId')},`,
    `      'X-Partner-Client-Secret': ${get('partnerClientSecret')},`,
    `      'Obsim-Contract-Version': ${get('contractVersion')}`,
    '    },',
    `    data: ${body(get)}`,
    '  });',
    "  bru.setVar('bearerToken', issued.data.token);",
    '}',
  ].join('\n');
}
