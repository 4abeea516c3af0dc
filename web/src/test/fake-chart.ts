/**
 * jsdom has no canvas: in the component tests chart.js's `Chart` is a recorder of what each chart was
 * given (web/src/test/setup.ts mocks chart.js with it for every test file). A test reads `charts` to
 * check a chart's type, labels, series and options; the setup empties it after each test.
 */
export interface RecordedChart {
  canvas: HTMLCanvasElement;
  type: string;
  data: { labels: string[]; datasets: { label: string; data: number[] }[] };
  options: { scales: { x: { ticks: Record<string, unknown> } } };
  destroyed: boolean;
}

export const charts: RecordedChart[] = [];

export class FakeChart {
  static register() {}
  canvas: HTMLCanvasElement;
  type: string;
  data: unknown;
  options: unknown;
  destroyed = false;
  constructor(canvas: HTMLCanvasElement, config: { type: string; data: unknown; options: unknown }) {
    this.canvas = canvas;
    this.type = config.type;
    this.data = config.data;
    this.options = config.options;
    charts.push(this as unknown as RecordedChart);
  }
  update() {}
  destroy() {
    this.destroyed = true;
  }
}
