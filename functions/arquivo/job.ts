import { chaveDaParte, chaveDoManifesto, prefixoDaParticao, TABELAS_ARQUIVO, TIPOS_ARQUIVO, type TipoArquivo } from '@plac/shared/arquivo';
import { monthOf, previousMonth } from '@plac/shared/domain';
import * as z from 'zod';
import { todosClientes } from '../clientes';
import * as faturas from '../faturamento';
import * as arquivo from '../platform/arquivo';
import { FONTES } from './fontes';
import { parquetDe } from './parquet';
import * as jobs from './job-store';

/**
 * The archive job (docs/arquivo.md, issue 41): for each client and a month, the request log, the
 * charged webhook deliveries, the prepaid debits and the invoice's lines written to the archive bucket
 * as Parquet parts, then the client's manifest (each part's rows and SHA-256), then — only when every
 * table's rows equal the count kept apart from them (fontes.ts) — the invoice pointed at it. Run by the
 * Arquivo state machine (infra/lib/constructs/arquivo.ts): Iniciar, then Passo until `concluido`.
 *
 * A step works for at most PLAC_ARQUIVO_ORCAMENTO_MS, a part (at most LINHAS_POR_PARTE rows) at a time,
 * clients in id order; what the next step needs is the job's item (job-store.ts) and the client's
 * partial manifest in the bucket. A step run again reads the same item and writes the same parts (the
 * same rows give the same bytes, platform/arquivo.ts) and moves the job only if no other run did.
 *
 * Evidence is never rewritten with less: a client whose month is archived already (its manifest
 * `completo`) is only checked when its month is run again — each part read again must have the
 * archived part's checksum, or the client is reported divergent and its files are left as they are
 * (the request log expires from the table after 400 days; the archive is then what holds it).
 */

/** Rows per Parquet part: about 2–3 MB of the request log, a few seconds to read and write. */
export const linhasPorParte = () => Math.max(Number(process.env.PLAC_ARQUIVO_LINHAS_POR_PARTE ?? 50_000), 1);
/** A page of the table read at a time (a DynamoDB Query page stays below its 1 MB). */
const LINHAS_POR_PAGINA = 1000;
/** How long a step goes on taking parts: within the task's 300 s, with room for the slowest part. */
export const orcamentoMs = () => Math.max(Number(process.env.PLAC_ARQUIVO_ORCAMENTO_MS ?? 120_000), 1);

/** A part: its key, rows, bytes and SHA-256, and of its rows those the table's count covers (fontes.ts `contada`). */
const parteSchema = z.object({ chave: z.string(), linhas: z.number().int(), contadas: z.number().int(), bytes: z.number().int(), sha256: z.string() });
const tabelaSchema = z.object({ esperadas: z.number().int(), linhas: z.number().int(), contadas: z.number().int(), partes: z.array(parteSchema) });
export const manifestoSchema = z.object({
  mes: z.string(),
  clienteId: z.string(),
  arquivadoEm: z.string(),
  /** Every table's counted rows equal what the table was expected to hold. */
  completo: z.boolean(),
  tabelas: z.record(z.string(), tabelaSchema),
});
export type Manifesto = z.infer<typeof manifestoSchema>;

/** What a step hands to the next (the job's item, JSON). */
interface Progresso {
  /** The last client finished (ids in order); null before the first. */
  ultimo: string | null;
  /** The client in progress. */
  cliente: string | null;
  /** Its table in progress (index of TIPOS_ARQUIVO), where its next page starts and its next part's number. */
  tabela: number;
  cursor: string | null;
  parte: number;
  /** The client's month was archived whole before: its parts are checked, not written. */
  conferir: boolean;
  /** Only these clients (an administrator's run for some clients); absent: every client. */
  somente?: string[];
}

const parcialKey = (mes: string, clienteId: string) => chaveDoManifesto(mes, clienteId).replace(/\.json$/, '.parcial.json');

async function lerManifesto(chave: string): Promise<Manifesto | null> {
  const bytes = await arquivo.ler(chave);
  return bytes ? manifestoSchema.parse(JSON.parse(Buffer.from(bytes).toString('utf8'))) : null;
}

const gravarManifesto = (chave: string, m: Manifesto) => arquivo.gravar(chave, JSON.stringify(m, null, 1), 'application/json');

/**
 * Starts the archive of `mes` (default: the month before today's, in Bahia time: the schedule's run on
 * the 5th). One that is running is left to run (`concluido` ends this execution); one that ended is
 * started again as a new attempt, which checks what was archived and archives what was not.
 */
