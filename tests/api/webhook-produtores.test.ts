import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { eventoXml, nfeXml } from '../../functions/fate/fixtures/builder';
import { ingerir } from '../../functions/fate/service';
import { cadastrar } from '../../functions/monitoramento/service';
import { lerEntrega } from '../../functions/webhooks/log-store';
import { sefazLoadStateMachine } from '../../infra/lib/topology';
import { cancelarPelaPastaDeEntrada } from '../../infra/local/sefaz/cancelamento';
import { localStateMachines } from '../../infra/local/state-machines';
import { configurarWebhook, novoCliente, receptor } from './webhooks';
import { consentir } from './consentimentos';

/**
 * The producers on the twin, end to end: an NF-e and its cancellation stored by the loader (UF RO)
 * go through the documents queue, the twin's WebhookProducer, the webhook queue and the dispatcher
 * to a local receiver: the monitored key's EVENTO, and the drawer's consent's IMF client's ESCR_FAT
 * then ESCR_EVENTO, the event never before its Fat-e.
 */
const twin = inject('twin');
const admin: Principal = { userId: 'prod-e2e-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'] };
let rx: Awaited<ReturnType<typeof receptor>>;

beforeAll(async () => {
  rx = await receptor();
});
afterAll(() => rx.close());

function cnpjNovo(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

async function cliente(clienteId: string, cnpj: string, tipoCliente: 'ESF' | 'IMF') {
  const at = new Date().toISOString();
  await putCliente({ clienteId, cnpj, razaoSocial: `Cliente ${clienteId}`, razaoFolded: foldText(`Cliente ${clienteId}`), tipoCliente, situacao: 'A', email: `${clienteId}@teste.local`, createdAt: at, updatedAt: at });
}


/** One cycle of the Sefaz load over RO only, as the schedule starts it. */
async function cargaRO() {
  const before = process.env.PLAC_SEFAZ_UFS;
  process.env.PLAC_SEFAZ_UFS = 'RO';
  try {
    return await localStateMachines().get(sefazLoadStateMachine.id)!.execute({ trigger: 'test' });
  } finally {
    if (before === undefined) delete process.env.PLAC_SEFAZ_UFS;
    else process.env.PLAC_SEFAZ_UFS = before;
  }
}

describe('webhook producers on the twin', () => {
  it('register a monitored key, cancel that NF-e through the simulator’s drop folder: the EVENTO delivery reaches the receiver and the log', async () => {
    const monitor = novoCliente('prod-drop');
    await cliente(monitor, cnpjNovo(), 'ESF');
    await configurarWebhook(monitor, `${rx.base}/drop`, { operacao: 'EVENTO' });
    await cargaRO();
    const nfe = nfeXml({ cUF: '11', numero: 801, emitente: cnpjNovo(), emissao: '2026-11-20T10:00:00-03:00' });
    writeFileSync(join(twin.dataDir, 'sefaz', 'RO', 'inbox', `nota-${nfe.chave}.xml`), nfe.xml);
    await cargaRO();
    await cadastrar(admin, { idCliente: monitor, chave: nfe.chave });

    await cancelarPelaPastaDeEntrada(twin.dataDir, nfe.chave);
    await cargaRO();
    const id = `0-${nfe.chave}-110111-${monitor}`;
    await vi.waitUntil(() => rx.de(id).length > 0, { timeout: 45_000, interval: 250 });
    expect(rx.de(id)[0]!.path).toBe('/drop');
    expect(JSON.parse(rx.de(id)[0]!.body)).toMatchObject({ versao: 1, tipo: 'EVENTO', operacao: 'EVENTO', chave: nfe.chave, uf: 'RO', evento: { tpEvento: '110111' } });
    await vi.waitUntil(async () => (await lerEntrega(id))?.situacao === 'ENTREGUE', { timeout: 10_000, interval: 250 });
    expect(await lerEntrega(id)).toMatchObject({ clienteId: monitor, operacao: 'EVENTO', descricao: `Cancelamento da chave ${nfe.chave}` });
  }, 90_000);

  it('a stored NF-e and its cancellation reach the monitoring client (EVENTO) and the consent’s IMF client (ESCR_FAT, then ESCR_EVENTO)', async () => {
    const monitor = novoCliente('prod-mon');
    await cliente(monitor, cnpjNovo(), 'ESF');
    await configurarWebhook(monitor, `${rx.base}/evento`, { operacao: 'EVENTO' });
    const imfCnpj = cnpjNovo();
    const imf = novoCliente('prod-imf');
    await cliente(imf, imfCnpj, 'IMF');
    await configurarWebhook(imf, `${rx.base}/fate`, { operacao: 'ESCR_FAT' });
    await configurarWebhook(imf, `${rx.base}/evento-sacador`, { operacao: 'ESCR_EVENTO' });
    const emitente = cnpjNovo();
    await consentir(emitente, [imfCnpj.slice(0, 8)], 'RO');

    const nfe = nfeXml({ cUF: '11', numero: 701, emitente });
    await cadastrar(admin, { idCliente: monitor, chave: nfe.chave });
    // The cancellation first in the batch too: the loader writes 8 at a time, so either may be produced first.
    await ingerir('RO', [
      { nsu: '21', schema: 'procNFe_v4.00.xsd', xml: nfe.xml },
      { nsu: '22', schema: 'procEventoNFe_v1.00.xsd', xml: eventoXml(nfe.chave) },
    ], { moverCursor: false });

    const ids = { evento: `0-${nfe.chave}-110111-${monitor}`, fate: `1-${nfe.chave}-${imf}`, eventoSacador: `2-${nfe.chave}-110111-${imf}` };
    await vi.waitUntil(() => Object.values(ids).every((id) => rx.de(id).length > 0), { timeout: 45_000, interval: 250 });

    const [evento] = rx.de(ids.evento);
    expect(evento!.path).toBe('/evento');
    expect(evento!.headers['x-plac-event']).toBe('EVENTO');
    expect(JSON.parse(evento!.body)).toMatchObject({ versao: 1, tipo: 'EVENTO', operacao: 'EVENTO', chave: nfe.chave, uf: 'RO', evento: { tpEvento: '110111', descricao: 'Cancelamento' } });
    const [fate] = rx.de(ids.fate);
    expect(JSON.parse(fate!.body)).toMatchObject({ versao: 1, tipo: 'FATE', operacao: 'ESCR_FAT', chave: nfe.chave, uf: 'RO', fate: { chave: nfe.chave, emitente: { cnpj: emitente } } });
    // Never the event before its Fat-e.
    expect(rx.de(ids.eventoSacador)[0]!.instante).toBeGreaterThanOrEqual(fate!.instante);
    // Nothing else for these clients.
    const nossos = rx.recebidas.filter((r) => [monitor, imf].some((c) => String(r.headers['x-plac-delivery-id']).endsWith(c)));
    expect(new Set(nossos.map((r) => r.headers['x-plac-delivery-id']))).toEqual(new Set(Object.values(ids)));
  }, 60_000);
});
