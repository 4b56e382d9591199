/**
 * The Overlay applier against the OpenAPI Overlay Specification 1.0.0's own text: each example of
 * its "Examples" section applied to a small document, the expected result written here from the
 * standard's sentences (not from the applier), with the sentence quoted beside it.
 */
import t from 'tap';
import { applyOverlay, OverlayError } from '../../src/contracts/overlay.js';

const doc = () => ({
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/': { get: { summary: 'old root', parameters: [{ name: 'dummy', in: 'query' }] } },
    '/pets': {
      get: {
        summary: 'old pets',
        parameters: [
          { name: 'filter', in: 'query' },
          { name: 'filter', in: 'header' },
        ],
      },
    },
    '/foo': { get: { description: 'old foo' } },
    '/bar': { get: { description: 'old bar' } },
    '/items': { get: { 'x-oai-traits': ['paged'], responses: { 200: { description: 'OK' } } } },
  },
});

t.test('Structured Overlay Example: one update at the root mirrors the document and is merged into it', async (t) => {
  const out = applyOverlay(doc(), {
    actions: [
      {
        target: '$',
        update: {
          info: { 'x-overlay-applied': 'structured-overlay' },
          paths: {
            '/': { summary: 'The root resource', get: { summary: 'Retrieve the root resource', 'x-rate-limit': 100 } },
            '/pets': { get: { summary: 'Retrieve a list of pets', 'x-rate-limit': 100 } },
          },
        },
      },
    ],
  });
  // "the properties in the update object are recursively merged with the properties in the target object with the same names"
  t.same(out.info, { title: 'Pets', version: '1', 'x-overlay-applied': 'structured-overlay' });
  t.equal(out.paths['/'].get.summary, 'Retrieve the root resource');
  t.same(out.paths['/'].get.parameters, [{ name: 'dummy', in: 'query' }], 'what the update does not name stays');
  t.equal((out.paths['/'] as Record<string, unknown>).summary, 'The root resource', 'new properties are added to the target object');
  t.equal((out.paths['/pets'].get as Record<string, unknown>)['x-rate-limit'], 100);
});

t.test('Targeted Overlay Example: each action updates the nodes its target selects, in order', async (t) => {
  const out = applyOverlay(doc(), {
    actions: [
      { target: "$.paths['/foo'].get", update: { description: 'This is the new description' } },
      { target: "$.paths['/bar'].get", update: { description: 'This is the updated description' } },
      { target: "$.paths['/bar']", update: { post: { description: 'This is an updated description of a child object', 'x-safe': false } } },
    ],
  });
  t.equal(out.paths['/foo'].get.description, 'This is the new description');
  t.equal(out.paths['/bar'].get.description, 'This is the updated description');
  t.same((out.paths['/bar'] as Record<string, unknown>).post, {
    description: 'This is an updated description of a child object',
    'x-safe': false,
  });
});

t.test('Wildcard Overlay Example: a wildcard and an RFC 9535 filter select several nodes', async (t) => {
  const out = applyOverlay(doc(), {
    actions: [
      { target: '$.paths.*.get', update: { 'x-safe': true } },
      {
        target: "$.paths.*.get.parameters[?@.name=='filter' && @.in=='query']",
        update: { schema: { $ref: '/components/schemas/filterSchema' } },
      },
    ],
  });
  for (const path of Object.keys(out.paths)) t.equal((out.paths[path as '/'].get as Record<string, unknown>)['x-safe'], true, path);
  t.same(out.paths['/pets'].get.parameters, [
    { name: 'filter', in: 'query', schema: { $ref: '/components/schemas/filterSchema' } },
    { name: 'filter', in: 'header' },
  ]);
});

t.test('Array Modification Example: an update of an array appends the entry; remove deletes what the filter selects', async (t) => {
  // "If the target selects an array, the value of this field MUST be an entry to append to the array."
  const added = applyOverlay(doc(), { actions: [{ target: '$.paths.*.get.parameters', update: { name: 'newParam', in: 'query' } }] });
  t.same(added.paths['/'].get.parameters, [
    { name: 'dummy', in: 'query' },
    { name: 'newParam', in: 'query' },
  ]);
  t.equal(added.paths['/pets'].get.parameters.length, 3);
  // "the target object or array MUST be removed from the map or array it is contained in"
  const removed = applyOverlay(doc(), { actions: [{ target: "$.paths.*.get.parameters[?@.name == 'dummy']", remove: true }] });
  t.same(removed.paths['/'].get.parameters, []);
  t.equal(removed.paths['/pets'].get.parameters.length, 2, 'other items stay');
  const both = applyOverlay(doc(), { actions: [{ target: "$.paths['/pets'].get.parameters[?@.name == 'filter']", remove: true }] });
  t.same(both.paths['/pets'].get.parameters, [], 'two items of one array, both removed');
});

t.test('Traits Example: as printed, its target is not RFC 9535 JSONPath; the same selection written in it works', async (t) => {
  // `@.x-oai-traits` is not a member-name shorthand in RFC 9535 (a shorthand name has no "-"),
  // which the standard names as its JSONPath: the printed target is refused, pointing at the action
  try {
    applyOverlay(doc(), { actions: [{ target: '$.paths.*.get[?@.x-oai-traits.paged]', update: {} }] });
    t.fail('the printed target was taken');
  } catch (err) {
    t.ok(err instanceof OverlayError);
    t.match(err, { action: 0, property: 'target' });
  }
  const out = applyOverlay(doc(), {
    actions: [
      {
        target: "$.paths.*[?@['x-oai-traits']]",
        update: {
          parameters: [
            { name: 'top', in: 'query' },
            { name: 'skip', in: 'query' },
          ],
        },
      },
    ],
  });
  t.same((out.paths['/items'].get as Record<string, unknown>).parameters, [
    { name: 'top', in: 'query' },
    { name: 'skip', in: 'query' },
  ]);
  t.same(out.paths['/foo'].get, { description: 'old foo' }, 'an operation without the trait is left alone');
});

t.test('remove defaults to false; a target selecting nothing, and a primitive target, are refused with the action named', async (t) => {
  const kept = applyOverlay(doc(), { actions: [{ target: "$.paths['/foo'].get", remove: false, update: { summary: 's' } }] });
  t.same(kept.paths['/foo'].get, { description: 'old foo', summary: 's' }, '`remove: false` removes nothing');
  const thrown = (actions: Parameters<typeof applyOverlay>[1]['actions']) => {
    try {
      applyOverlay(doc(), { actions });
    } catch (err) {
      return err as OverlayError;
    }
    return undefined;
  };
  const nothing = thrown([
    { target: '$.info', update: { title: 'x' } },
    { target: '$.paths.nope', update: { a: 1 } },
  ]);
  t.ok(nothing instanceof OverlayError);
  t.equal(nothing?.action, 1);
  t.equal(nothing?.property, 'target');
  const primitive = thrown([{ target: '$.info.title', update: { a: 1 } }]);
  t.match(primitive?.message, /primitive/);
  const bad = thrown([{ target: '$..[', update: {} }]);
  t.match(bad?.message, /JSONPath/);
  t.same(doc().info, { title: 'Pets', version: '1' }, 'the document given is never changed');
});
