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

export function PeriodoFilter({ id, inicio, fim, onInicio, onFim, ate, rotulos = ['Mês Inicial', 'Mês Final'], limpavel = false }: PeriodoFilterProps) {
  const mes = (sufixo: string, rotulo: string, valor: Date | null, onChange: (mes: Date | null) => void) => (
    <div className="page-field">
      <label htmlFor={`${id}-${sufixo}`}>{rotulo}</label>
      <Calendar
        inputId={`${id}-${sufixo}`}
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
  return (
    <>
      {mes('inicio', rotulos[0], inicio, onInicio)}
      {mes('fim', rotulos[1], fim, onFim)}
    </>
  );
}
