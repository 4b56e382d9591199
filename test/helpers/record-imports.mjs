// Loaded with --import (test/telemetry/lazy.test.ts): records every module URL the process
// resolves, one per line, into OBSIM_TEST_IMPORTS_FILE (the hooks run on Node's loader thread).
import { register } from 'node:module';

register('./record-imports-hooks.mjs', import.meta.url);
