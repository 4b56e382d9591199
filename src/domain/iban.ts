/**
 * IBAN checks (ISO 13616): shape, per-country length for the countries obsim knows, and the
 * mod-97 checksum. Used by the fast-track validation and by fixtures that generate accounts.
 *
 * Input may be written in the print form (groups of four separated by spaces, any case);
 * `normalizeIban` turns it into the electronic form obsim stores (no spaces, upper case).
 */

/** Total IBAN length per country (SEPA countries and neighbours). Others: 15–34 characters. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

/** Print form or electronic form -> electronic form (spaces removed, upper case). */
export function normalizeIban(input: string): string {
  return input.replace(/ /g, '').toUpperCase();
}

/** mod-97 of the rearranged IBAN (country code and check digits moved to the end, letters as 10–35). */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const digits = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const d of digits) rest = (rest * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rest;
}

/** Why `input` is not a valid IBAN, or null when it is. */
export function ibanProblem(input: string): string | null {
  const iban = normalizeIban(input);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) {
    return 'must be an IBAN: two letters, two check digits, then letters and digits (spaces allowed between groups)';
  }
  const expected = IBAN_LENGTHS[iban.slice(0, 2)];
  if (expected !== undefined && iban.length !== expected) {
    return `must have ${expected} characters for country ${iban.slice(0, 2)} (got ${iban.length})`;
  }
  if (expected === undefined && (iban.length < 15 || iban.length > 34)) return 'must have 15 to 34 characters';
  if (ibanMod97(iban) !== 1) return 'has a wrong checksum (ISO 13616 mod-97 check failed)';
  return null;
}

export function ibanValid(input: string): boolean {
  return ibanProblem(input) === null;
}

/** Build a valid IBAN from a country code and a BBAN (computes the check digits). */
export function makeIban(countryCode: string, bban: string): string {
  const base = `${countryCode.toUpperCase()}00${bban.toUpperCase()}`;
  const check = 98 - ibanMod97(base);
  return `${countryCode.toUpperCase()}${String(check).padStart(2, '0')}${bban.toUpperCase()}`;
}
