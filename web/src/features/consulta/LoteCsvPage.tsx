import '../../components/page-layout.css';
import './consulta.css';
import { LOTE_MAXIMO_BYTES, LOTE_MAXIMO_LINHAS } from '@plac/shared/domain';
import { LAYOUTS_LOTE, lerLote, linhasDoArquivo, loteRecusado } from '@plac/shared/domain/lote-csv';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { useRef, useState, type FormEvent } from 'react';
import { downloadText } from '../../lib/download';
import { toast } from '../../lib/toast';
import { LegendaEvidencia } from './EvidenciaRecebivel';
import { LOTES_CSV, type LoteCsv } from './lotes';
import { textoDe } from '../../lib/files';

/**
 * The five CSV batch screens (spec 3, 2.7, 3.13, 5.4, 7.5): instructions, the file, Consultar. The file
 * is checked here with the API's own rule (lerLote) before anything is sent — a file chosen, .csv, at
 * most 1 MB, the header in its order, semicolons, a data line at least — and the lines after the 50th
 * or repeated are announced as ignored. The answer, one line per look-up, is downloaded as the spec's
 * file. Each upload carries its own Idempotency-Key, so a retried request is charged once.
 */
export function LoteCsvPage({ lote }: { lote: LoteCsv }) {
  const [arquivo, setArquivo] = useState<File | null>(null);
  const [enviando, setEnviando] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const colunas = LAYOUTS_LOTE[lote.layout];

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!arquivo) return toast.warn(message('semArquivo'));
    if (!arquivo.name.toLowerCase().endsWith('.csv')) return toast.warn(message('somenteCsv'));
    if (arquivo.size > LOTE_MAXIMO_BYTES) return toast.warn(message('csvGrandeDemais'));
    const linhas = linhasDoArquivo(await textoDe(arquivo)).filter((l) => l.trim() !== '');
    const lido = lerLote(lote.layout, linhas);
    if (loteRecusado(lido)) return toast.warn(message(lido.erro, lido.vars));
    if (lido.ignoradas > 0) toast.warn(message('csvLinhasIgnoradas'));
    if (lido.duplicadas > 0) toast.warn(message('csvDuplicadasIgnoradas', { quantidade: String(lido.duplicadas) }));
    setEnviando(true);
    try {
      const csv = await lote.enviar(linhas.slice(0, 1 + LOTE_MAXIMO_LINHAS + lido.duplicadas), crypto.randomUUID());
      // fetch's text() drops the API's byte-order mark; the file keeps one so spreadsheets read UTF-8.
      downloadText(lote.arquivo, csv.startsWith('\uFEFF') ? csv : `\uFEFF${csv}`, 'text/csv;charset=utf-8');
      toast.success(`Consulta concluída: ${lido.linhas.length} linha(s) consultada(s). O resultado foi baixado em ${lote.arquivo}.`);
    } catch {
      // The standard error toast says why.
    } finally {
      setEnviando(false);
    }
  }

  return (
    <>
      <h1 className="app-page-title">{lote.titulo}</h1>
      <div className="page-panel">
        <h2 className="consulta-titulo">Instruções de uso</h2>
        <ul className="consulta-instrucoes">
          <li>
            O arquivo deve ter a extensão <strong>.csv</strong>, com as colunas separadas por ponto e vírgula (;).
          </li>
          <li>
            A primeira linha é o cabeçalho, com as colunas nesta ordem: <code>{colunas.join(';')}</code>.
          </li>
          {lote.instrucoes.map((i) => (
            <li key={i}>{i}</li>
          ))}
          <li>São consultadas no máximo {LOTE_MAXIMO_LINHAS} linhas; as demais e as linhas repetidas são ignoradas.</li>
          <li>Cada linha consultada com dados encontrados é cobrada como uma consulta.</li>
          <li>
            O resultado é baixado no arquivo <strong>{lote.arquivo}</strong>.
          </li>
        </ul>
      </div>
      <form className="page-panel" aria-label={lote.titulo} onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="page-field">
          <label htmlFor="lote-arquivo">Arquivo CSV</label>
          <input
            ref={input}
            id="lote-arquivo"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => setArquivo(e.target.files?.[0] ?? null)}
          />
        </div>
        <div className="page-actions">
          <Button type="submit" label="Consultar" icon="pi pi-search" loading={enviando} />
        </div>
      </form>
      {lote.evidencia && <LegendaEvidencia />}
    </>
  );
}

/** The route's page for a batch of LOTES_CSV. */
export const lotePage = (nome: keyof typeof LOTES_CSV) =>
  function Page() {
    return <LoteCsvPage lote={LOTES_CSV[nome]} />;
  };
