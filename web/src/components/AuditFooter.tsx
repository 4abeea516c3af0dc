import { formatDateTime } from '@plac/shared/domain';

/**
 * A record's audit at the foot of its form: when it was created (and by whom, where the screen says
 * it) and when and by whom it last changed. The user and institution forms say 'Atualizado'; the
 * tariff groups say 'Alterado', as spec 3 words them.
 */
export interface AuditFooterProps {
  criadoEm: string;
  /** Shown when given (null: shown empty). */
  criadoPor?: string | null | undefined;
  alteradoEm: string;
  alteradoPor: string | null | undefined;
  verbo?: 'Atualizado' | 'Alterado';
  /** The list's accessible name, where a page shows more than one. */
  label?: string;
}

export function AuditFooter({ criadoEm, criadoPor, alteradoEm, alteradoPor, verbo = 'Atualizado', label }: AuditFooterProps) {
  const linhas: [string, string][] = [
    ['Criado em', formatDateTime(criadoEm)],
    ...(criadoPor !== undefined ? [['Criado por', criadoPor ?? ''] as [string, string]] : []),
    [`${verbo} em`, formatDateTime(alteradoEm)],
    [`${verbo} por`, alteradoPor ?? ''],
  ];
  return (
    <dl className="page-audit" {...(label ? { 'aria-label': label } : {})}>
      {linhas.map(([rotulo, valor]) => (
        <div key={rotulo}>
          <dt>{rotulo}</dt>
          <dd>{valor}</dd>
        </div>
      ))}
    </dl>
  );
}
