import '../../components/page-layout.css';
import '../../components/instituicao.css';
import { useQueryClient } from '@tanstack/react-query';
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
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputMask } from 'primereact/inputmask';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { FormField } from '../../components/FormField';
import { apiQueryKey, useApiMutation, useApiQuery, useServerFieldErrors } from '../../lib/api';
import { toast } from '../../lib/toast';
import { situacaoLabel, TIPO_OPTIONS, UF_OPTIONS, type Instituicao, type InstituicaoFormState } from './model';
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
  if (!found.isFetchedAfterMount) {
    return (
      <p role="status">
        <i className="pi pi-spin pi-spinner" aria-hidden="true" /> Carregando...
      </p>
    );
  }
  if (!found.data) {
    return (
      <>
        <h1 className="app-page-title">Editar Instituição Financeira</h1>
        <p>{MESSAGES.recursoNaoEncontrado}</p>
        <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={() => navigate(routePath('instituicao-financeira'))} />
      </>
    );
  }
  return <InstituicaoForm key={id} instituicao={found.data} />;
}

function InstituicaoForm({ instituicao }: { instituicao: Instituicao | null }) {
  const creating = instituicao === null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState(() => initial(instituicao));
  const [submitted, setSubmitted] = useState(false);
  const [cnpjInvalido, setCnpjInvalido] = useState(false);
  const create = useApiMutation(instituicoes.createInstituicaoAdmin);
  const update = useApiMutation(instituicoes.updateInstituicaoAdmin);
  // A field's server messages go when the field changes.
  const server = useServerFieldErrors(creating ? create.error : update.error);
  const saveError = server.error;

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    server.clear(key);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const absent = new Set(submitted ? missing(form) : []);
  const own = (field: Required) => {
    const out: string[] = [];
    if (absent.has(field)) out.push(message('campoObrigatorio', { field: LABELS[field] }));
    if (field === 'cnpj' && cnpjInvalido && !absent.has('cnpj')) out.push(MESSAGES.cnpjBaseInvalido);
    return out;
  };
  const invalid = (field: Required) => own(field).length > 0 || (saveError?.fieldErrors?.[field]?.length ?? 0) > 0;
  const situacoes = instituicao ? situacoesPermitidas(instituicao.situacao) : [];

  const back = () => navigate(routePath('instituicao-financeira'));

  function checkCnpj(): boolean {
    const bad = creating && form.cnpj !== '' && !isValidCnpjBase(form.cnpj);
    setCnpjInvalido(bad);
    return !bad;
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const cnpjOk = checkCnpj();
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
    toast.success(MESSAGES.registroSalvo);
    queryClient.removeQueries({ queryKey: apiQueryKey(instituicoes.getInstituicao) });
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(instituicoes.filtrarInstituicoes) });
    back();
  }

  return (
    <>
      <h1 className="app-page-title">{creating ? 'Nova Instituição Financeira' : 'Editar Instituição Financeira'}</h1>
      <form className="page-panel" onSubmit={onSubmit} noValidate aria-label="Instituição Financeira">
        <div className="page-grid">
          <FormField id="razaoSocial" label={LABELS.razaoSocial} required field="razaoSocial" error={saveError} messages={own('razaoSocial')}>
            <InputText
              id="razaoSocial"
              maxLength={150}
              value={form.razaoSocial}
              onChange={(e) => set('razaoSocial', e.target.value)}
              invalid={invalid('razaoSocial')}
              aria-required
              aria-describedby="razaoSocial-error"
            />
          </FormField>
          <FormField id="cnpj" label={LABELS.cnpj} required field="cnpj" error={saveError} messages={own('cnpj')}>
            <InputMask
              id="cnpj"
              mask={MASKS.cnpjBase}
              unmask
              autoClear={false}
              value={form.cnpj}
              disabled={!creating}
              onChange={(e) => {
                set('cnpj', normalizeCnpj(e.value ?? ''));
                if (cnpjInvalido) setCnpjInvalido(false);
              }}
              onBlur={checkCnpj}
              invalid={invalid('cnpj')}
              aria-required
              aria-describedby="cnpj-error"
            />
          </FormField>
          <FormField id="uf" label={LABELS.uf} required field="uf" error={saveError} messages={own('uf')}>
            <Dropdown
              inputId="uf"
              options={UF_OPTIONS}
              value={form.uf}
              onChange={(e) => set('uf', (e.value as string | undefined) ?? null)}
              filter
              filterBy="label"
              placeholder="Selecione a UF"
              invalid={invalid('uf')}
              aria-required
            />
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
        </div>

        {instituicao && (
          <AuditFooter criadoEm={instituicao.createdAt} alteradoEm={instituicao.updatedAt} alteradoPor={instituicao.updatedBy} />
        )}

        <div className="page-actions">
          <Button type="submit" label="Salvar" icon="pi pi-check" loading={create.isPending || update.isPending} />
          <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={back} />
        </div>
      </form>
    </>
  );
}
