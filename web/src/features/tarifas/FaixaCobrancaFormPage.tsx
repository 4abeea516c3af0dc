import '../../components/page-layout.css';
import './tarifas.css';
import { useQueryClient } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { tarifas } from '@plac/shared/contracts';
import { formatMonth, nextMonth, parseBRL, previousMonth, validarFaixas } from '@plac/shared/domain';
import { MESSAGES } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { CharCounter } from '../../components/CharCounter';
import { FormActions } from '../../components/FormActions';
import { FormField } from '../../components/FormField';
import { Loading, RecordNotFound } from '../../components/RecordStatus';
import { TextField } from '../../components/TextField';
import { apiQueryKey, isApiError, useApiMutation, useApiQuery } from '../../lib/api';
import { mesIso } from '../../lib/calendar';
import { formatIntervalo, formatQuantidade } from '../../lib/format';
import { toast } from '../../lib/toast';
import { centavosTexto, mesParaData, milesimosTexto, parseMilesimos, recalcularMinimos, type FaixaLinha, type Tarifacao, type Versao } from './model';
import type { NovaTarifaState } from './NovaTarifa';

/**
 * faixa-cobranca-form and faixa-cobranca-edit (spec 3, 2.2, 3.3-3.5, 4.1, 5.1): a band group with its
 * tariff group. Three modes:
 * - novo: a new group, starting from a copy of the current one; the current group's end month
 *   (minimum: this month) and the new start, the month after;
 * - tarifa: a new tariff on the current bands (read-only), from the start month chosen on the view;
 * - edicao: the draft — bands (unless they are the current ones), values, names, subscription and
 *   its start month (minimum: next month), the current group's end following.
 */

type Modo = 'novo' | 'tarifa' | 'edicao';

interface Form {
  nomeGrupoFaixa: string;
  /** undefined: not chosen yet; null: none. */
  faixaPromocional: number | null | undefined;
  /** The current group's end month (novo, tarifa) or the draft's start (edicao), 'YYYY-MM'. */
  mes: string;
  faixas: FaixaLinha[];
  nomeGrupoTarifa: string;
  assinatura: string;
  /** Per service id, the value text of each band. */
  valores: Record<number, string[]>;
}

const SEM_PROMOCIONAL = 0;

function inicial(modo: Modo, t: Tarifacao, novaTarifa: { inicio: string } | undefined): Form {
  const base: Versao | null = modo === 'edicao' ? t.elaboracao : t.vigente;
  const faixas = base?.grupoFaixa.faixas.map((f) => ({ qtdMinima: f.qtdMinima, qtdMaxima: f.qtdMaxima === null ? '' : String(f.qtdMaxima) })) ?? [{ qtdMinima: 1, qtdMaxima: '' }];
  const promo = base?.grupoFaixa.faixaPromocionalId;
  const posicaoPromo = promo ? base!.grupoFaixa.faixas.findIndex((f) => f.faixaId === promo) + 1 : null;
  return {
    nomeGrupoFaixa: base?.grupoFaixa.descricao ?? '',
    faixaPromocional: modo === 'novo' ? undefined : posicaoPromo,
    mes: modo === 'edicao' ? (t.elaboracao?.grupoTarifa.dtVigenciaInicial ?? nextMonth(t.mesAtual)) : novaTarifa ? previousMonth(novaTarifa.inicio) : t.mesAtual,
    faixas,
    nomeGrupoTarifa: modo === 'tarifa' ? '' : (base?.grupoTarifa.descricao ?? ''),
    assinatura: base ? centavosTexto(base.grupoTarifa.assinatura) : '',
    valores: Object.fromEntries((base?.grupoTarifa.rows ?? []).map((r) => [r.servId, r.valores.map((v) => milesimosTexto(v.valor))])),
  };
}

