// Each test file talks to the global twin: the same environment the twin gives its handlers.
import { inject } from 'vitest';

Object.assign(process.env, inject('twin').env);

// A test that writes invoices through billing's store is an entry like the Lambdas that do: it wires
// the repasse's shares of the payment rows (functions/rateio/ligacao.ts).
import { ligarRepartidor } from '../../functions/rateio/ligacao';

ligarRepartidor();
