import '../../components/page-layout.css';
import './consentimento.css';
import { consentimento, instituicoes } from '@plac/shared/contracts';
import { AUTOCOMPLETE_DEBOUNCE_MS, AUTOCOMPLETE_MIN_CHARS, cnpjBase, formatCnpj, formatCnpjBase, isValidCnpjBase, normalizeCnpj, UF_SIGLAS } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { AutoComplete, type AutoCompleteCompleteEvent } from 'primereact/autocomplete';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useState } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { messagePath } from '../../app/paths';
import { callApi, useApiQuery, type ApiError } from '../../lib/api';
import { signOut } from '../../lib/signOut';
import { toast } from '../../lib/toast';
import { erroNovaFilial, filialFixa, type FilialEdit, type InstituicaoEdit, type Termo } from './model';

/**
 * emissor-termo (emissor/termo-aceitacao): the issuer's consent wizard of spec 1 section 4, after the
 * certificate login. Step 1 the consent texts (Next only once read and accepted), step 2 the branches,
 * step 3 the financial institutions, each with its monthly-billing switch. Saving sends the consent,
 * toasts, logs out and shows the message page; removing asks for confirmation, sends both values
 * false and does the same. Every save is a new version on the server (docs/consentimento.md).
 */

const PASSOS = [{ label: 'Termo de Consentimento' }, { label: 'Filiais' }, { label: 'Instituições Financeiras' }];
const UF_OPTIONS = UF_SIGLAS.map((uf) => ({ value: uf, label: uf }));
const ESTADO_LABEL: Record<Termo['estado'], string> = { NAO_CADASTRADO: 'Não cadastrado', REMOVIDO: 'Removido', AUTORIZADO: 'Autorizado' };

type Sugestao = { id: string; razaoSocial: string; cnpj: string; uf: string; situacao: string };

function filiaisIniciais(t: Termo): FilialEdit[] {
  const stored = t.filiais.map((f) => ({ cnpj: f.cnpj, razaoSocial: f.razaoSocial, email: f.email, uf: f.uf, termoFatMensal: f.termoFatMensal, persistida: true }));
  if (stored.some((f) => f.cnpj === t.cnpj)) return stored;
  // The certificate's own branch is always there (its e-mail and UF to be filled in the first time).
  return [{ cnpj: t.cnpj, razaoSocial: t.razaoSocial, email: '', uf: '', termoFatMensal: true, persistida: false }, ...stored];
}

function sair(titulo: string) {
  signOut({ to: messagePath(titulo, MESSAGES.consentimentoSessaoEncerrada) });
}

export default function TermoAceitacaoPage() {
  const termo = useApiQuery(consentimento.getTermo, {});
  if (!termo.data) {
    return (
      <>
        <h1 className="app-page-title">Termo de Aceitação</h1>
        <p>{termo.isError ? MESSAGES.buscaFalhou : 'Carregando…'}</p>
      </>
    );
  }
  return <Wizard termo={termo.data} />;
}