export default function FaixaCobrancaFormPage() {
  const { pathname, state } = useLocation();
  const modoRota: Modo = pathname.endsWith(routePath('faixa-cobranca-edit')) ? 'edicao' : 'novo';
  const novaTarifa = modoRota === 'novo' ? (state as NovaTarifaState | null)?.novaTarifa : undefined;
  const modo: Modo = novaTarifa ? 'tarifa' : modoRota;
  const query = useApiQuery(tarifas.getTarifacao, {}, { refetchOnMount: 'always' });
  const servicos = useApiQuery(tarifas.servicosTarifa, {});
  const navigate = useNavigate();
  const titulo = modo === 'edicao' ? 'Editar Faixa de Cobrança e Tarifação' : modo === 'tarifa' ? 'Nova Tarifa' : 'Nova Faixa de Cobrança e Tarifação';

  if (!query.isFetchedAfterMount || !servicos.data || !query.data) {
    return (
      <>
        <h1 className="app-page-title">{titulo}</h1>
        <Loading />
      </>
    );
  }
  const t = query.data;
  const indisponivel = modo === 'edicao' ? !t.elaboracao : modo === 'tarifa' ? !t.vigente || !t.novoPermitido : !t.novoPermitido;
  if (indisponivel) {
    const text = modo === 'edicao' ? MESSAGES.semTarifacaoElaboracao : MESSAGES.tarifacaoEmElaboracao;
    return <RecordNotFound title={titulo} text={text} onBack={() => navigate(routePath('faixa-cobranca-view'))} />;
  }
  return <FaixaForm key={modo} modo={modo} tarifacao={t} servicos={servicos.data} novaTarifa={novaTarifa} titulo={titulo} />;
}

