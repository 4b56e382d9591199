// The layer rules of docs/architecture.md ("The layers, by rule"), checked by `npm run lint`
// (depcruise) and so by `npm test`. A change that breaks one fails with the rule's name.
// test/architecture/layers.test.ts checks that the rules below stay in this file.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere, type-only imports included: split the shared part into a module both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'src/domain holds the rules and owns the entity types: it imports only other domain modules and libraries, never the store, the engine, HTTP, config or the schemas (which take their enums from the domain).',
      from: { path: '^src/domain/' },
      to: { path: '^(src|schemas|fixtures|test|bench|scripts)/', pathNot: '^src/domain/' },
    },
    {
      name: 'store-below-engine',
      severity: 'error',
      comment:
        'src/store is SQL and nothing above it: it may use the domain (types, ids), the fixtures it seeds from and the clock, never the engine, routes, plugins, webhooks, journal, auth, CLI or config.',
      from: { path: '^src/store/' },
      to: { path: '^(src|schemas|test|bench|scripts)/', pathNot: '^src/(store|domain)/|^src/(clock|lazy)\\.ts$' },
    },
    {
      name: 'sql-only-in-store',
      severity: 'error',
      comment: 'Every SQL statement lives in src/store; only the store (and the plugin that opens it) touches better-sqlite3.',
      from: { pathNot: '^src/store/|^src/plugins/store\\.ts$|^(test|bench|scripts)/' },
      to: { path: '^node_modules/better-sqlite3/' },
    },
    {
      name: 'engine-below-http',
      severity: 'error',
      comment: 'src/engine runs the worlds and their timers; it knows nothing of HTTP, plugins, the journal, webhooks delivery or the CLI.',
      from: { path: '^src/engine/' },
      to: { path: '^src/(routes|plugins|journal|webhooks|cli|scenarios|console)/|^src/(app|server|cli|index)\\.ts$' },
    },
    {
      name: 'mcp-not-cli',
      severity: 'error',
      comment:
        'The MCP server and the CLI are two adapters over the same core (the scenario runner, its transport and triggers, the client): neither speaks through the other, so no CLI wording or CLI HTTP client reaches MCP.',
      from: { path: '^src/mcp/' },
      to: { path: '^src/cli(/|\\.ts$)' },
    },
    {
      name: 'schemas-from-domain',
      severity: 'error',
      comment: 'schemas/ are JSON Schemas whose enums come from the domain; they import nothing else of obsim.',
      from: { path: '^schemas/' },
      to: { path: '^(src|fixtures|test|bench|scripts)/', pathNot: '^src/domain/' },
    },
    {
      name: 'fixtures-are-data',
      severity: 'error',
      comment: 'fixtures/ generate bank data deterministically; they use only the domain (IBANs) and the lazy loader.',
      from: { path: '^fixtures/' },
      to: { path: '^(src|schemas|test|bench|scripts)/', pathNot: '^src/domain/|^src/lazy\\.ts$' },
    },
    {
      name: 'routes-not-from-below',
      severity: 'error',
      comment: 'Only the app wires the routes: nothing in the domain, store, engine, webhooks, journal or auth imports a route.',
      from: { path: '^src/(domain|store|engine|webhooks|journal|auth|plugins)/' },
      to: { path: '^src/routes/' },
    },
    {
      name: 'http-below-processes',
      severity: 'error',
      comment:
        'src/cluster starts and supervises processes (the shards, HAProxy) for the CLI: the server that answers HTTP (routes, plugins, the engine below them) never imports it; what a shard asks of its peers is a plugin (src/plugins/shard-peers.ts).',
      from: { path: '^src/(routes|plugins|engine|store|domain|webhooks|journal|auth)/|^src/app\\.ts$' },
      to: { path: '^src/cluster/' },
    },
    {
      name: 'client-is-standalone',
      severity: 'error',
      comment: 'obsim/client and obsim/testcontainers are published entry points: they must not pull in the server.',
      from: { path: '^src/(client/|testcontainers\\.ts$)' },
      to: { path: '^(src|schemas|fixtures)/', pathNot: '^src/(client/|domain/)' },
    },
    {
      name: 'compilers-below-plugins',
      severity: 'error',
      comment:
        "The request validators and answer serializers (src/compilers) are shared mechanisms: the base's routes (through the Fastify options and plugins) and the contract registry (each version's document) both import them downward. Neither src/compilers nor src/contracts imports a plugin, a route, the CLI or the app.",
      from: { path: '^src/(compilers|contracts)/' },
      to: { path: '^src/(plugins|routes|cli)/|^src/(app|server|cli)\\.ts$' },
    },
    {
      name: 'product-not-from-tests',
      severity: 'error',
      comment: 'The product never imports tests, benchmarks or scripts.',
      from: { path: '^(src|schemas|fixtures)/' },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // type-only imports count: a cycle through types is still a cycle for the next reader
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules|coverage|tmp)/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
