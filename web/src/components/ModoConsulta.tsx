import './chart-view.css';
import { SelectButton } from 'primereact/selectbutton';

/**
 * The 'Consultar' choice of a chart's filters (by month, by day, by period): one SelectButton, named by
 * its visible label; one mode is always chosen (a click on the chosen one does not empty it).
 */
export function ModoConsulta<M extends string>({ id, value, options, onChange }: { id: string; value: M; options: readonly { label: string; value: M }[]; onChange: (modo: M) => void }) {
  return (
    <div className="page-field">
      <span id={id} className="cargas-field-label">
        Consultar
      </span>
      <SelectButton
        value={value}
        options={[...options]}
        onChange={(e) => {
          if (e.value) onChange(e.value as M);
        }}
        allowEmpty={false}
        aria-labelledby={id}
      />
    </div>
  );
}
