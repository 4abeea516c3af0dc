// Each test file talks to the global twin: the same environment the twin gives its handlers.
import { inject } from 'vitest';

Object.assign(process.env, inject('twin').env);
