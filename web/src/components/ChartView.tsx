import './chart-view.css';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type ChartDataset,
} from 'chart.js';
import { Button } from 'primereact/button';
import { useEffect, useId, useRef, useState } from 'react';

/**
 * A chart.js chart that is readable without seeing it: the canvas is an image named by a summary, and
 * the same numbers are a table, visually hidden until 'Ver dados em tabela' shows it (screen readers
 * always have it). Only the controllers and elements used here are registered (tree-shaken chart.js).
 */

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip);

export interface ChartSeries {
  label: string;
  values: readonly number[];
  /** Contrast of at least 3:1 against white (WCAG 1.4.11). */
  color: string;
  /** A dashed line, so that line series differ by more than their colour. */
  dashed?: boolean;
}

export interface ChartViewProps {
  /** 'percent': stacked bars on a 0-100 % axis; 'line': counts over time. */
  kind: 'percent' | 'line';
  labels: readonly string[];
  series: readonly ChartSeries[];
  /** The canvas's accessible name: what the chart shows, in words. */
  summary: string;
  /** Caption of the table fallback. */
  caption: string;
  /** Header of the table's first column (the labels). */
  labelHeader: string;
  /** How a value is written in the table and the tooltips. */
  format: (value: number) => string;
}

const TEXT_COLOR = '#374151';
const GRID_COLOR = '#e5e7eb';

function datasets(kind: ChartViewProps['kind'], series: readonly ChartSeries[]): ChartDataset<'bar' | 'line', number[]>[] {
  return series.map((s) =>
    kind === 'percent'
      ? { type: 'bar' as const, label: s.label, data: [...s.values], backgroundColor: s.color, borderColor: '#ffffff', borderWidth: 1 }
      : {
          type: 'line' as const,
          label: s.label,
          data: [...s.values],
          borderColor: s.color,
          backgroundColor: s.color,
          borderWidth: 2,
          pointRadius: 3,
          pointStyle: s.dashed ? 'rectRot' : 'circle',
          ...(s.dashed ? { borderDash: [6, 4] } : {}),
        },
  );
}

/**
 * The category axis's ticks. The bars of the 27 Sefaz each show their UF (no label skipped), turned
 * upright once there are more than 12, so that neighbours never overlap on a narrow canvas (issue 28
 * item 5); the lines' days are thinned by chart.js (autoSkip) and turned at most 45°.
 */
export function ticksEixoX(kind: ChartViewProps['kind'], pontos: number) {
  return kind === 'percent'
    ? { color: TEXT_COLOR, autoSkip: false, minRotation: pontos > 12 ? 90 : 0, maxRotation: 90, font: { size: 11 } }
    : { color: TEXT_COLOR, autoSkip: true, autoSkipPadding: 8, maxRotation: 45 };
}

function config(props: Pick<ChartViewProps, 'kind' | 'labels' | 'series' | 'format'>): ChartConfiguration<'bar' | 'line', number[], string> {
  const percent = props.kind === 'percent';
  return {
    type: percent ? 'bar' : 'line',
    data: { labels: [...props.labels], datasets: datasets(props.kind, props.series) },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      color: TEXT_COLOR,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { stacked: percent, ticks: ticksEixoX(props.kind, props.labels.length), grid: { color: GRID_COLOR } },
        y: {
          stacked: percent,
          beginAtZero: true,
          ...(percent ? { min: 0, max: 100 } : {}),
          ticks: { color: TEXT_COLOR, precision: 0, callback: (value) => (percent ? `${value} %` : String(value)) },
          grid: { color: GRID_COLOR },
        },
      },
      plugins: {
        legend: { position: 'bottom', labels: { color: TEXT_COLOR, usePointStyle: !percent } },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${props.format(Number(item.raw))}` } },
      },
    },
  };
}

export function ChartView(props: ChartViewProps) {
  const { kind, labels, series, format } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<{ chart: Chart<'bar' | 'line', number[], string>; kind: ChartViewProps['kind'] } | null>(null);
  const [tabela, setTabela] = useState(false);
  const tableId = useId();

  // One chart per canvas: created on the first numbers, updated in place by the next ones (callers
  // keep labels, series and format stable between renders).
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const next = config({ kind, labels, series, format });
    const current = chartRef.current;
    if (current && current.kind === kind) {
      current.chart.data = next.data;
      if (next.options) current.chart.options = next.options;
      current.chart.update();
      return;
    }
    current?.chart.destroy();
    chartRef.current = { chart: new Chart(canvas, next), kind };
  }, [kind, labels, series, format]);

  useEffect(
    () => () => {
      chartRef.current?.chart.destroy();
      chartRef.current = null;
    },
    [],
  );

  return (
    <div>
      <div className="cargas-chart">
        <canvas ref={canvasRef} role="img" aria-label={props.summary}>
          {props.summary}
        </canvas>
      </div>
      <Button
        type="button"
        className="cargas-chart-toggle"
        label={tabela ? 'Ocultar dados em tabela' : 'Ver dados em tabela'}
        icon={tabela ? 'pi pi-eye-slash' : 'pi pi-table'}
        size="small"
        text
        aria-expanded={tabela}
        aria-controls={tableId}
        onClick={() => setTabela((v) => !v)}
      />
      <div id={tableId} className={tabela ? 'cargas-chart-table' : 'cargas-sr-only'}>
        <table>
          <caption className="cargas-sr-only">{props.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{props.labelHeader}</th>
              {props.series.map((s) => (
                <th scope="col" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.labels.map((label, i) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {props.series.map((s) => (
                  <td key={s.label}>{props.format(s.values[i] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
