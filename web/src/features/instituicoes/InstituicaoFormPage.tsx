import '../../components/page-layout.css';
import '../../components/instituicao.css';
import { routePath } from '@plac/shared/access';
import { instituicoes } from '@plac/shared/contracts';
import {
  isValidCnpjBase,
  MASKS,
  normalizeCnpj,
  situacoesPermitidas,
  type InstituicaoSituacao,
  type InstituicaoTipo,
} from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { FormPage } from '../../components/FormPage';
import { FormActions } from '../../components/FormActions';
import { describedBy, FormField } from '../../components/FormField';
import { RecordGate } from '../../components/RecordStatus';
import { UfDropdown } from '../../components/UfDropdown';
import { UnmaskedInput } from '../../components/UnmaskedInput';
import { useFormFields, useValidityCheck } from '../../lib/form-fields';
import { useRecordSaved } from '../../lib/record-saved';
import { useApiMutation, useApiQuery, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import { situacaoLabel, TIPO_OPTIONS, type Instituicao, type InstituicaoFormState } from './model';
import { AuditFooter } from '../../components/AuditFooter';

/**
 * instituicao-financeira-form: razaoSocial, base CNPJ (##.###.###), UF, tipo
 * and regulada; created ATIVA. Editing (param instFin in the router state) shows the status with
 * the choices its current status allows, keeps the CNPJ read-only and shows the creation and update dates.
 */

interface FormState {
  razaoSocial: string;
  cnpj: string;
  uf: string | null;
  tipo: InstituicaoTipo | null;
  regulada: boolean;
  situacao: InstituicaoSituacao;
}

type Required = 'razaoSocial' | 'cnpj' | 'uf' | 'tipo';

const LABELS: Record<Required | 'regulada' | 'situacao', string> = {
  razaoSocial: 'Razão Social',
  cnpj: 'CNPJ Base',
  uf: 'UF',
  tipo: 'Tipo',
  regulada: 'Regulada',
  situacao: 'Status',
};

function initial(i: Instituicao | null): FormState {
  return {
    razaoSocial: i?.razaoSocial ?? '',
    cnpj: i?.cnpj ?? '',
    uf: i?.uf ?? null,
    tipo: i?.tipo ?? null,
    regulada: i?.regulada ?? false,
    situacao: i?.situacao ?? 'ATIVA',
  };
}

function missing(form: FormState): Required[] {
  const out: Required[] = [];
  if (!form.razaoSocial.trim()) out.push('razaoSocial');
  if (!form.cnpj) out.push('cnpj');
  if (!form.uf) out.push('uf');
  if (!form.tipo) out.push('tipo');
  return out;
}

export default function InstituicaoFormPage() {
  const state = (useLocation().state ?? {}) as InstituicaoFormState;
  const id = state.instFin;
  const navigate = useNavigate();
  const found = useApiQuery(instituicoes.getInstituicao, { params: { id: id ?? '' } }, { enabled: Boolean(id), refetchOnMount: 'always' });

  if (!id) return <InstituicaoForm key="new" instituicao={null} />;
  return (
    <RecordGate query={found} title="Editar Instituição Financeira" onBack={() => navigate(routePath('instituicao-financeira'))}>
      {(instituicao) => <InstituicaoForm key={id} instituicao={instituicao} />}
    </RecordGate>
  );
}

function InstituicaoForm({ instituicao }: { instituicao: Instituicao | null }) {
  const creating = instituicao === null;
  const navigate = useNavigate();
  const [submitted, setSubmitted] = useState(false);
  const create = useApiMutation(instituicoes.createInstituicaoAdmin);
  const update = useApiMutation(instituicoes.updateInstituicaoAdmin);
  // A field's server messages go when the field changes.
  const server = useServerFieldErrors(creating ? create.error : update.error);
  const saveError = server.error;
  const { form, set } = useFormFields(() => initial(instituicao), server);
  // The CNPJ cannot change once created: only a new institution's is checked.
  const cnpj = useValidityCheck(form.cnpj, isValidCnpjBase, creating);
  const absent = new Set(submitted ? missing(form) : []);
  const own = (field: Required) => {
    const out: string[] = [];
    if (absent.has(field)) out.push(message('campoObrigatorio', { field: LABELS[field] }));
    if (field === 'cnpj' && cnpj.invalid && !absent.has('cnpj')) out.push(MESSAGES.cnpjBaseInvalido);
    return out;
  };
  const invalid = (field: Required) => own(field).length > 0 || (saveError?.fieldErrors?.[field]?.length ?? 0) > 0;
  const situacoes = instituicao ? situacoesPermitidas(instituicao.situacao) : [];

  const back = () => navigate(routePath('instituicao-financeira'));
  const saved = useRecordSaved(instituicoes.getInstituicao, instituicoes.filtrarInstituicoes, back);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const cnpjOk = cnpj.check();
    if (missing(form).length > 0) {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    if (!cnpjOk || !form.uf || !form.tipo) return;
    const common = { razaoSocial: form.razaoSocial.trim(), uf: form.uf, tipo: form.tipo, regulada: form.regulada };
    try {
      if (instituicao) await update.mutateAsync({ body: { id: instituicao.id, ...common, situacao: form.situacao } });
      else await create.mutateAsync({ body: { ...common, cnpj: form.cnpj } });
    } catch {
      return;
    }
    saved();
  }

  return (
    <FormPage
      title={creating ? 'Nova Instituição Financeira' : 'Editar Instituição Financeira'}
      label="Instituição Financeira"
      onSubmit={onSubmit}
      footer={
        <>
          {instituicao && (
            <AuditFooter criadoEm={instituicao.createdAt} alteradoEm={instituicao.updatedAt} alteradoPor={instituicao.updatedBy} />
          )}
          <FormActions loading={create.isPending || update.isPending} onBack={back} />
        </>
      }
    >
      <FormField id="razaoSocial" label={LABELS.razaoSocial} required field="razaoSocial" error={saveError} messages={own('razaoSocial')}>
        <InputText
          id="razaoSocial"
          maxLength={150}
          value={form.razaoSocial}
          onChange={(e) => set('razaoSocial', e.target.value)}
          invalid={invalid('razaoSocial')}
          {...describedBy('razaoSocial', true)}
        />
      </FormField>
      <FormField id="cnpj" label={LABELS.cnpj} required field="cnpj" error={saveError} messages={own('cnpj')}>
        <UnmaskedInput
          id="cnpj"
          mask={MASKS.cnpjBase}
          normalize={normalizeCnpj}
          value={form.cnpj}
          disabled={!creating}
          onValueChange={(digits) => {
            set('cnpj', digits);
            cnpj.changed();
          }}
          onBlur={cnpj.check}
          invalid={invalid('cnpj')}
          {...describedBy('cnpj', true)}
        />
      </FormField>
      <FormField id="uf" label={LABELS.uf} required field="uf" error={saveError} messages={own('uf')}>
        <UfDropdown inputId="uf" value={form.uf} onChange={(uf) => set('uf', uf)} invalid={invalid('uf')} />
      </FormField>
      <FormField id="tipo" label={LABELS.tipo} required field="tipo" error={saveError} messages={own('tipo')}>
        <Dropdown
          inputId="tipo"
          options={[...TIPO_OPTIONS]}
          value={form.tipo}
          onChange={(e) => set('tipo', (e.value as InstituicaoTipo | undefined) ?? null)}
          placeholder="Selecione o tipo"
          invalid={invalid('tipo')}
          aria-required
        />
      </FormField>
      {instituicao && (
        <FormField id="situacao" label={LABELS.situacao} required field="situacao" error={saveError}>
          <Dropdown
            inputId="situacao"
            options={situacoes.map((s) => ({ value: s, label: situacaoLabel(s) }))}
            value={situacoes.includes(form.situacao) ? form.situacao : null}
            onChange={(e) => set('situacao', e.value as InstituicaoSituacao)}
            placeholder="Selecione o status"
            aria-required
          />
        </FormField>
      )}
      <div className="page-field">
        <div className="page-option">
          <Checkbox inputId="regulada" checked={form.regulada} onChange={(e) => set('regulada', e.checked === true)} />
          <label htmlFor="regulada">{LABELS.regulada}</label>
        </div>
      </div>
    </FormPage>
  );
}