function Wizard({ termo }: { termo: Termo }) {
  const [passo, setPasso] = useState(0);
  const [aceite, setAceite] = useState(false);
  const [filiais, setFiliais] = useState<FilialEdit[]>(() => filiaisIniciais(termo));
  const [insts, setInsts] = useState<InstituicaoEdit[]>(() =>
    termo.inst_financeiras.map((i) => ({ id: i.id, razaoSocial: i.razaoSocial, cnpj: i.cnpj, uf: i.uf, situacao: i.situacao, termoFatMensal: i.termoFatMensal })),
  );
  const [salvando, setSalvando] = useState(false);
  const [remover, setRemover] = useState<true | null>(null);

  async function salvar() {
    const incompleta = filiais.find((f) => !f.razaoSocial.trim() || !f.email.trim() || !f.uf);
    if (incompleta) {
      toast.error(MESSAGES.camposObrigatorios);
      setPasso(1);
      return;
    }
    setSalvando(true);
    try {
      const r = await callApi(consentimento.salvarTermo, {
        body: {
          termoFatMensal: true,
          termoCompartNfe: true,
          filiais: filiais.map((f) => ({ cnpj: f.cnpj, razaoSocial: f.razaoSocial.trim(), email: f.email.trim(), uf: f.uf, termoFatMensal: f.termoFatMensal })),
          inst_financeiras: insts.map((i) => ({ id: i.id, termoFatMensal: i.termoFatMensal })),
          versao: termo.versao,
        },
      });
      toast.success(r.message);
      sair('Termo de Aceitação');
    } catch {
      // The client toasted the reason.
    } finally {
      setSalvando(false);
    }
  }

  async function removerConsentimento() {
    setRemover(null);
    try {
      const r = await callApi(consentimento.removerTermo, { body: { termoFatMensal: false, termoCompartNfe: false, versao: termo.versao } });
      toast.success(r.message);
      sair('Consentimento removido');
    } catch {
      // Toasted by the client.
    }
  }

  return (
    <>
      <div className="page-header">
        <h1 className="app-page-title">Termo de Aceitação</h1>
        <span className={`consent-estado consent-estado-${termo.estado.toLowerCase()}`}>Situação do consentimento: {ESTADO_LABEL[termo.estado]}</span>
      </div>
      <ol className="consent-passos" aria-label="Etapas do termo de aceitação">
        {PASSOS.map((p, i) => (
          <li key={p.label} className={i === passo ? 'consent-passo-atual' : undefined} aria-current={i === passo ? 'step' : undefined}>
            <span className="consent-passo-numero">{i + 1}</span> {p.label}
          </li>
        ))}
      </ol>

      {passo === 0 && (
        <section className="page-panel" aria-labelledby="passo-termo">
          <h2 id="passo-termo">Termo de Consentimento</h2>
          <p className="consent-empresa">
            <strong>{termo.razaoSocial}</strong> — CNPJ {formatCnpj(termo.cnpj)}
          </p>
          <div className="consent-texto">
            <h3>Faturamento mensal</h3>
            <p>{termo.termoFaturaMensalTexto}</p>
            <h3>Compartilhamento de NF-e</h3>
            <p>{termo.termoCompartNfeTexto}</p>
          </div>
          <div className="consent-aceite">
            <Checkbox inputId="consent-aceite" checked={aceite} onChange={(e) => setAceite(Boolean(e.checked))} />
            <label htmlFor="consent-aceite">Li e aceito os termos de consentimento</label>
          </div>
          <div className="page-actions">
            {termo.estado === 'AUTORIZADO' && (
              <Button type="button" label="Remover Consentimento" icon="pi pi-times" severity="danger" outlined onClick={() => setRemover(true)} />
            )}
            {aceite && <Button type="button" label="Próximo" icon="pi pi-arrow-right" iconPos="right" onClick={() => setPasso(1)} />}
          </div>
        </section>
      )}

      {passo === 1 && (
        <section className="page-panel" aria-labelledby="passo-filiais">
          <h2 id="passo-filiais">Filiais</h2>
          <Filiais termo={termo} filiais={filiais} onChange={setFiliais} consentido={aceite} />
          <div className="page-actions">
            <Button type="button" label="Anterior" icon="pi pi-arrow-left" severity="secondary" outlined onClick={() => setPasso(0)} />
            <Button type="button" label="Próximo" icon="pi pi-arrow-right" iconPos="right" onClick={() => setPasso(2)} />
          </div>
        </section>
      )}

      {passo === 2 && (
        <section className="page-panel" aria-labelledby="passo-instituicoes">
          <h2 id="passo-instituicoes">Instituições Financeiras</h2>
          <Instituicoes insts={insts} onChange={setInsts} />
          <div className="page-actions">
            <Button type="button" label="Anterior" icon="pi pi-arrow-left" severity="secondary" outlined onClick={() => setPasso(1)} />
            <Button type="button" label="Salvar" icon="pi pi-check" loading={salvando} onClick={() => void salvar()} />
          </div>
        </section>
      )}

      <ConfirmSimNao
        target={remover}
        message="Deseja remover o consentimento? As instituições financeiras deixarão de receber o seu faturamento."
        danger
        onConfirm={() => void removerConsentimento()}
        onClose={() => setRemover(null)}
      />
    </>
  );
}