export async function iniciar(entrada: { mes?: string | undefined; clientes?: string[] | undefined }, agora = new Date()): Promise<{ mes: string; concluido: boolean }> {
  const mes = entrada.mes ?? previousMonth(monthOf(agora));
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(mes) || mes >= monthOf(agora)) throw new Error(`month ${mes} cannot be archived: a past month 'YYYY-MM' is`);
  const anterior = await jobs.lerJob(mes);
  if (anterior?.estado === 'PROCESSANDO') return { mes, concluido: true };
  const progresso: Progresso = {
    ultimo: null,
    cliente: null,
    tabela: 0,
    cursor: null,
    parte: 0,
    conferir: false,
    ...(entrada.clientes?.length ? { somente: [...new Set(entrada.clientes)].sort() } : {}),
  };
  const ok = await jobs.iniciarJob(
    { mes, estado: 'PROCESSANDO', tentativa: (anterior?.tentativa ?? 0) + 1, passo: 0, progresso: JSON.stringify(progresso), clientes: 0, divergencias: [], iniciadoEm: agora.toISOString() },
    anterior,
  );
  return { mes, concluido: !ok };
}

/** The state machine's Catch: the month's job failed (its next run starts it again). */
export async function falhou(mes: string, erro?: { Error?: string; Cause?: string }): Promise<void> {
  await jobs.marcarFalha(mes, `${erro?.Error ?? 'Error'}: ${erro?.Cause ?? ''}`);
}

/** The client after `ultimo`, in id order (the clients are a few thousand at most: one read of the list). */
async function proximoCliente(ultimo: string | null, somente: readonly string[] | undefined): Promise<string | null> {
  const ids = somente ?? (await todosClientes()).map((c) => c.id).sort();
  return ids.find((id) => ultimo === null || id > ultimo) ?? null;
}

function manifestoVazio(mes: string, clienteId: string, agora: string): Manifesto {
  return { mes, clienteId, arquivadoEm: agora, completo: false, tabelas: {} };
}

