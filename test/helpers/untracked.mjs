// Loaded first into every test process of `npm test` and the other test scripts (NODE_OPTIONS, set
// by scripts/tap.mjs), before tap's process tracker. tap loads that tracker (@tapjs/processinfo)
// into each test process and, through NODE_OPTIONS, into every Node process a test starts (obsim,
// npm, npx, Vitest, the linters): for coverage and `tap --changed` it records each module a
// process loads, reading its source again, counting its lines and parsing its source map. That
// cost 0.7 s of CPU in every process that loads the app (2.2 s instead of 1.5) and 0.55 s in every
// `obsim` command (1.7 s instead of 1.15), in a suite of over 200 test processes and hundreds of
// such commands. These scripts collect no coverage and never use --changed, so when tap tells a
// test process that coverage is off, the tracker's exclusion is set to match every file: it
// records nothing, here and in the processes this one starts (they inherit the setting).
// `npm run coverage` runs tap itself, with coverage on: there this file does nothing.
if (process.env._TAPJS_PROCESSINFO_COVERAGE_ === '0') process.env._TAPJS_PROCESSINFO_EXCLUDE_ = '/./';
