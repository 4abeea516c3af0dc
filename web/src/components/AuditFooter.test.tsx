import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuditFooter } from './AuditFooter';

describe('AuditFooter', () => {
  const quando = '2026-11-02T13:05:00.000Z';
  it('says when it was created and changed, and by whom it changed; who created it only where given', () => {
    const { container, rerender } = render(<AuditFooter criadoEm={quando} alteradoEm={quando} alteradoPor="Maria" />);
    const termos = () => [...container.querySelectorAll('dt')].map((d) => d.textContent);
    expect(termos()).toEqual(['Criado em', 'Atualizado em', 'Atualizado por']);
    // In Bahia time, as every date of the portal.
    expect([...container.querySelectorAll('dd')].map((d) => d.textContent)).toEqual(['02/11/2026 10:05', '02/11/2026 10:05', 'Maria']);
    rerender(<AuditFooter criadoEm={quando} criadoPor={null} alteradoEm={quando} alteradoPor={null} verbo="Alterado" label="Auditoria" />);
    expect(termos()).toEqual(['Criado em', 'Criado por', 'Alterado em', 'Alterado por']);
    expect(container.querySelector('dl')?.getAttribute('aria-label')).toBe('Auditoria');
  });
});
