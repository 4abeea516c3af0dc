import { formatBRL, formatMilesimos, type Centavos, type Milesimos } from '@plac/shared/domain';
import { formatIntervalo } from '../../lib/format';
import { periodo, type Versao } from './model';
import { AuditFooter } from '../../components/AuditFooter';

/** The services × bands table of one version: a column per band headed 'Faixa N' and 'min - max'. */
export function TarifaTabela({ versao, caption }: { versao: Versao; caption: string }) {
  const { faixas, faixaPromocionalId } = versao.grupoFaixa;
  return (
    <div className="tarifas-tabela">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Serviço</th>
            {faixas.map((f) => (
              <th scope="col" key={f.faixaId}>
                <span className="tarifas-faixa-nome">
                  {f.faixa}
                  {f.faixaId === faixaPromocionalId ? ' (promocional)' : ''}
                </span>
                <span className="tarifas-faixa-intervalo">{formatIntervalo(f.qtdMinima, f.qtdMaxima)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {versao.grupoTarifa.rows.map((row) => (
            <tr key={row.servId}>
              <th scope="row">{row.serv}</th>
              {row.valores.map((v) => (
                <td key={v.idFaixa}>{formatMilesimos(v.valor as Milesimos)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Audit of a group: created / changed date and user. */
function Auditoria({ titulo, g }: { titulo: string; g: { createdAt: string; createdBy: string | null; updatedAt: string; updatedBy: string | null } }) {
  return <AuditFooter label={titulo} criadoEm={g.createdAt} criadoPor={g.createdBy} alteradoEm={g.updatedAt} alteradoPor={g.updatedBy} verbo="Alterado" />;
}

/** Band group and tariff group: names, validity, minimum subscription and audit (spec 3, 2.1). */
export function VersaoResumo({ versao }: { versao: Versao }) {
  const { grupoFaixa: gf, grupoTarifa: gt } = versao;
  return (
    <div className="tarifas-resumo">
      <section aria-label="Grupo Faixa">
        <h3>Grupo Faixa: {gf.descricao}</h3>
        <p>Vigência: {periodo(gf.dtVigenciaInicial, gf.dtVigenciaFinal)}</p>
        <Auditoria titulo={`Auditoria do Grupo Faixa ${gf.descricao}`} g={gf} />
      </section>
      <section aria-label="Grupo Tarifa">
        <h3>Grupo Tarifa: {gt.descricao}</h3>
        <p>Vigência: {periodo(gt.dtVigenciaInicial, gt.dtVigenciaFinal)}</p>
        <p>Assinatura mínima: {formatBRL(gt.assinatura as Centavos)}</p>
        <Auditoria titulo={`Auditoria do Grupo Tarifa ${gt.descricao}`} g={gt} />
      </section>
    </div>
  );
}
