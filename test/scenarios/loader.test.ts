import t, { type Test } from 'tap';
import { join } from 'node:path';
import {
  expandPaths,
  findShippedScenario,
  loadScenarioFile,
  ScenarioLoadError,
  shippedScenarioNames,
  validateScenario,
} from '../../src/scenarios/loader.js';

/** Load `text` written to a temp file and answer the ScenarioLoadError it must raise. */
function loadError(t: Test, text: string, name = 'bad.yaml'): ScenarioLoadError {
  const dir = t.testdir({ [name]: text });
  const file = join(dir, name);
  try {
    loadScenarioFile(file);
  } catch (err) {
    if (err instanceof ScenarioLoadError) {
      t.equal(err.file, file, 'names the file');
      t.ok(err.message.startsWith(file), 'message starts with the file');
      return err;
    }
    throw err;
  }
  throw new Error('expected a ScenarioLoadError');
}

const ok = `name: fine
steps:
  - request: { method: GET, path: /healthz, auth: none }
`;

t.test('a good file loads', async (t) => {
  const dir = t.testdir({
    'fine.yaml': ok,
    'fine2.json': JSON.stringify({ name: 'fine2', steps: [{ wait: 1 }] }),
    'notes.txt': 'x',
    'scenario.schema.json': '{}',
  });
  const s = loadScenarioFile(join(dir, 'fine.yaml'));
  t.equal(s.name, 'fine');
  t.equal(s.steps.length, 1);
  t.same(
    expandPaths([dir]).map((f) => f.slice(dir.length + 1)),
    ['fine.yaml', 'fine2.json'],
    'a folder expands to its scenario files, sorted, schema excluded',
  );
});

t.test('wrong step kind: file, step number and the kinds that exist', async (t) => {
  const err = loadError(t, `${ok}  - sleep: 5\n`);
  t.equal(err.step, 2);
  t.match(
    err.reason,
    /unknown step kind "sleep" \(expected one of: request, control, advanceClock, registerWebhook, expectWebhook, expectNoWebhook, expectRequest, expectNoRequest, expectReport, faults, bank, wait, set, include\)/,
  );
  t.match(err.message, /bad\.yaml: step 2: unknown step kind "sleep"/);
});

t.test('missing field inside a step', async (t) => {
  const err = loadError(t, `name: x\nsteps:\n  - wait: 1\n  - request: { method: POST }\n`);
  t.equal(err.step, 2);
  t.equal(err.reason, 'request: missing required field "path"');
  const nested = loadError(t, `name: x\nsteps:\n  - expectWebhook: { within: 5s }\n`);
  t.equal(nested.reason, 'expectWebhook: missing required field "event"');
});

t.test('wrong values and unknown fields', async (t) => {
  t.match(loadError(t, `name: x\nsteps:\n  - request: { method: FETCH, path: / }\n`).reason, /"method" must be one of: GET, POST/);
  t.match(
    loadError(t, `name: x\nsteps:\n  - request: { method: GET, path: /, expect: { stauts: 200 } }\n`).reason,
    /unknown field "expect.stauts"/,
  );
  t.match(loadError(t, `name: x\nsteps:\n  - advanceClock: soon\n`).reason, /advanceClock: .*wrong shape|advanceClock: .*must match/);
  t.match(loadError(t, `name: x\nsteps:\n  - wait: 60000\n`).reason, /wait:/);
  t.match(
    loadError(t, `name: x\nsteps:\n  - request: { method: GET, path: /, body: {}, rawBody: "x" }\n`).reason,
    /one of "body", "rawBody" or "form", not several/,
  );
});

t.test('a step with two kinds, none, or expect beside the kind', async (t) => {
  t.match(loadError(t, `name: x\nsteps:\n  - { wait: 1, set: { a: 1 } }\n`).reason, /exactly one kind, this one has wait and set/);
  t.match(loadError(t, `name: x\nsteps:\n  - { name: lonely }\n`).reason, /the step has no kind/);
  const err = loadError(t, `name: x\nsteps:\n  - control: { merchant: 1, action: approve }\n    expect: { status: 200 }\n`);
  t.match(err.reason, /unknown step kind "expect".*"expect" belongs inside the control step/);
  t.match(loadError(t, `name: x\nsteps:\n  - 42\n`).reason, /a step must be an object/);
});

