import { randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { describe, expect, it } from 'vitest';
import { webhookParaEntrega } from '../../functions/clientes/service';
import { findCliente } from '../../functions/clientes/store';
import { call } from './http';
import { bearer, tokenFor } from './session';

/**
 * The client's webhook signing secret (docs/webhooks.md): made and shown once, stored encrypted,
 * replaced on rotation, read only by the client itself and the administrator, and handed to the
 * deliveries of every configuration of the client.
 */
const imf: Principal = { userId: 'segredo-imf', name: 'Cliente IMF', tipo: 'C', roles: ['cliente'], clienteId: 'demo-imf' };
const outro: Principal = { userId: 'segredo-esf', name: 'Cliente ESF', tipo: 'C', roles: ['cliente'], clienteId: 'demo-esf' };

describe('webhook signing secret', () => {
  it('is shown once, rotates, reaches the deliveries, and is the client’s own', async () => {
    const cnpj = (await findCliente('demo-imf'))!.cnpj;
    const h = { ...bearer(await tokenFor(imf)), 'content-type': 'application/json' };
    const criado = await call(`/api/v1/webhook-cliente/${cnpj}/segredo`, { method: 'POST', headers: h });
    expect(criado.status).toBe(201);
    const { segredo } = criado.body as { segredo: string };
    expect(segredo).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    // Afterwards only when and by whom, never the secret.
    const info = await call(`/api/v1/webhook-cliente/${cnpj}/segredo`, { headers: h });
    expect(info.body).toEqual({ criadoEm: expect.any(String), criadoPor: 'Cliente IMF' });
    expect(JSON.stringify(info.body)).not.toContain(segredo);

    // A configuration's deliveries carry it (decrypted for the dispatcher only).
    await call('/api/v1/webhook-cliente', {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ operacao: 'EVENTO', urlWebHook: `https://recebedor-${randomUUID()}.example.com/hook`, clienteId: 'demo-imf', clienteCnpj: cnpj }),
    });
    expect((await webhookParaEntrega('demo-imf', 0))?.signingSecret).toBe(segredo);

    // Rotation: the new one replaces the old at once.
    const novo = ((await call(`/api/v1/webhook-cliente/${cnpj}/segredo`, { method: 'POST', headers: h })).body as { segredo: string }).segredo;
    expect(novo).not.toBe(segredo);
    expect((await webhookParaEntrega('demo-imf', 0))?.signingSecret).toBe(novo);

    // Another client's user can neither make nor read it.
    const alheio = bearer(await tokenFor(outro));
    expect((await call(`/api/v1/webhook-cliente/${cnpj}/segredo`, { method: 'POST', headers: alheio })).status).toBe(403);
    expect((await call(`/api/v1/webhook-cliente/${cnpj}/segredo`, { headers: alheio })).status).toBe(403);
  });
});