/** One step: parts of the month's tables, client after client, for at most orcamentoMs(). */
export async function passo(mes: string): Promise<{ mes: string; concluido: boolean; divergente?: boolean }> {
  const job = await jobs.lerJob(mes);
  if (!job) throw new Error(`archive job of ${mes} does not exist`);
  if (job.estado !== 'PROCESSANDO') return { mes, concluido: true, divergente: job.estado === 'DIVERGENTE' };
  const p = JSON.parse(job.progresso) as Progresso;
  const divergencias = [...(job.divergencias ?? [])];
  let clientes = job.clientes;
  const inicio = Date.now();
  const agora = new Date().toISOString();
  let parcial: Manifesto | null = null;
  let anterior: Manifesto | null = null;
  let fim = false;

  // At least one part a step, however short the budget: a step always moves the job.
  for (let primeira = true; primeira || Date.now() - inicio < orcamentoMs(); primeira = false) {
    if (p.cliente === null) {
      const proximo = await proximoCliente(p.ultimo, p.somente);
      if (proximo === null) {
        fim = true;
        break;
      }
      anterior = await lerManifesto(chaveDoManifesto(mes, proximo));
      Object.assign(p, { cliente: proximo, tabela: 0, cursor: null, parte: 0, conferir: anterior?.completo === true });
      parcial = manifestoVazio(mes, proximo, agora);
    }
    const clienteId = p.cliente!;
    if (!parcial) {
      parcial = await lerManifesto(parcialKey(mes, clienteId));
      // No partial manifest for a client begun: a run of this step ended the client (and removed it)
      // but stopped before moving the job. The client starts over: its parts are written the same.
      if (!parcial) {
        parcial = manifestoVazio(mes, clienteId, agora);
        Object.assign(p, { tabela: 0, cursor: null, parte: 0 });
      }
    }
    if (p.conferir) anterior ??= await lerManifesto(chaveDoManifesto(mes, clienteId));

    const tipo: TipoArquivo = TIPOS_ARQUIVO[p.tabela]!;
    const tabela = TABELAS_ARQUIVO[tipo];
    const fonte = FONTES[tipo];
    const t = (parcial.tabelas[tabela.nome] ??= { esperadas: 0, linhas: 0, contadas: 0, partes: [] });

    // One part: pages until it holds linhasPorParte() rows or the month is read.
    const linhas: arquivo.Linha[] = [];
    do {
      const lote = await fonte.ler(clienteId, mes, p.cursor, Math.min(LINHAS_POR_PAGINA, linhasPorParte() - linhas.length));
      linhas.push(...lote.linhas);
      p.cursor = lote.cursor;
    } while (p.cursor !== null && linhas.length < linhasPorParte());

    let divergiu: string | null = null;
    if (linhas.length > 0) {
      const bytes = parquetDe(tabela, linhas);
      const parte = {
        chave: chaveDaParte(tabela.nome, mes, clienteId, p.parte),
        linhas: linhas.length,
        contadas: fonte.contada ? linhas.filter(fonte.contada).length : linhas.length,
        bytes: bytes.length,
        sha256: arquivo.sha256(bytes),
      };
      if (p.conferir) {
        const arquivada = anterior?.tabelas[tabela.nome]?.partes[p.parte];
        if (arquivada?.sha256 !== parte.sha256) divergiu = `${clienteId} ${tabela.nome}: a parte ${p.parte} lida de novo difere da arquivada`;
      } else {
        await arquivo.gravar(parte.chave, bytes, 'application/vnd.apache.parquet');
      }
      t.partes[p.parte] = parte;
      t.partes.length = p.parte + 1;
      p.parte += 1;
    }

    if (!divergiu && p.cursor === null) {
      // The table is read: its rows, what the count expects, and no part left of a longer run before.
      t.linhas = t.partes.reduce((s, x) => s + x.linhas, 0);
      t.esperadas = await fonte.esperadas(clienteId, mes);
      t.contadas = t.partes.reduce((s, x) => s + x.contadas, 0);
      if (p.conferir) {
        if ((anterior?.tabelas[tabela.nome]?.partes.length ?? 0) !== t.partes.length) divergiu = `${clienteId} ${tabela.nome}: ${t.partes.length} partes lidas de novo, ${anterior?.tabelas[tabela.nome]?.partes.length ?? 0} arquivadas`;
      } else {
        const feitas = new Set(t.partes.map((x) => x.chave));
        await arquivo.apagar((await arquivo.chavesSob(prefixoDaParticao(tabela.nome, mes, clienteId))).filter((k) => !feitas.has(k)));
      }
      Object.assign(p, { tabela: p.tabela + 1, cursor: null, parte: 0 });
    }

    if (divergiu || p.tabela >= TIPOS_ARQUIVO.length) {
      if (divergiu) divergencias.push(divergiu);
      else if (p.conferir) {
        // Checked whole: the archive stands. The invoice is pointed at it again (a run that wrote the
        // manifest may have stopped before it did).
        await apontarFatura(clienteId, mes, anterior!);
        clientes += 1;
      } else {
        const completo = Object.entries(parcial.tabelas).every(([, x]) => x.contadas === x.esperadas);
        const manifesto: Manifesto = { ...parcial, completo };
        await gravarManifesto(chaveDoManifesto(mes, clienteId), manifesto);
        if (completo) {
          await apontarFatura(clienteId, mes, manifesto);
          clientes += 1;
        } else {
          for (const [nome, x] of Object.entries(parcial.tabelas)) {
            if (x.contadas !== x.esperadas) divergencias.push(`${clienteId} ${nome}: ${x.contadas} linhas arquivadas, ${x.esperadas} esperadas`);
          }
        }
      }
      await arquivo.apagar([parcialKey(mes, clienteId)]);
      Object.assign(p, { ultimo: clienteId, cliente: null, tabela: 0, cursor: null, parte: 0, conferir: false });
      parcial = null;
      anterior = null;
    }
  }

  if (p.cliente !== null && parcial) await gravarManifesto(parcialKey(mes, p.cliente), parcial);
  const estado = fim ? (divergencias.length > 0 ? 'DIVERGENTE' : 'ARQUIVADO') : 'PROCESSANDO';
  const gravado = await jobs.gravarPasso(mes, job.passo, {
    progresso: JSON.stringify(p),
    clientes,
    divergencias: divergencias.slice(0, 200),
    estado,
    ...(fim ? { concluidoEm: new Date().toISOString() } : {}),
  });
  if (!gravado) {
    // Another run of this step wrote first: its result stands.
    const atual = await jobs.lerJob(mes);
    return { mes, concluido: atual?.estado !== 'PROCESSANDO', divergente: atual?.estado === 'DIVERGENTE' };
  }
  // A month not archived whole ends its execution failed (constructs/arquivo.ts Divergente): its alarm calls a person.
  return { mes, concluido: fim, divergente: estado === 'DIVERGENTE' };
}

/** Points the client's invoice of the month (when there is one) at its archived manifest. */
async function apontarFatura(clienteId: string, mes: string, manifesto: Manifesto): Promise<void> {
  const req = manifesto.tabelas[TABELAS_ARQUIVO.requisicoes.nome];
  await faturas.registrarArquivo(clienteId, mes, {
    manifesto: chaveDoManifesto(mes, clienteId),
    arquivadoEm: manifesto.arquivadoEm,
    linhasRequisicoes: req?.linhas ?? 0,
    partesRequisicoes: req?.partes.length ?? 0,
  });
}
