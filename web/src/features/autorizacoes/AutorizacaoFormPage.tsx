import '../../components/page-layout.css';
import '../../components/instituicao.css';
import { useQueryClient } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { instituicoes } from '@plac/shared/contracts';
import {
  formatCnpj,
  isPdfFileName,
  MAX_ARQUIVO_BYTES,
  podeEnviarArquivo,
  podeSalvarAutorizacao,
  statusAutorizacaoPermitidos,
  type AutorizacaoStatus,
} from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Tooltip } from 'primereact/tooltip';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { FormPage } from '../../components/FormPage';
import { CADASTRAR, FormActions, LIMPAR, SALVAR } from '../../components/FormActions';
import { describedBy, FormField } from '../../components/FormField';
import { RecordGate } from '../../components/RecordStatus';
import { useRecordSaved } from '../../lib/record-saved';
import { apiQueryKey, useApiMutation, useApiQuery } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useCurrentUser } from '../../lib/session';
import { toast } from '../../lib/toast';
import { InstituicaoAutoComplete, instituicaoLabel } from '../../components/InstituicaoAutoComplete';
import type { InstituicaoResumo } from '../../components/InstituicaoAutoComplete';
import { DICA_UPLOAD, fileToBase64, statusLabel, type Autorizacao, type AutorizacaoFormState, type ClienteOpcao } from './model';
import { NovaInstituicaoDialog } from './NovaInstituicaoDialog';

/**
 * autorizacao-inf-cliente-form, option new or edit, with the client
 * in the router state; without one it goes back to the list with 'Sem dados do Cliente'.
 */
export default function AutorizacaoFormPage() {
  const state = (useLocation().state ?? {}) as AutorizacaoFormState;
  const navigate = useNavigate();
  const cliente = state.cliente;

  // Once: the effect runs again while the navigation is under way (and twice in StrictMode), and
  // each run used to add its own toast.
  const warned = useRef(false);
  useEffect(() => {
    if (cliente || warned.current) return;
    warned.current = true;
    toast.error(MESSAGES.semDadosCliente);
    navigate(routePath('autorizacao-inf-cliente-list'), { replace: true });
  }, [cliente, navigate]);

  if (!cliente) return null;
  if (state.option === 'edit' && state.cnpjInstFinanceira) {
    return <EdicaoLoader key={`${cliente.cnpj}-${state.cnpjInstFinanceira}`} cliente={cliente} cnpjInst={state.cnpjInstFinanceira} />;
  }
  return <NovaAutorizacao cliente={cliente} />;
}

const voltar = () => routePath('autorizacao-inf-cliente-list');

/** The visible labels, also for 'O campo {campo} é obrigatório.'. */
const LABELS = {
  instituicao: 'Instituição Financeira',
  arquivo: 'Autorização assinada (PDF)',
  justificativa: 'Justificativa',
} as const;

/** The chosen file checked in the browser: .pdf and size (the server checks the content too). */
function checkFile(file: File): string | null {
  if (!isPdfFileName(file.name)) return MESSAGES.somentePdf;
  if (file.size > MAX_ARQUIVO_BYTES) return MESSAGES.arquivoGrandeDemais;
  return null;
}

function FileInput({ id, file, onFile, disabled }: { id: string; file: File | null; onFile: (file: File | null) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!chosen) return;
    const problem = checkFile(chosen);
    if (problem) {
      toast.error(problem);
      onFile(null);
      return;
    }
    onFile(chosen);
  }
  function download() {
    if (!file) return;
    const url = URL.createObjectURL(file);
    const a = document.createElement('a');
    a.href = url;
    a.download = file.name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return (
    <div className="inst-file">
      <input ref={input} id={id} type="file" accept=".pdf,application/pdf" hidden onChange={onChange} disabled={disabled} aria-label="Arquivo PDF" />
      <Button type="button" label="Selecionar PDF" icon="pi pi-upload" outlined onClick={() => input.current?.click()} disabled={disabled ?? false} />
      <i className="pi pi-info-circle inst-upload-dica" role="img" data-pr-tooltip={DICA_UPLOAD} aria-label={DICA_UPLOAD} />
      <Tooltip target=".inst-upload-dica" position="top" />
      {file && (
        <>
          <span>{file.name}</span>
          <Button type="button" icon="pi pi-download" text aria-label={`Baixar ${file.name}`} onClick={download} />
        </>
      )}
    </div>
  );
}

