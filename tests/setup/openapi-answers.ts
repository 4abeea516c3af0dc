// Issue 29 item 2: after each API test file, the answers it received are checked against the served
// OpenAPI description (tests/openapi/answers.ts); the run's totals are printed by the global teardown.
import { afterAll, expect } from 'vitest';
import { checkAnswers } from '../openapi/answers';

// Vitest reads the fixtures a hook wants from its first parameter's pattern: this hook wants none.
// eslint-disable-next-line no-empty-pattern
afterAll(async ({}, suite) => {
  const mismatches = await checkAnswers(suite.name);
  expect(mismatches, 'answers that do not match the OpenAPI description').toEqual([]);
});