function FaixaForm({
  modo,
  tarifacao: t,
  servicos,
  novaTarifa,
  titulo,
}: {
  modo: Modo;
  tarifacao: Tarifacao;
  servicos: { id: number; descricao: string }[];
  novaTarifa: { inicio: string } | undefined;
  titulo: string;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState(() => inicial(modo, t, novaTarifa));
  const [submitted, setSubmitted] = useState(false);
  const [erroFaixa, setErroFaixa] = useState<Record<number, string>>({});
  const create = useApiMutation(tarifas.createFaixas, { notify: false });
  const createTarifa = useApiMutation(tarifas.createTarifa, { notify: false });
  const update = useApiMutation(tarifas.updateFaixas, { notify: false });
  const pending = create.isPending || createTarifa.isPending || update.isPending;

  const draft = t.elaboracao;
  // The draft of a new tariff prices the current bands: read-only (spec 3, 4.1).
  const faixasFixas = modo === 'tarifa' || (modo === 'edicao' && draft !== null && t.vigente !== null && draft.grupoFaixa.id === t.vigente.grupoFaixa.id);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const inicio = modo === 'edicao' ? form.mes : nextMonth(form.mes);

  // ---- bands ---------------------------------------------------------------------------------------

  function setMaxima(index: number, texto: string) {
    if (!/^\d{0,12}$/.test(texto)) return;
    setErroFaixa((e) => ({ ...e, [index]: '' }));
    setForm((f) => ({ ...f, faixas: recalcularMinimos(f.faixas.map((x, i) => (i === index ? { ...x, qtdMaxima: texto } : x))) }));
  }

  /** A maximum not above its minimum: the message, and the maximum reset to minimum + 1 (spec 3, 5.1). */
  function conferirMaxima(index: number) {
    const faixa = form.faixas[index]!;
    if (faixa.qtdMaxima === '' || Number(faixa.qtdMaxima) > faixa.qtdMinima) return;
    toast.error(MESSAGES.faixaMaximaInvalida);
    setErroFaixa((e) => ({ ...e, [index]: MESSAGES.faixaMaximaInvalida }));
    setForm((f) => ({ ...f, faixas: recalcularMinimos(f.faixas.map((x, i) => (i === index ? { ...x, qtdMaxima: String(x.qtdMinima + 1) } : x))) }));
  }

  function adicionarFaixa() {
    setForm((f) => {
      const faixas = f.faixas.map((x, i) => (i === f.faixas.length - 1 && x.qtdMaxima === '' ? { ...x, qtdMaxima: String(x.qtdMinima + 1) } : x));
      return {
        ...f,
        faixas: recalcularMinimos([...faixas, { qtdMinima: 0, qtdMaxima: '' }]),
        valores: Object.fromEntries(servicos.map((s) => [s.id, [...(f.valores[s.id] ?? f.faixas.map(() => '')), '']])),
      };
    });
  }

  /** Only the last band can be removed, and one must remain (spec 3, 4.1 and 5.1). */
  function removerFaixa() {
    if (form.faixas.length <= 1) {
      toast.error(MESSAGES.faixaMinimaObrigatoria);
      return;
    }
    const ultima = form.faixas.length;
    setForm((f) => ({
      ...f,
      faixas: f.faixas.slice(0, -1),
      faixaPromocional: f.faixaPromocional === ultima ? undefined : f.faixaPromocional,
      valores: Object.fromEntries(Object.entries(f.valores).map(([k, v]) => [k, v.slice(0, ultima - 1)])),
    }));
  }

  const setValor = (servId: number, index: number, texto: string) =>
    setForm((f) => {
      const linha = [...(f.valores[servId] ?? f.faixas.map(() => ''))];
      linha[index] = texto;
      return { ...f, valores: { ...f.valores, [servId]: linha } };
    });

  // ---- save ----------------------------------------------------------------------------------------

  const obrigatorio = (v: string) => (submitted && !v.trim() ? [MESSAGES.campoObrigatorioCurto] : []);
  const assinatura = parseBRL(form.assinatura.replace(/^R\$\s?/, ''));
  const assinaturaMsgs = submitted && !form.assinatura.trim() ? [MESSAGES.campoObrigatorioCurto] : submitted && (assinatura === null || assinatura < 0) ? [MESSAGES.dadosIncorretos] : [];
  const valorInvalido = (texto: string | undefined) => parseMilesimos(texto ?? '') === null;
  /** A group's name: required, up to 100 characters, counted under it. */
  const nome = (key: 'nomeGrupoFaixa' | 'nomeGrupoTarifa', label: string, field: string, disabled?: boolean) => (
    <TextField
      id={key}
      label={label}
      required
      field={field}
      messages={obrigatorio(form[key])}
      hint={<CharCounter value={form[key]} max={100} />}
      maxLength={100}
      value={form[key]}
      disabled={disabled}
      onChange={(e) => set(key, e.target.value)}
      invalid={obrigatorio(form[key]).length > 0}
    />
  );

  async function salvar(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const faixas = form.faixas.map((f) => ({ qtdMinima: f.qtdMinima, qtdMaxima: f.qtdMaxima === '' ? null : Number(f.qtdMaxima) }));
    if (form.faixas.length === 0) {
      toast.error(modo === 'edicao' ? MESSAGES.faixaMinimaObrigatoria : MESSAGES.dadosIncorretos);
      return;
    }
    const erroFaixas = validarFaixas(faixas);
    if (erroFaixas?.erro === 'faixaMaximaInvalida') {
      toast.error(MESSAGES.faixaMaximaInvalida);
      return;
    }
    const valores = servicos.map((s) => ({ servId: s.id, valores: form.faixas.map((_, i) => parseMilesimos(form.valores[s.id]?.[i] ?? '')) }));
    const incompleto =
      !form.nomeGrupoFaixa.trim() ||
      !form.nomeGrupoTarifa.trim() ||
      assinatura === null ||
      assinatura < 0 ||
      erroFaixas !== null ||
      (modo === 'novo' && form.faixaPromocional === undefined) ||
      valores.some((v) => v.valores.some((x) => x === null));
    if (incompleto) {
      toast.error(MESSAGES.dadosIncorretos);
      return;
    }
    const tarifasBody = valores.map((v) => ({ servId: v.servId, valores: v.valores.map((x) => x ?? 0) }));
    const faixa = {
      nomeGrupoFaixa: form.nomeGrupoFaixa.trim(),
      faixaPromocional: form.faixaPromocional === SEM_PROMOCIONAL ? null : (form.faixaPromocional ?? null),
      vigenciaInicial: inicio,
      vigenciaFinalFaixaAtual: t.vigente ? form.mes : null,
      faixas,
    };
    const tarifa = { nomeGrupoTarifa: form.nomeGrupoTarifa.trim(), assinaturaMinima: assinatura!, tarifas: tarifasBody };
    try {
      let answer: [boolean, string];
      if (modo === 'novo') answer = await create.mutateAsync({ body: { faixa, tarifa } });
      else if (modo === 'tarifa')
        answer = await createTarifa.mutateAsync({
          body: {
            idGrupoFaixa: t.vigente!.grupoFaixa.id,
            idGrupoTarifaVigente: t.vigente!.grupoTarifa.id,
            vigenciaInicial: inicio,
            vigenciaFinalGrupoTarifaAtual: form.mes,
            ...tarifa,
          },
        });
      else answer = await update.mutateAsync({ body: { idGrupoFaixa: draft!.grupoFaixa.id, idGrupoTarifa: draft!.grupoTarifa.id, revisao: t.revisao, faixa, tarifa } });
      toast.success(answer[1]);
    } catch (error) {
      // A rule's own text (e.g. 'Já existe uma tarifação em elaboração.'), else the screen's.
      const generico = modo === 'edicao' ? MESSAGES.faixasAtualizacaoFalhou : MESSAGES.faixasCadastroFalhou;
      toast.error(isApiError(error) && error.status >= 400 && error.status < 500 ? error.message : generico);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: apiQueryKey(tarifas.getTarifacao) });
    navigate(routePath('faixa-cobranca-view'));
  }

  const promoOptions = [{ value: SEM_PROMOCIONAL, label: 'Sem faixa promocional' }, ...form.faixas.map((_, i) => ({ value: i + 1, label: `Faixa ${i + 1}` }))];
  const mesMinimo = mesParaData(modo === 'edicao' ? nextMonth(t.mesAtual) : t.mesAtual);
  // The form's one month is the draft's start when editing, else the current group's end (none
  // without a current group).
  const campoMes =
    modo === 'edicao'
      ? { id: 'vigenciaInicial', label: 'Início da vigência', field: 'faixa.vigenciaInicial' }
      : t.vigente
        ? { id: 'vigenciaFinal', label: 'Fim da vigência atual', field: 'faixa.vigenciaFinalFaixaAtual' }
        : null;

  return (
    <>
      <h1 className="app-page-title">{titulo}</h1>
      <form className="page-panel" onSubmit={salvar} noValidate aria-label={titulo}>
        <h2>Grupo Faixa</h2>
        <div className="page-grid">
          {nome('nomeGrupoFaixa', 'Nome do Grupo Faixa', 'faixa.nomeGrupoFaixa', faixasFixas)}
          <FormField id="faixaPromocional" label="Faixa promocional" required field="faixa.faixaPromocional">
            <Dropdown
              inputId="faixaPromocional"
              options={promoOptions}
              value={form.faixaPromocional === null ? SEM_PROMOCIONAL : form.faixaPromocional}
              onChange={(e) => set('faixaPromocional', e.value as number)}
              placeholder="Selecione a faixa promocional"
              disabled={faixasFixas}
              aria-required
            />
          </FormField>
          {campoMes && (
            <FormField id={campoMes.id} label={campoMes.label} required field={campoMes.field}>
              <Calendar
                inputId={campoMes.id}
                value={mesParaData(form.mes)}
                onChange={(e) => e.value instanceof Date && set('mes', mesIso(e.value))}
                view="month"
                dateFormat="mm/yy"
                minDate={mesMinimo}
                showIcon
              />
            </FormField>
          )}
        </div>
        <p className="tarifas-dica" role="status">
          {t.vigente ? `A vigência atual (${t.vigente.grupoTarifa.descricao}) termina em ${formatMonth(previousMonth(inicio))}; ` : ''}
          {`a nova vigência começa em ${formatMonth(inicio)}.`}
        </p>

        <h2>Faixas</h2>
        <div className="tarifas-tabela tarifas-grade">
          <table>
            <caption>Faixas de cobrança</caption>
            <thead>
              <tr>
                <th scope="col">Faixa</th>
                <th scope="col">Quantidade mínima</th>
                <th scope="col">Quantidade máxima</th>
                <th scope="col">Ações</th>
              </tr>
            </thead>
            <tbody>
              {form.faixas.map((f, i) => (
                <tr key={i}>
                  <th scope="row">Faixa {i + 1}</th>
                  <td>{formatQuantidade(f.qtdMinima)}</td>
                  <td>
                    <InputText
                      id={`faixa-max-${i + 1}`}
                      aria-label={`Quantidade máxima da Faixa ${i + 1}`}
                      inputMode="numeric"
                      value={f.qtdMaxima}
                      disabled={faixasFixas}
                      placeholder={i === form.faixas.length - 1 ? 'sem limite' : ''}
                      onChange={(e) => setMaxima(i, e.target.value)}
                      onBlur={() => conferirMaxima(i)}
                      invalid={Boolean(erroFaixa[i])}
                      aria-describedby={`faixa-max-${i + 1}-error`}
                    />
                    <small id={`faixa-max-${i + 1}-error`} className="p-error">
                      {erroFaixa[i] ?? ''}
                    </small>
                  </td>
                  <td>
                    {i === form.faixas.length - 1 && !faixasFixas && (
                      <Button type="button" icon="pi pi-trash" text severity="danger" aria-label={`Remover Faixa ${i + 1}`} onClick={removerFaixa} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!faixasFixas && (
          <div className="page-actions">
            <Button type="button" label="Adicionar Faixa" icon="pi pi-plus" outlined onClick={adicionarFaixa} />
          </div>
        )}

        <h2>Grupo Tarifa</h2>
        <div className="page-grid">
          {nome('nomeGrupoTarifa', 'Nome do Grupo Tarifa', 'tarifa.nomeGrupoTarifa')}
          <FormField id="assinatura" label="Assinatura mínima (R$)" required field="tarifa.assinaturaMinima" messages={assinaturaMsgs}>
            <InputText
              id="assinatura"
              maxLength={14}
              inputMode="decimal"
              value={form.assinatura}
              placeholder="0,00"
              onChange={(e) => set('assinatura', e.target.value.replace(/[^\d.,]/g, ''))}
              onBlur={() => {
                const v = parseBRL(form.assinatura);
                if (v !== null && v >= 0) set('assinatura', centavosTexto(v));
              }}
              invalid={assinaturaMsgs.length > 0}
              aria-required
              aria-describedby="assinatura-error"
            />
          </FormField>
        </div>
        <div className="tarifas-tabela tarifas-grade">
          <table>
            <caption>Tarifas por serviço e faixa (R$, 3 casas decimais)</caption>
            <thead>
              <tr>
                <th scope="col">Serviço</th>
                {form.faixas.map((f, i) => (
                  <th scope="col" key={i}>
                    <span className="tarifas-faixa-nome">Faixa {i + 1}</span>
                    <span className="tarifas-faixa-intervalo">{formatIntervalo(f.qtdMinima, /^\d+$/.test(f.qtdMaxima) ? Number(f.qtdMaxima) : null)}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {servicos.map((s) => (
                <tr key={s.id}>
                  <th scope="row">{s.descricao}</th>
                  {form.faixas.map((_, i) => {
                    const texto = form.valores[s.id]?.[i] ?? '';
                    return (
                      <td key={i}>
                        <InputText
                          aria-label={`${s.descricao} — Faixa ${i + 1}`}
                          inputMode="decimal"
                          value={texto}
                          placeholder="0,000"
                          onChange={(e) => setValor(s.id, i, e.target.value.replace(/[^\d.,]/g, ''))}
                          onBlur={() => {
                            const v = parseMilesimos(texto);
                            if (v !== null) setValor(s.id, i, milesimosTexto(v));
                          }}
                          invalid={valorInvalido(texto)}
                          aria-invalid={valorInvalido(texto)}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>

        <FormActions loading={pending} onBack={() => navigate(routePath('faixa-cobranca-view'))} />
      </form>
    </>
  );
}
