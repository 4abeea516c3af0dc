import '../../components/page-layout.css';
import { instituicoes } from '@plac/shared/contracts';
import { isValidCnpjBase, MASKS, normalizeCnpj } from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputMask } from 'primereact/inputmask';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { FormField } from '../../components/FormField';
import { useApiMutation } from '../../lib/api';
import { toast } from '../../lib/toast';
import type { InstituicaoResumo } from '../../components/InstituicaoAutoComplete';
import { UF_OPTIONS } from '../../lib/opcoes';

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
              aria-required
              aria-describedby="nova-razaoSocial-error"
            />
          </FormField>
          <FormField id="nova-cnpj" label={LABELS.cnpj} required field="cnpj" error={create.error} messages={messages('cnpj')}>
            <InputMask
              id="nova-cnpj"
              mask={MASKS.cnpjBase}
              unmask
              autoClear={false}
              value={form.cnpj}
              onChange={(e) => setForm((f) => ({ ...f, cnpj: normalizeCnpj(e.value ?? '') }))}
              aria-required
              aria-describedby="nova-cnpj-error"
            />
          </FormField>
          <FormField id="nova-uf" label={LABELS.uf} required field="uf" error={create.error} messages={messages('uf')}>
            <Dropdown
              inputId="nova-uf"
              options={UF_OPTIONS}
              value={form.uf}
              onChange={(e) => setForm((f) => ({ ...f, uf: (e.value as string | undefined) ?? null }))}
              filter
              filterBy="label"
              placeholder="Selecione a UF"
              aria-required
            />
          </FormField>
        </div>
        <div className="page-actions">
          <Button type="submit" label="Salvar" icon="pi pi-check" loading={create.isPending} />
          <Button type="button" label="Cancelar" icon="pi pi-times" severity="secondary" outlined onClick={close} />
        </div>
      </form>
    </AppDialog>
  );
}
