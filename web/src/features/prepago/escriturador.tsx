import { prepago } from '@plac/shared/contracts';
import { formatCnpj } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Dropdown } from 'primereact/dropdown';
import { useMemo } from 'react';
import { useApiQuery } from '../../lib/api';
import { useCurrentUser } from '../../lib/session';

/**
 * The bookkeeper picker of the three prepaid screens (spec 3 section 6): the administrator picks any
 * escriturador (an IMF client) from the list; a client user has its own company fixed, loaded by its
 * client id, with the field and its clear button disabled. The value is the bookkeeper's CNPJ.
 */
export function useEscrituradores() {
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const lista = useApiQuery(prepago.listarEscrituradores, {});
  return { admin, escrituradores: lista.data ?? [], carregando: lista.isFetching, consulta: lista };
}

export function EscrituradorSelect(props: {
  id: string;
  value: string;
  onChange: (cnpj: string) => void;
  admin: boolean;
  escrituradores: readonly { cnpj: string; razaoSocial: string }[];
  /** The list is on its way: 'Carregando…' rather than an empty or bare value. */
  carregando?: boolean;
  invalid?: boolean;
  describedBy?: string;
}) {
  const options = useMemo(() => props.escrituradores.map((e) => ({ value: e.cnpj, label: `${e.razaoSocial} - ${formatCnpj(e.cnpj)}` })), [props.escrituradores]);
  return (
    <Dropdown
      inputId={props.id}
      options={options}
      value={props.value || null}
      placeholder={props.carregando ? 'Carregando…' : 'Selecione o escriturador'}
      loading={props.carregando ?? false}
      onChange={(e) => props.onChange((e.value as string | undefined) ?? '')}
      disabled={!props.admin}
      showClear={props.admin}
      filter={props.admin}
      filterBy="label"
      emptyFilterMessage={message('nenhumRegistro')}
      emptyMessage={message('nenhumRegistro')}
      className={props.invalid ? 'p-invalid' : undefined}
      aria-describedby={props.describedBy}
    />
  );
}