function NovaAutorizacao({ cliente }: { cliente: ClienteOpcao }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [instituicao, setInstituicao] = useState<InstituicaoResumo | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [dialog, setDialog] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const create = useApiMutation(instituicoes.createAutorizacao);

  const required = (ok: boolean, label: string) => (submitted && !ok ? [message('campoObrigatorio', { field: label })] : []);

  function limpar() {
    setInstituicao(null);
    setFile(null);
    setSubmitted(false);
    create.reset();
    setFormKey((k) => k + 1);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!instituicao || !file) {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    try {
      const arquivo = await fileToBase64(file);
      await create.mutateAsync({ body: { cliente: cliente.cnpj, instituicaoFinanceira: instituicao.cnpj, arquivo, nomeArquivo: file.name } });
    } catch {
      return;
    }
    toast.success(MESSAGES.autorizacaoCriada);
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(instituicoes.listAutorizacoes) });
    navigate(voltar());
  }

  return (
    <>
      <FormPage
        title="Nova Autorização de Instituição Financeira"
        label="Autorização"
        onSubmit={onSubmit}
        footer={
          <FormActions submit={CADASTRAR} loading={create.isPending} back={LIMPAR} onBack={limpar}>
            <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" text onClick={() => navigate(voltar())} />
          </FormActions>
        }
      >
        <FormField id="cliente" label="Cliente" field="cliente" error={create.error}>
          <InputText id="cliente" value={`${cliente.razaoSocial} - ${formatCnpj(cliente.cnpj)}`} readOnly disabled />
        </FormField>
        <FormField
          id="instituicao"
          label={LABELS.instituicao}
          required
          field="instituicaoFinanceira"
          error={create.error}
          messages={required(instituicao !== null, LABELS.instituicao)}
        >
          <div className="inst-file">
            <InstituicaoAutoComplete key={formKey} inputId="instituicao" value={instituicao} onChange={setInstituicao} aria-describedby="instituicao-error" />
            <Button type="button" icon="pi pi-plus" label="Nova Instituição" outlined onClick={() => setDialog(true)} />
          </div>
        </FormField>
        <FormField id="arquivo" label={LABELS.arquivo} required field="arquivo" error={create.error} messages={required(file !== null, LABELS.arquivo)}>
          <FileInput id="arquivo" file={file} onFile={setFile} />
        </FormField>
      </FormPage>
      <NovaInstituicaoDialog visible={dialog} onHide={() => setDialog(false)} onCreated={(i) => setInstituicao(i)} />
    </>
  );
}

function EdicaoLoader({ cliente, cnpjInst }: { cliente: ClienteOpcao; cnpjInst: string }) {
  const navigate = useNavigate();
  const found = useApiQuery(instituicoes.getAutorizacao, { query: { cnpjCliente: cliente.cnpj, cnpjInstFinanceira: cnpjInst } }, { refetchOnMount: 'always' });
  return (
    <RecordGate query={found} title="Editar Autorização" onBack={() => navigate(voltar())}>
      {(autorizacao) => <EdicaoAutorizacao cliente={cliente} autorizacao={autorizacao} />}
    </RecordGate>
  );
}

