/** Inputs of the pure domain tests: the test instant and the default settings of each environment. */
import { defaultConfig } from '../../src/config.js';
import { lifecycleSettings } from '../../src/domain/settings.js';
import { T0 } from './app.js';

export const NOW = Date.parse(T0);
/** The defaults users get: settle 5 s, approval 30 s, payment expiry 30 min. */
export const SANDBOX = lifecycleSettings({ ...defaultConfig(), environment: 'sandbox' });
export const PRODUCTION = lifecycleSettings({ ...defaultConfig(), environment: 'production' });
