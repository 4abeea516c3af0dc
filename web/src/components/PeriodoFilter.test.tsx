import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PeriodoFilter } from './PeriodoFilter';

describe('PeriodoFilter', () => {
  it('shows the two months by their labels, as mm/aaaa', () => {
    render(<PeriodoFilter id="f" inicio={new Date(2026, 9, 1)} fim={null} onInicio={() => undefined} onFim={() => undefined} ate={new Date(2026, 10, 1)} rotulos={['Mês inicial', 'Mês final']} />);
    expect((screen.getByLabelText('Mês inicial') as HTMLInputElement).value).toBe('10/2026');
    expect((screen.getByLabelText('Mês final') as HTMLInputElement).value).toBe('');
    expect(screen.getByLabelText('Mês inicial').id).toBe('f-inicio');
  });
});
