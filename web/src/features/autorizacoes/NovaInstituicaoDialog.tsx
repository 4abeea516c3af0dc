import '../../components/page-layout.css';
import { instituicoes } from '@plac/shared/contracts';
import { isValidCnpjBase, MASKS, normalizeCnpj } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { CANCELAR, FormActions } from '../../components/FormActions';
import { describedBy, FormField } from '../../components/FormField';
import { UfDropdown } from '../../components/UfDropdown';
import { UnmaskedInput } from '../../components/UnmaskedInput';
import { useApiMutation } from '../../lib/api';
import { toast } from '../../lib/toast';
import type { InstituicaoResumo } from '../../components/InstituicaoAutoComplete';

/**
 * The new-institution dialog of the authorisation form: razaoSocial,
 * base CNPJ (##.###.###) and UF, all required; the institution is created PENDENTE.
 */

interface Props {
  visible: boolean;
  onHide: () => void;
  onCreated: (instituicao: InstituicaoResumo) => void;
}

const EMPTY = { razaoSocial: '', cnpj: '', uf: null as string | null };
const LABELS = { razaoSocial: 'Razão Social', cnpj: 'CNPJ Base', uf: 'UF' } as const;

export function NovaInstituicaoDialog({ visible, onHide, onCreated }: Props) {
  const [form, setForm] = useState(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const create = useApiMutation(instituicoes.createInstituicaoPendente);

  const falta = (field: keyof typeof LABELS) => submitted && !(field === 'razaoSocial' ? form.razaoSocial.trim() : form[field]);
  const messages = (field: keyof typeof LABELS) => {
    if (falta(field)) return [message('campoObrigatorio', { field: LABELS[field] })];
    if (field === 'cnpj' && submitted && !isValidCnpjBase(form.cnpj)) return [MESSAGES.cnpjBaseInvalido];
    return [];
  };

  function close() {
    setForm(EMPTY);
    setSubmitted(false);
    create.reset();
    onHide();
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    setSubmitted(true);
    if (!form.razaoSocial.trim() || !form.cnpj || !form.uf) {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    if (!isValidCnpjBase(form.cnpj)) return;
    let created;
    try {
      created = await create.mutateAsync({ body: { razaoSocial: form.razaoSocial.trim(), cnpj: form.cnpj, uf: form.uf } });
    } catch {
      return;
    }
    toast.success(MESSAGES.instituicaoCriada);
    onCreated({ id: created.id, razaoSocial: created.razaoSocial, cnpj: created.cnpj, uf: created.uf, situacao: created.situacao });
    close();
  }

  return (
    <AppDialog header="Nova Instituição Financeira" visible={visible} onHide={close} style={{ width: 'min(34rem, 95vw)' }} modal>
      <form onSubmit={onSubmit} noValidate aria-label="Nova Instituição Financeira">
        <div className="page-grid">
          <FormField id="nova-razaoSocial" label={LABELS.razaoSocial} required field="razaoSocial" error={create.error} messages={messages('razaoSocial')}>
            <InputText
              id="nova-razaoSocial"
              maxLength={150}
              value={form.razaoSocial}
              onChange={(e) => setForm((f) => ({ ...f, razaoSocial: e.target.value }))}
              {...describedBy('nova-razaoSocial', true)}
            />
          </FormField>
          <FormField id="nova-cnpj" label={LABELS.cnpj} required field="cnpj" error={create.error} messages={messages('cnpj')}>
            <UnmaskedInput
              id="nova-cnpj"
              mask={MASKS.cnpjBase}
              normalize={normalizeCnpj}
              value={form.cnpj}
              onValueChange={(cnpj) => setForm((f) => ({ ...f, cnpj }))}
              {...describedBy('nova-cnpj', true)}
            />
          </FormField>
          <FormField id="nova-uf" label={LABELS.uf} required field="uf" error={create.error} messages={messages('uf')}>
            <UfDropdown inputId="nova-uf" value={form.uf} onChange={(uf) => setForm((f) => ({ ...f, uf }))} />
          </FormField>
        </div>
        <FormActions loading={create.isPending} back={CANCELAR} onBack={close} />
      </form>
    </AppDialog>
  );
}