function EdicaoAutorizacao({ cliente, autorizacao }: { cliente: ClienteOpcao; autorizacao: Autorizacao }) {
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const navigate = useNavigate();
  const original = autorizacao.status;
  const [status, setStatus] = useState<AutorizacaoStatus>(original);
  const [justificativa, setJustificativa] = useState(autorizacao.justificativa ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const update = useApiMutation(instituicoes.updateAutorizacao);
  const saved = useRecordSaved(instituicoes.getAutorizacao, instituicoes.listAutorizacoes, () => navigate(voltar()));

  const opcoes = statusAutorizacaoPermitidos(original, user.roles).map((s) => ({ value: s, label: statusLabel(s) }));
  const mudou = status !== original;
  const upload = podeEnviarArquivo(original, user.roles);
  const salvar = podeSalvarAutorizacao(original, user.roles);
  const justificativaFalta = admin && mudou && justificativa.trim() === '';

  function changeStatus(next: AutorizacaoStatus) {
    setStatus(next);
    // A change clears the justification; back to the original restores its text.
    setJustificativa(next === original ? (autorizacao.justificativa ?? '') : '');
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (justificativaFalta) {
      toast.error(MESSAGES.camposObrigatorios);
      return;
    }
    const base = { cnpjCliente: autorizacao.cnpjCliente, cnpjInstFinanceira: autorizacao.cnpjInstFinanceira };
    try {
      if (admin) {
        await update.mutateAsync({ body: { ...base, status, justificativa: justificativa.trim() } });
      } else {
        const arquivo = file ? { arquivo: await fileToBase64(file), nomeArquivo: file.name } : {};
        await update.mutateAsync({ body: { ...base, ...arquivo } });
      }
    } catch {
      return;
    }
    saved(MESSAGES.autorizacaoAtualizada);
  }

  const instituicao = { id: '', razaoSocial: autorizacao.razaoSocialInstFinanceira, cnpj: autorizacao.cnpjInstFinanceira, uf: '', situacao: 'ATIVA' as const };

  return (
    <FormPage
      title="Editar Autorização de Instituição Financeira"
      label="Autorização"
      onSubmit={onSubmit}
      footer={
        <>
          {/* Only who may save the authorisation in its status gets the button. */}
          <FormActions submit={salvar ? SALVAR : null} loading={update.isPending} onBack={() => navigate(voltar())} />
        </>
      }
    >
      <FormField id="cliente" label="Cliente" field="cnpjCliente" error={update.error}>
        <InputText id="cliente" value={`${cliente.razaoSocial || autorizacao.razaoSocialCliente} - ${formatCnpj(autorizacao.cnpjCliente)}`} readOnly disabled />
      </FormField>
      <FormField id="instituicao" label="Instituição Financeira" field="cnpjInstFinanceira" error={update.error}>
        <InputText id="instituicao" value={instituicaoLabel(instituicao)} readOnly disabled />
      </FormField>
      <FormField id="status" label="Status" field="status" error={update.error}>
        <Dropdown inputId="status" options={opcoes} value={status} onChange={(e) => changeStatus(e.value as AutorizacaoStatus)} disabled={!admin} />
      </FormField>
      <FormField id="dataAutorizacao" label="Data Autorização" field="dataAutorizacao">
        <InputText id="dataAutorizacao" value={formatDateTime(autorizacao.dataAutorizacao)} readOnly disabled />
      </FormField>
      <FormField id="dataAtualizacao" label="Data Atualização" field="dataAtualizacao">
        <InputText id="dataAtualizacao" value={formatDateTime(autorizacao.dataAtualizacao)} readOnly disabled />
      </FormField>
      <div className="page-field page-field-wide">
        <FormField
          id="justificativa"
          label={LABELS.justificativa}
          required={admin && mudou}
          field="justificativa"
          error={update.error}
          messages={submitted && justificativaFalta ? [message('campoObrigatorio', { field: LABELS.justificativa })] : []}
        >
          <InputTextarea
            id="justificativa"
            rows={4}
            maxLength={1000}
            value={justificativa}
            onChange={(e) => setJustificativa(e.target.value)}
            disabled={!admin}
            invalid={submitted && justificativaFalta}
            {...describedBy('justificativa')}
          />
        </FormField>
      </div>
      <FormField id="arquivo" label="Autorização assinada (PDF)" field="arquivo" error={update.error}>
        <div className="inst-file">
          {autorizacao.urlArquivo && (
            <a href={autorizacao.urlArquivo} download={autorizacao.nomeArquivo ?? 'autorizacao.pdf'} className="p-button p-button-text">
              <i className="pi pi-download" aria-hidden="true" />
              &nbsp;{autorizacao.nomeArquivo ?? 'autorizacao.pdf'}
            </a>
          )}
          {upload && <FileInput id="arquivo" file={file} onFile={setFile} />}
        </div>
      </FormField>
    </FormPage>
  );
}
