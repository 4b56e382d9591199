/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/ais/fixtures.test.ts > TAP > same user id, same data: ids, IBANs, balances, transactions > user-typical fingerprint 1`] = `
Object {
  "accounts": Array [
    Object {
      "balance": "7204.90",
      "holder": "Sheri Bartell",
      "iban": "DK6824703628921513",
      "id": "acc_54f63f3095e9a20a1475",
    },
    Object {
      "balance": "189072.58",
      "holder": "Sheri Bartell",
      "iban": "DK1624707131145376",
      "id": "acc_a4ba4793c7fd525c00f0",
    },
    Object {
      "balance": "-3121.75",
      "holder": "Sheri Bartell",
      "iban": "DK3191350197224183",
      "id": "acc_249c4ebe5224190b1b81",
    },
  ],
  "count": 416,
  "digest": "5a118f73134ebb2aeadee0e2a8ccf2060e3cc9d45ed807556fc03357a3bec1dd",
}
`
