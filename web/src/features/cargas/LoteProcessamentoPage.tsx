import '../../components/page-layout.css';
import '../../components/chart-view.css';
import './cargas.css';
import { fate } from '@plac/shared/contracts';
import { FLUXO_LABELS, FLUXOS, LOTE_MAXIMO_NSU, statusSefaz, type Fluxo } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useMemo, useState, type FormEvent } from 'react';
import { JsonTree } from '../../components/JsonTree';
import { useApiMutation, useApiQuery } from '../../lib/api';
import { useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { resumoContagem, semZeros, type ResultadoLote } from './model';

/**
 * lote-processamento (sefaz_admin, sefaz_gestor): re-reads from a Sefaz the documents after NSU
 * Início up to NSU Fim (at most 50; empty: Início + 50) of one distribution stream ('Documentos': goods,
 * NF-e, the default, or transport, CT-e) and processes them as the scheduled load does.
 * A manager sees every Sefaz but imports the own UF only (preselected, fixed). The answer is shown as
 * an expandable JSON tree, with a one-line count.
 */

const NSU_MAX_DIGITS = 15;
const ROOT_KEY = 'resultado';
const FLUXO_OPTIONS: { value: Fluxo; label: string }[] = FLUXOS.map((value) => ({ value, label: FLUXO_LABELS[value] }));

const digits = (text: string) => text.replace(/\D/g, '').slice(0, NSU_MAX_DIGITS);

/** The batch form's checks, in the catalogue's words; `nsuFin` is the end to send (the default filled in). */
export function validarLote(sefaz: number | null, inicio: string, fim: string): { erro: string } | { ultNSU: number; nsuFin: number } {
  if (sefaz === null) return { erro: message('sefazObrigatoria') };
  if (!/^\d{1,15}$/.test(inicio.trim())) return { erro: message('nsuObrigatorios') };
  const ultNSU = Number(inicio.trim());
  if (fim.trim() !== '' && !/^\d{1,15}$/.test(fim.trim())) return { erro: message('nsuObrigatorios') };
  const nsuFin = fim.trim() === '' ? ultNSU + LOTE_MAXIMO_NSU : Number(fim.trim());
  if (nsuFin <= ultNSU) return { erro: message('nsuFimMenorInicio') };
  if (nsuFin - ultNSU > LOTE_MAXIMO_NSU) return { erro: message('loteMaximo') };
  return { ultNSU, nsuFin };
}

export default function LoteProcessamentoPage() {
  const user = useCurrentUser();
  const gestor = !user.roles.includes('sefaz_admin');
  const lista = useApiQuery(fate.listSefaz, {});
  const importar = useApiMutation(fate.importarLote);

  const [escolhida, setEscolhida] = useState<number | null>(null);
  const [fluxo, setFluxo] = useState<Fluxo>('nfe');
  const [inicio, setInicio] = useState('');
  const [fim, setFim] = useState('');
  const [resultado, setResultado] = useState<ResultadoLote | null>(null);

  const options = useMemo(() => (lista.data ?? []).map((s) => ({ value: s.cuf, label: `${s.sigla} - ${s.nome}` })), [lista.data]);
  /** A manager's own UF, preselected and fixed. */
  const propria = gestor ? (lista.data?.find((s) => s.sigla === user.uf)?.cuf ?? null) : null;
  const sefaz = gestor ? propria : escolhida;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const check = validarLote(sefaz, inicio, fim);
    if ('erro' in check) {
      toast.warn(check.erro);
      return;
    }
    // An empty end is the start plus 50, shown in the field.
    if (fim.trim() === '') setFim(String(check.nsuFin));
    try {
      const answer = await importar.mutateAsync({
        body: { sefaz: String(sefaz), fluxo, ultNSU: String(check.ultNSU), nsuFin: String(check.nsuFin) },
      });
      setResultado(answer);
    } catch {
      // The standard error toast says why.
    }
  }


  /** An NSU field: digits only, at most the distribution's 15. */
  const nsuField = (id: string, label: string, value: string, change: (value: string) => void) => (
    <div className="page-field">
      <label htmlFor={id}>{label}</label>
      <InputText id={id} inputMode="numeric" maxLength={NSU_MAX_DIGITS} value={value} onChange={(e) => change(digits(e.target.value))} autoComplete="off" />
    </div>
  );
  return (
    <>
      <h1 className="app-page-title">Importação de Lote</h1>

      <div className="page-panel">
        <h2 className="cargas-card-title">Instruções de uso</h2>
        <ul className="cargas-instrucoes">
          <li>O NSU Início é o número anterior ao desejado.</li>
          <li>O NSU Fim é o último desejado.</li>
          <li>A faixa máxima é de 50 NSUs.</li>
          <li>O NSU Fim deve ser diferente do NSU Início.</li>
        </ul>
      </div>

      <form className="page-panel" aria-label="Importação de lote" onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="page-grid">
          <div className="page-field">
            <label htmlFor="lote-sefaz">Sefaz</label>
            <Dropdown
              inputId="lote-sefaz"
              options={options}
              value={sefaz}
              onChange={(e) => setEscolhida(typeof e.value === 'number' ? e.value : null)}
              disabled={gestor}
              filter
              filterBy="label"
              placeholder="Selecione a Sefaz"
              emptyMessage={message('nenhumRegistro')}
              emptyFilterMessage={message('nenhumRegistro')}
              loading={lista.isFetching}
            />
          </div>
          <div className="page-field">
            <label htmlFor="lote-fluxo">Documentos</label>
            <Dropdown
              inputId="lote-fluxo"
              options={FLUXO_OPTIONS}
              value={fluxo}
              onChange={(e) => {
                if (e.value) setFluxo(e.value as Fluxo);
              }}
            />
          </div>
          {nsuField('lote-nsu-inicio', 'NSU Início', inicio, setInicio)}
          {nsuField('lote-nsu-fim', 'NSU Fim', fim, setFim)}
        </div>
        <div className="page-actions">
          <Button type="submit" label="Importar Lote" icon="pi pi-upload" loading={importar.isPending} />
        </div>
      </form>

      {resultado && (
        <section className="page-panel cargas-arvore" aria-labelledby="lote-resultado-titulo">
          <h2 id="lote-resultado-titulo" className="cargas-card-title">
            Resultado da importação
          </h2>
          <p className="cargas-status-lote">
            {resultado.sefaz.sigla} - {resultado.sefaz.nome} · {FLUXO_LABELS[resultado.fluxo]} · NSU {semZeros(resultado.ultNSU)} a{' '}
            {semZeros(resultado.nsuFin)} · {resultado.cStat}:{' '}
            {resultado.xMotivo || statusSefaz(resultado.cStat)} · NSU máximo {semZeros(resultado.maxNSU)}
          </p>
          <p className="cargas-resumo-lote" role="status">
            {resumoContagem(resultado.contagem)}
          </p>
          {/* A new answer is a new tree, expanded afresh. */}
          <JsonTree key={JSON.stringify([resultado.ultNSU, resultado.nsuFin, resultado.fluxo, resultado.sefaz.cuf])} rootKey={ROOT_KEY} value={resultado} label="Resultado da importação" open={['documentos']} />
        </section>
      )}
    </>
  );
}