/** The monthly-billing switch: a native checkbox with the switch role (one control, one label). */
function Interruptor({ label, checked, disabled = false, onChange }: { label: string; checked: boolean; disabled?: boolean; onChange: (v: boolean) => void }) {
  return <input type="checkbox" role="switch" className="consent-switch" aria-label={label} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />;
}

// ---- step 2: branches ----------------------------------------------------------------------------------

function Filiais({ termo, filiais, onChange, consentido }: { termo: Termo; filiais: FilialEdit[]; onChange: (f: FilialEdit[]) => void; consentido: boolean }) {
  const base = cnpjBase(termo.cnpj);
  const [nova, setNova] = useState({ cnpj: '', razaoSocial: '', email: '', uf: '' });
  const [erro, setErro] = useState<string | null>(null);

  const set = (cnpj: string, changes: Partial<FilialEdit>) => onChange(filiais.map((f) => (f.cnpj === cnpj ? { ...f, ...changes } : f)));

  function adicionar() {
    const problema = erroNovaFilial(nova.cnpj, base, filiais);
    if (problema) {
      setErro(problema);
      // A CNPJ of another base: the field goes back to the user's base.
      if (problema === MESSAGES.cnpjFilialForaDoBase) setNova((n) => ({ ...n, cnpj: base }));
      return;
    }
    if (!nova.razaoSocial.trim() || !nova.email.trim() || !nova.uf) {
      setErro(MESSAGES.camposObrigatorios);
      return;
    }
    setErro(null);
    onChange([...filiais, { cnpj: normalizeCnpj(nova.cnpj), razaoSocial: nova.razaoSocial.trim(), email: nova.email.trim(), uf: nova.uf, termoFatMensal: true, persistida: false }]);
    setNova({ cnpj: '', razaoSocial: '', email: '', uf: '' });
  }

  return (
    <>
      <DataTable value={filiais} dataKey="cnpj" stripedRows emptyMessage={MESSAGES.nenhumRegistro} pt={{ table: { 'aria-label': 'Filiais' } }}>
        <Column header="CNPJ" body={(f: FilialEdit) => formatCnpj(f.cnpj)} />
        <Column
          header="Razão Social"
          body={(f: FilialEdit) => (
            <InputText aria-label={`Razão Social da filial ${formatCnpj(f.cnpj)}`} value={f.razaoSocial} maxLength={150} onChange={(e) => set(f.cnpj, { razaoSocial: e.target.value })} />
          )}
        />
        <Column
          header="E-mail"
          body={(f: FilialEdit) => (
            <InputText aria-label={`E-mail da filial ${formatCnpj(f.cnpj)}`} type="email" value={f.email} maxLength={100} onChange={(e) => set(f.cnpj, { email: e.target.value })} />
          )}
        />
        <Column
          header="UF"
          body={(f: FilialEdit) => (
            <Dropdown
              aria-label={`UF da filial ${formatCnpj(f.cnpj)}`}
              options={UF_OPTIONS}
              value={f.uf || null}
              // The own branch's UF is set once (its first consent); a persisted branch's never changes.
              disabled={f.persistida}
              onChange={(e) => set(f.cnpj, { uf: (e.value as string | undefined) ?? '' })}
              placeholder="UF"
            />
          )}
        />
        <Column
          header="Fatura Mensal"
          body={(f: FilialEdit) => (
            <Interruptor label={`Fatura mensal da filial ${formatCnpj(f.cnpj)}`} checked={f.termoFatMensal} disabled={!consentido} onChange={(v) => set(f.cnpj, { termoFatMensal: v })} />
          )}
        />
        <Column
          header="Ações"
          body={(f: FilialEdit) =>
            filialFixa(f, termo.cnpj) ? null : (
              <Button
                type="button"
                icon="pi pi-trash"
                rounded
                text
                severity="danger"
                aria-label={`Remover filial ${formatCnpj(f.cnpj)}`}
                onClick={() => onChange(filiais.filter((x) => x.cnpj !== f.cnpj))}
              />
            )
          }
        />
      </DataTable>

      <fieldset className="consent-nova">
        <legend>Nova filial</legend>
        <div className="page-grid">
          <div className="page-field">
            <label htmlFor="filial-cnpj">CNPJ</label>
            <InputText
              id="filial-cnpj"
              value={nova.cnpj}
              maxLength={18}
              invalid={erro !== null}
              aria-describedby="filial-erro"
              onChange={(e) => setNova({ ...nova, cnpj: e.target.value.toUpperCase() })}
            />
          </div>
          <div className="page-field">
            <label htmlFor="filial-razao">Razão Social</label>
            <InputText id="filial-razao" value={nova.razaoSocial} maxLength={150} onChange={(e) => setNova({ ...nova, razaoSocial: e.target.value })} />
          </div>
          <div className="page-field">
            <label htmlFor="filial-email">E-mail</label>
            <InputText id="filial-email" type="email" value={nova.email} maxLength={100} onChange={(e) => setNova({ ...nova, email: e.target.value })} />
          </div>
          <div className="page-field">
            <label htmlFor="filial-uf">UF</label>
            <Dropdown inputId="filial-uf" options={UF_OPTIONS} value={nova.uf || null} onChange={(e) => setNova({ ...nova, uf: (e.value as string | undefined) ?? '' })} placeholder="Selecione" />
          </div>
        </div>
        <p id="filial-erro" className="field-error" role="alert">
          {erro}
        </p>
        <div className="page-actions">
          <Button type="button" label="Adicionar Filial" icon="pi pi-plus" onClick={adicionar} />
        </div>
      </fieldset>
    </>
  );
}

