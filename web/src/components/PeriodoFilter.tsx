import { Calendar } from 'primereact/calendar';

/**
 * A period of months in a list's filters: 'Mês Inicial' and 'Mês Final', each a month picker (mm/aaaa),
 * none after `ate` (the current month, or the last closed one, as the list's data allows). The list
 * checks the order when it searches (the catalogue's dataInicioMaiorDataFim).
 */
export interface PeriodoFilterProps {
  /** The inputs' ids: `${id}-inicio` and `${id}-fim`. */
  id: string;
  inicio: Date | null;
  fim: Date | null;
  onInicio: (mes: Date | null) => void;
  onFim: (mes: Date | null) => void;
  /** The latest month offered. */
  ate: Date;
  /** The labels, as each screen's spec words them. */
  rotulos?: readonly [string, string];
  /** 'Hoje' and 'Limpar' under the picker (a period that may be left open). */
  limpavel?: boolean;
}

/** One month picker of a filter (mm/aaaa), none after `ate`: a period's end, or a month on its own. */
export function MesFilter({ id, rotulo, valor, onChange, ate, limpavel = false }: { id: string; rotulo: string; valor: Date | null; onChange: (mes: Date | null) => void; ate: Date; limpavel?: boolean }) {
  return (
    <div className="page-field">
      <label htmlFor={id}>{rotulo}</label>
      <Calendar
        inputId={id}
        value={valor}
        onChange={(e) => onChange(e.value instanceof Date ? e.value : null)}
        view="month"
        dateFormat="mm/yy"
        maxDate={ate}
        showIcon
        {...(limpavel ? { showButtonBar: true } : {})}
      />
    </div>
  );
}

export function PeriodoFilter({ id, inicio, fim, onInicio, onFim, ate, rotulos = ['Mês Inicial', 'Mês Final'], limpavel = false }: PeriodoFilterProps) {
  return (
    <>
      <MesFilter id={`${id}-inicio`} rotulo={rotulos[0]} valor={inicio} onChange={onInicio} ate={ate} limpavel={limpavel} />
      <MesFilter id={`${id}-fim`} rotulo={rotulos[1]} valor={fim} onChange={onFim} ate={ate} limpavel={limpavel} />
    </>
  );
}
