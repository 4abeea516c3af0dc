import { routePath } from '@plac/shared/access';
import { nextMonth } from '@plac/shared/domain';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { mesIso } from '../../lib/calendar';
import { mesParaData, type Versao } from './model';

/** What the form receives in the router state for a new tariff on the current bands. */
export interface NovaTarifaState {
  novaTarifa?: { inicio: string };
}

/**
 * A new tariff on the current bands (spec 3, 2.1 and 3.5): its start month (the month after the
 * current one at the earliest), with a cancel; the form follows with the tariff grid.
 */
export function NovaTarifa({ vigente, mesAtual }: { vigente: Versao; mesAtual: string }) {
  const navigate = useNavigate();
  const [aberto, setAberto] = useState(false);
  const [inicio, setInicio] = useState<Date | null>(null);
  if (!aberto) {
    return (
      <div className="page-actions">
        <Button type="button" label="Nova Tarifa" icon="pi pi-plus" outlined onClick={() => setAberto(true)} />
      </div>
    );
  }
  return (
    <div className="page-grid tarifas-nova-tarifa">
      <div className="page-field">
        <label htmlFor="novaTarifaInicio">Início da nova tarifa</label>
        <Calendar
          inputId="novaTarifaInicio"
          value={inicio}
          onChange={(e) => setInicio(e.value instanceof Date ? e.value : null)}
          view="month"
          dateFormat="mm/yy"
          minDate={mesParaData(nextMonth(mesAtual))}
          showIcon
          showButtonBar
        />
      </div>
      <div className="page-actions">
        <Button
          type="button"
          label="Continuar"
          icon="pi pi-arrow-right"
          disabled={!inicio}
          onClick={() => inicio && navigate(routePath('faixa-cobranca-form'), { state: { novaTarifa: { inicio: mesIso(inicio) } } satisfies NovaTarifaState & { grupo?: string } })}
        />
        <Button
          type="button"
          label="Cancelar"
          severity="secondary"
          outlined
          onClick={() => {
            setInicio(null);
            setAberto(false);
          }}
        />
      </div>
      <span className="tarifas-dica">Faixas de {vigente.grupoFaixa.descricao}</span>
    </div>
  );
}