// ---- step 3: institutions --------------------------------------------------------------------------------

interface NovaInst {
  id: string | null;
  razaoSocial: string;
  cnpj: string;
  uf: string;
}

function Instituicoes({ insts, onChange }: { insts: InstituicaoEdit[]; onChange: (i: InstituicaoEdit[]) => void }) {
  const [escolha, setEscolha] = useState<Sugestao | null>(null);
  const [texto, setTexto] = useState<string | null>(null);
  const [sugestoes, setSugestoes] = useState<Sugestao[]>([]);
  const [dialogo, setDialogo] = useState<NovaInst | null>(null);
  const [apagar, setApagar] = useState<InstituicaoEdit | null>(null);

  async function completar(event: AutoCompleteCompleteEvent) {
    const q = event.query.trim();
    try {
      // More than 2 characters: search (300 ms after the last key); otherwise the top 5.
      setSugestoes(q.length >= AUTOCOMPLETE_MIN_CHARS ? await callApi(instituicoes.emissorAutocomplete, { query: { razaoSocial: q } }) : await callApi(instituicoes.emissorTop5));
    } catch {
      setSugestoes([]);
    }
  }

  function adicionar(i: Sugestao) {
    // Adding from the autocomplete ignores duplicates by CNPJ.
    if (!insts.some((x) => x.cnpj === i.cnpj)) onChange([...insts, { id: i.id, razaoSocial: i.razaoSocial, cnpj: i.cnpj, uf: i.uf, situacao: i.situacao, termoFatMensal: true }]);
    setEscolha(null);
    setTexto(null);
  }

  const set = (id: string, changes: Partial<InstituicaoEdit>) => onChange(insts.map((i) => (i.id === id ? { ...i, ...changes } : i)));

  async function excluir(i: InstituicaoEdit) {
    setApagar(null);
    if (i.situacao === 'NOVO') {
      try {
        const r = await callApi(instituicoes.emissorDelete, { body: { id: i.id } });
        toast.success(r.message);
      } catch {
        return;
      }
    }
    onChange(insts.filter((x) => x.id !== i.id));
  }

  return (
    <>
      <div className="page-grid">
        <div className="page-field consent-busca">
          <label htmlFor="inst-busca">Instituição Financeira</label>
          <AutoComplete
            inputId="inst-busca"
            value={texto ?? escolha ?? ''}
            suggestions={sugestoes}
            completeMethod={(e) => void completar(e)}
            delay={AUTOCOMPLETE_DEBOUNCE_MS}
            field="razaoSocial"
            itemTemplate={(i: Sugestao) => `${i.razaoSocial} - ${formatCnpjBase(i.cnpj)}`}
            dropdown
            showEmptyMessage
            emptyMessage={MESSAGES.nenhumRegistro}
            placeholder="Nome ou CNPJ base"
            onChange={(e) => {
              const v = e.value as Sugestao | string | null;
              if (typeof v === 'string') {
                setTexto(v);
                setEscolha(null);
              } else {
                setTexto(null);
                setEscolha(v ?? null);
              }
            }}
          />
        </div>
      </div>
      <div className="page-actions">
        <Button type="button" label="Adicionar Instituição" icon="pi pi-plus" disabled={!escolha} onClick={() => escolha && adicionar(escolha)} />
        <Button type="button" label="Nova Instituição" icon="pi pi-building" severity="secondary" outlined onClick={() => setDialogo({ id: null, razaoSocial: '', cnpj: '', uf: '' })} />
      </div>

      <DataTable value={insts} dataKey="id" stripedRows emptyMessage={MESSAGES.nenhumRegistro} pt={{ table: { 'aria-label': 'Instituições financeiras' } }}>
        <Column header="Razão Social" field="razaoSocial" />
        <Column header="CNPJ Base" body={(i: InstituicaoEdit) => formatCnpjBase(i.cnpj)} />
        <Column header="UF" field="uf" />
        <Column header="Situação" field="situacao" />
        <Column
          header="Fatura Mensal"
          body={(i: InstituicaoEdit) => (
            <Interruptor label={`Fatura mensal de ${i.razaoSocial}`} checked={i.termoFatMensal} onChange={(v) => set(i.id, { termoFatMensal: v })} />
          )}
        />
        <Column
          header="Ações"
          body={(i: InstituicaoEdit) => (
            <span className="consent-acoes">
              {i.situacao === 'NOVO' && (
                <Button
                  type="button"
                  icon="pi pi-pencil"
                  rounded
                  text
                  aria-label={`Editar ${i.razaoSocial}`}
                  onClick={() => setDialogo({ id: i.id, razaoSocial: i.razaoSocial, cnpj: i.cnpj, uf: i.uf })}
                />
              )}
              <Button type="button" icon="pi pi-trash" rounded text severity="danger" aria-label={`Remover ${i.razaoSocial}`} onClick={() => setApagar(i)} />
            </span>
          )}
        />
      </DataTable>

      <NovaInstituicaoDialog
        value={dialogo}
        onClose={() => setDialogo(null)}
        onSaved={(i) => {
          setDialogo(null);
          if (insts.some((x) => x.id === i.id)) set(i.id, { razaoSocial: i.razaoSocial, uf: i.uf });
          else onChange([...insts, { id: i.id, razaoSocial: i.razaoSocial, cnpj: i.cnpj, uf: i.uf, situacao: i.situacao, termoFatMensal: true }]);
        }}
      />
      <ConfirmSimNao
        target={apagar}
        message={apagar?.situacao === 'NOVO' ? 'Deseja excluir esta instituição financeira cadastrada por você?' : 'Deseja retirar esta instituição financeira do consentimento?'}
        danger
        onConfirm={(i) => void excluir(i)}
        onClose={() => setApagar(null)}
      />
    </>
  );
}

