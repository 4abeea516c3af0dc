import type { EvidenciaView } from '@plac/shared/contracts/evidencia';
import { FLAGS_EVIDENCIA, formatCnpj, formatCpf, type FlagEvidencia } from '@plac/shared/domain';
import { Tag } from 'primereact/tag';
import { Timeline } from 'primereact/timeline';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';

/**
 * The receivable's evidence of a key (docs/recebivel.md), as Consulta Fat-e shows it: the flags with
 * their rules, the recipient's manifestation, the delivery proof, returns and CT-e, and the key's
 * history drawn as a timeline (issued, authorised, manifested, carried, delivered, assigned, returned,
 * cancelled).
 */

/** Flags a funder must stop at (red), the reassuring ones (green); the rest are information. */
const ALERTA = new Set<FlagEvidencia>(['CANCELADA', 'DESCONHECIDA_PELO_DESTINATARIO', 'OPERACAO_NAO_REALIZADA', 'DEVOLVIDA', 'MANIFESTACAO_ALTERADA', 'PARCELA_CEDIDA']);
const BOM = new Set<FlagEvidencia>(['CONFIRMADA_PELO_DESTINATARIO', 'ENTREGA_COMPROVADA', 'CTE_VINCULADO']);
const severidade = (f: FlagEvidencia) => (ALERTA.has(f) ? 'danger' : BOM.has(f) ? 'success' : 'warning');

const documento = (d: string) => (d.length === 11 ? formatCpf(d) : formatCnpj(d));

export function EvidenciaRecebivel({ evidencia }: { evidencia: EvidenciaView }) {
  const flags = evidencia.flags as FlagEvidencia[];
  const m = evidencia.manifestacao;
  const e = evidencia.entrega;
  return (
    <section aria-labelledby="evidencia-titulo" className="evidencia">
      <h3 id="evidencia-titulo" className="consulta-titulo consulta-subtitulo">
        Evidência do recebível
      </h3>
      <ul className="evidencia-flags" aria-label="Sinais">
        {flags.map((f) => (
          <li key={f}>
            <Tag value={f} severity={severidade(f)} title={FLAGS_EVIDENCIA[f]} />
            <span className="evidencia-regra">{FLAGS_EVIDENCIA[f]}</span>
          </li>
        ))}
      </ul>
      <dl className="evidencia-fatos">
        <dt>Manifestação do destinatário</dt>
        <dd>{m ? `${m.descricao} em ${formatDateTime(m.data)}, por ${documento(m.autor)}${m.justificativa ? ` — ${m.justificativa}` : ''}` : 'Nenhuma'}</dd>
        <dt>Comprovante de entrega</dt>
        <dd>{e ? `Entregue em ${formatDateTime(e.data)} a ${e.nomeRecebedor} (${documento(e.documentoRecebedor)})` : 'Nenhum'}</dd>
        <dt>Devoluções</dt>
        <dd>
          {evidencia.devolucoes.length === 0
            ? 'Nenhuma'
            : `${formatMoney(evidencia.valorDevolvido)} devolvidos; valor líquido após devoluções ${formatMoney(evidencia.valorLiquidoAposDevolucoes)}`}
        </dd>
        <dt>CT-e</dt>
        <dd>{evidencia.ctes.length === 0 ? 'Nenhum' : evidencia.ctes.map((c) => `${c.chave} (${c.emitente.nome}${c.cancelado ? ', cancelado' : ''})`).join('; ')}</dd>
      </dl>
      <h3 id="evidencia-linha" className="consulta-titulo consulta-subtitulo">
        Linha do tempo
      </h3>
      <Timeline
        value={evidencia.linhaDoTempo}
        aria-labelledby="evidencia-linha"
        className="evidencia-linha"
        opposite={(marco: EvidenciaView['linhaDoTempo'][number]) => <time dateTime={marco.data}>{marco.data.length === 10 ? formatDate(marco.data) : formatDateTime(marco.data)}</time>}
        content={(marco: EvidenciaView['linhaDoTempo'][number]) => (
          <span data-etapa={marco.etapa}>
            <strong>{ETAPAS[marco.etapa]}</strong> {marco.descricao}
          </span>
        )}
      />
    </section>
  );
}

const ETAPAS: Record<EvidenciaView['linhaDoTempo'][number]['etapa'], string> = {
  EMITIDA: 'Emitida',
  AUTORIZADA: 'Autorizada',
  MANIFESTADA: 'Manifestada',
  TRANSPORTADA: 'Transportada',
  ENTREGUE: 'Entregue',
  ENTREGA_CANCELADA: 'Entrega cancelada',
  CORRIGIDA: 'Corrigida',
  CEDIDA: 'Cedida',
  DEVOLVIDA: 'Devolvida',
  CANCELADA: 'Cancelada',
};

/** The recebível CSV screen's legend: the evidence columns and each flag's rule. */
export function LegendaEvidencia() {
  return (
    <div className="page-panel">
      <h2 className="consulta-titulo">Evidência no resultado</h2>
      <p>
        Além das parcelas, cada linha traz a manifestação vigente do destinatário (MANIFESTACAO, DATA_MANIFESTACAO), o comprovante de entrega (DATA_ENTREGA,
        RECEBEDOR), o valor devolvido e o valor líquido após devoluções, os CT-e que transportam a NF-e e os sinais (FLAGS), separados por espaço:
      </p>
      <dl className="evidencia-legenda">
        {(Object.keys(FLAGS_EVIDENCIA) as FlagEvidencia[]).map((f) => (
          <div key={f}>
            <dt>
              <code>{f}</code>
            </dt>
            <dd>{FLAGS_EVIDENCIA[f]}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