t.test('control steps: one target and an action valid for it', async (t) => {
  t.match(
    loadError(t, `name: x\nsteps:\n  - control: { action: approve }\n`).reason,
    /exactly one of "merchant", "payment", "consent", "delivery" or "reset"/,
  );
  t.match(loadError(t, `name: x\nsteps:\n  - control: { merchant: 1, payment: 2, action: approve }\n`).reason, /exactly one of/);
  t.match(
    loadError(t, `name: x\nsteps:\n  - control: { payment: 1, action: deactivate }\n`).reason,
    /"deactivate" is not an action on a payment \(expected one of: approve, complete, fail, abandon, expire\)/,
  );
  t.match(
    loadError(t, `name: x\nsteps:\n  - control: { consent: abc }\n`).reason,
    /missing required field "action" \(for consent: authorize, deny, revoke, expire\)/,
  );
  t.match(loadError(t, `name: x\nsteps:\n  - control: { reset: true, action: approve }\n`).reason, /"reset" takes no action/);
});

t.test('top-level problems', async (t) => {
  t.match(loadError(t, `steps:\n  - wait: 1\n`).reason, /missing required field "name"/);
  t.match(loadError(t, `name: Bad Name\nsteps:\n  - wait: 1\n`).reason, /"name" must match pattern/);
  t.match(loadError(t, `name: x\nsteps: []\n`).reason, /"steps" must NOT have fewer than 1 items/);
  t.match(loadError(t, `name: x\nsteps:\n  - wait: 1\nextra: true\n`).reason, /unknown field "extra"/);
  t.match(loadError(t, `- just\n- a list\n`).reason, /a scenario must be an object/);
});

t.test('syntax errors name the line', async (t) => {
  const yaml = loadError(t, `name: x\nsteps:\n  - request: { method: GET, path: /\n`);
  t.match(yaml.reason, /not valid YAML \(line \d+, column \d+\)/);
  const dup = loadError(t, `name: x\nname: y\nsteps:\n  - wait: 1\n`);
  t.match(dup.reason, /not valid YAML.*(unique|duplicate)/i);
  const json = loadError(t, `{"name": "x", "steps": [}`, 'bad.json');
  t.match(json.reason, /not valid JSON/);
});

t.test('missing files and folders', async (t) => {
  const reasonOf = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      if (err instanceof ScenarioLoadError) return err.reason;
    }
    return '(no error)';
  };
  t.equal(
    reasonOf(() => expandPaths(['/nonexistent/x.yaml'])),
    'no such file or folder',
  );
  const empty = t.testdir({});
  t.match(
    reasonOf(() => expandPaths([empty])),
    /no \.yaml, \.yml or \.json scenario files/,
  );
  t.match(
    reasonOf(() => loadScenarioFile(join(empty, 'nope.yaml'))),
    /cannot read: ENOENT/,
  );
});

t.test('validateScenario works on parsed documents (the HTTP endpoint uses it)', async (t) => {
  t.equal(validateScenario({ name: 'a', steps: [{ set: { x: 1 } }] }, 'inline').name, 'a');
  t.throws(() => validateScenario({ name: 'a', steps: [{ request: {} }] }, 'inline'), {
    message: 'inline: step 1: request: missing required field "method"',
  });
});

t.test('shipped scenarios are found by name', async (t) => {
  t.ok(shippedScenarioNames().includes('payment-paid'));
  t.match(findShippedScenario('payment-paid'), /scenarios[/\\]payment-paid\.yaml$/);
  t.equal(findShippedScenario('../etc/passwd'), undefined);
  t.equal(findShippedScenario('nope'), undefined);
});