function NovaInstituicaoDialog({ value, onClose, onSaved }: { value: NovaInst | null; onClose: () => void; onSaved: (i: Sugestao) => void }) {
  return (
    <AppDialog header={value?.id ? 'Editar Instituição Financeira' : 'Nova Instituição Financeira'} visible={value !== null} onHide={onClose} style={{ width: 'min(500px, 95vw)' }}>
      {value && <NovaInstituicaoForm key={value.id ?? 'nova'} inicial={value} onClose={onClose} onSaved={onSaved} />}
    </AppDialog>
  );
}

function NovaInstituicaoForm({ inicial, onClose, onSaved }: { inicial: NovaInst; onClose: () => void; onSaved: (i: Sugestao) => void }) {
  const [form, setForm] = useState<NovaInst>(inicial);
  const [erro, setErro] = useState<string | null>(null);
  const [salvando, setSalvando] = useState(false);

  async function salvar() {
    if (!form.razaoSocial.trim() || !form.uf || (!form.id && !form.cnpj)) {
      setErro(MESSAGES.camposObrigatorios);
      return;
    }
    if (!form.id && !isValidCnpjBase(form.cnpj)) {
      setErro(MESSAGES.cnpjBaseInstituicaoInvalido);
      return;
    }
    setSalvando(true);
    try {
      const saved = form.id
        ? await callApi(instituicoes.emissorUpdate, { body: { id: form.id, razaoSocial: form.razaoSocial.trim(), uf: form.uf } })
        : await callApi(instituicoes.emissorCreate, { body: { razaoSocial: form.razaoSocial.trim(), cnpj: normalizeCnpj(form.cnpj), uf: form.uf } });
      toast.success(form.id ? MESSAGES.instituicaoAtualizada : MESSAGES.instituicaoCriada);
      onSaved(saved);
    } catch (error) {
      const e = error as ApiError;
      if (e.fieldErrors?.cnpj) setErro(e.fieldErrors.cnpj[0] ?? null);
    } finally {
      setSalvando(false);
    }
  }

  return (
    <>
      <div className="page-field">
        <label htmlFor="nova-inst-razao">Razão Social</label>
        <InputText id="nova-inst-razao" value={form.razaoSocial} maxLength={150} onChange={(e) => setForm({ ...form, razaoSocial: e.target.value })} />
      </div>
      <div className="page-field">
        <label htmlFor="nova-inst-cnpj">CNPJ Base</label>
        <InputText
          id="nova-inst-cnpj"
          value={form.id ? formatCnpjBase(form.cnpj) : form.cnpj}
          disabled={form.id !== null}
          maxLength={10}
          aria-describedby="nova-inst-erro"
          onChange={(e) => setForm({ ...form, cnpj: e.target.value.toUpperCase() })}
        />
      </div>
      <div className="page-field">
        <label htmlFor="nova-inst-uf">UF</label>
        <Dropdown inputId="nova-inst-uf" options={UF_OPTIONS} value={form.uf || null} onChange={(e) => setForm({ ...form, uf: (e.value as string | undefined) ?? '' })} placeholder="Selecione" />
      </div>
      <p id="nova-inst-erro" className="field-error" role="alert">
        {erro}
      </p>
      <div className="page-actions">
        <Button type="button" label="Cancelar" severity="secondary" outlined onClick={onClose} />
        <Button type="button" label="Salvar" icon="pi pi-check" loading={salvando} onClick={() => void salvar()} />
      </div>
    </>
  );
}
