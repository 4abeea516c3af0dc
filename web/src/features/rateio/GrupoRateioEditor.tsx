import '../../components/page-layout.css';
import { ListTable } from '../../components/ListPage';
import { useQueryClient } from '@tanstack/react-query';
import { routePath } from '@plac/shared/access';
import { rateio } from '@plac/shared/contracts';
import {
  ajustarPercentual,
  dvValido,
  formatMonth,
  nextMonth,
  podeDesativarConvenio,
  podeRemover,
  TIPO_BENEFICIADO_LABEL,
  tiposOferecidos,
  validarGrupoRateio,
  type TipoBeneficiado,
} from '@plac/shared/domain';
import { message, MESSAGES } from '@plac/shared/messages';
import { AutoComplete } from 'primereact/autocomplete';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import { TabPanel, TabView } from 'primereact/tabview';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AppDialog } from '../../components/AppDialog';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { FormField } from '../../components/FormField';
import { apiQueryKey, callApi, useApiMutation, useApiQuery } from '../../lib/api';
import { mesIso } from '../../lib/calendar';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../lib/toast';
import { entradaDe, linhaDe, mesParaData, periodoDias, type Conta, type Grupo, type Linha, type Participante } from './model';

/**
 * The editor of beneficiado-rateio-form (a new group: mode 'novo') and beneficiado-rateio-edit (an
 * existing group: mode 'edicao'); spec 3, 2.4, 2.5, 4.2, 5.2. A new group starts the month after the
 * current group's end chosen in the mandatory dialog; a draft is fully editable; a group in force
 * only in name, bank accounts and SEFAZ agreements. The checks of 5.2 run here with their messages
 * before the save's confirmation, and again on the server.
 */

type LinhaMostrada = Linha & { inicioMostrado: string | null; percentualMostrado: number };

type Modo = { modo: 'novo'; vigente: Grupo | null } | { modo: 'edicao'; grupo: Grupo };

let chave = 0;
const novaChave = () => `novo-${++chave}`;

const contaVazia: Conta = { banco: '', agencia: '', dvAgencia: '', conta: '', dvConta: '', contaAtiva: true };

/** The text of a percentage field ('150%', '0') as a number; null when empty. */
function lerPercentual(texto: string): number | null {
  const digitos = texto.replace(/\D/g, '');
  return digitos ? Number(digitos) : null;
}

function mesAtual(): string {
  return mesIso(new Date());
}

export function GrupoRateioEditor(props: Modo) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const participantes = useApiQuery(rateio.listParticipantes, {});
  const grupo = props.modo === 'edicao' ? props.grupo : null;
  const historico = useApiQuery(rateio.historico, { params: { id: grupo?.id ?? '' } }, { enabled: grupo !== null });
  const criar = useApiMutation(rateio.createGrupo);
  const atualizar = useApiMutation(rateio.updateGrupo);

  const rascunho = props.modo === 'novo' || grupo?.situacao === 'ELABORACAO';
  const base = props.modo === 'novo' ? props.vigente : props.grupo;
  const [descricao, setDescricao] = useState(props.modo === 'edicao' ? props.grupo.descricao : '');
  const [percentualSefaz, setPercentualSefaz] = useState<number>(base?.percentualSefaz ?? 1);
  const [sefazTexto, setSefazTexto] = useState(String(base?.percentualSefaz ?? 1));
  const [linhas, setLinhas] = useState<Linha[]>(() =>
    (base?.beneficiados ?? []).map((b) => ({ ...linhaDe(b), ...(props.modo === 'novo' ? { key: novaChave(), idBeneficiado: null, vigenciaInicial: null, vigenciaFinal: null } : {}) })),
  );
  /** 'novo': the current group's end (the mandatory dialog); the start is the month after. */
  const [fimVigente, setFimVigente] = useState<string | null>(null);
  const [dialogoFim, setDialogoFim] = useState(props.modo === 'novo' && props.vigente !== null);
  const [inicio, setInicio] = useState<string | null>(props.modo === 'edicao' ? props.grupo.dtVigenciaInicial : props.vigente ? null : nextMonth(mesAtual()));
  const [erros, setErros] = useState<Record<string, string[]>>({});
  const linhasRef = useRef(linhas);
  useEffect(() => {
    linhasRef.current = linhas;
  }, [linhas]);

  const [editando, setEditando] = useState<Linha | 'novo' | null>(null);
  const [contaDe, setContaDe] = useState<Linha | null>(null);
  const [convenioDe, setConvenioDe] = useState<Linha | null>(null);
  const [removerDe, setRemoverDe] = useState<Linha | null>(null);
  const [salvar, setSalvar] = useState<true | null>(null);

  const fimMes = props.modo === 'novo' && fimVigente ? fimVigente : null;
  const [dialogoInicio, setDialogoInicio] = useState(false);
  const inicioEfetivo = props.modo === 'novo' ? (fimMes ? nextMonth(fimMes) : inicio) : inicio;

  function percentualCampo(campo: string, valor: number | null, set: (v: number) => void) {
    const { valor: v, erro } = ajustarPercentual(valor);
    set(v);
    setErros((e) => ({ ...e, [campo]: erro ? [MESSAGES[erro]] : [] }));
  }

  function validar(): boolean {
    const erro = validarGrupoRateio(
      descricao,
      percentualSefaz,
      linhas.map((l) => ({ tipo: l.tipo, idParticipante: l.idParticipante, nomeParticipante: l.nomeParticipante, percentualRateio: l.percentualRateio, convenioAtivo: l.convenioAtivo })),
    );
    if (!erro) return true;
    if (erro.erro === 'campoObrigatorio') {
      const texto = message('campoObrigatorio', { field: erro.field });
      setErros((e) => ({ ...e, descricao: [texto] }));
      toast.error(texto);
    } else toast.error(MESSAGES[erro.erro]);
    return false;
  }

  async function confirmarSalvar() {
    setSalvar(null);
    try {
      if (props.modo === 'novo') {
        const [, texto] = await criar.mutateAsync({
          body: {
            descricao: descricao.trim(),
            vigenciaInicial: inicioEfetivo!,
            vigenciaFinalVigente: fimMes,
            percentualSefaz,
            beneficiados: linhas.map((l) => entradaDe(l, percentualSefaz)),
          },
        });
        toast.success(texto);
      } else {
        const [, texto] = await atualizar.mutateAsync({
          body: {
            grupoRateio: { idGrupoRateio: props.grupo.id, descricao: descricao.trim(), vigenciaInicial: inicio!, percentualSefaz, revisao: props.grupo.revisao },
            beneficiados: [
              ...linhas.map((l) => ({ ...entradaDe(l, percentualSefaz), beneficiadoId: l.idBeneficiado })),
              ...props.grupo.beneficiados
                .filter((b) => !linhas.some((l) => l.idBeneficiado === b.idBeneficiado))
                .map((b) => ({ beneficiadoId: b.idBeneficiado, idParticipante: b.idParticipante, nomeParticipante: b.nomeParticipante, percentualRateio: b.percentualRateio, tipo: b.tipo, excluir: true })),
            ],
          },
        });
        toast.success(texto);
      }
    } catch {
      toast.error(props.modo === 'novo' ? MESSAGES.grupoRateioCadastrarFalhou : MESSAGES.grupoRateioAtualizarFalhou);
      return;
    }
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(rateio.listGrupos) });
    navigate(routePath('beneficiado-rateio'));
  }

  function pedirSalvar() {
    if (validar()) setSalvar(true);
  }

  function pedirRemover(l: Linha) {
    const atuais = linhasRef.current;
    const i = atuais.findIndex((x) => x.key === l.key);
    if (l.tipo === 'SEFAZ' && !podeRemover(atuais, i)) {
      toast.error(MESSAGES.minimoSefaz);
      return;
    }
    setRemoverDe(l);
  }

  function pedirConvenio(l: Linha) {
    const atuais = linhasRef.current;
    const i = atuais.findIndex((x) => x.key === l.key);
    const atual = atuais[i] ?? l;
    if (atual.convenioAtivo && !podeDesativarConvenio(atuais, i)) {
      toast.error(MESSAGES.minimoSefazAtivo);
      return;
    }
    setConvenioDe(atual);
  }

  const usados = new Set(linhas.map((l) => l.idParticipante).filter(Boolean));
  const titulo = props.modo === 'novo' ? 'Novo Grupo de Rateio' : 'Editar Grupo de Rateio';

  const tabela = (
    // PrimeReact memoises a cell by its row's content: the rows carry what the cells show (start, SEFAZ
    // percentage), and the handlers read the current list through a ref.
    <DataTable value={linhas.map((l) => ({ ...l, inicioMostrado: inicioEfetivo, percentualMostrado: l.tipo === 'SEFAZ' ? percentualSefaz : l.percentualRateio }))} dataKey="key" pt={{ table: { 'aria-label': 'Beneficiados do grupo' }, wrapper: { tabIndex: 0, role: 'region', 'aria-label': 'Beneficiados do grupo (rolável)' } }} emptyMessage={MESSAGES.nenhumRegistro}>
      <Column header="Beneficiado" field="nomeParticipante" />
      {props.modo === 'novo' ? (
        <Column header="Início" body={(l: LinhaMostrada) => (l.inicioMostrado ? formatMonth(l.inicioMostrado) : '–')} />
      ) : (
        <Column header="Vigência" body={(l: Linha) => periodoDias(l.vigenciaInicial, l.vigenciaFinal)} />
      )}
      <Column header="Percentual" body={(l: LinhaMostrada) => `${l.percentualMostrado}%`} />
      <Column header="Tipo" body={(l: Linha) => TIPO_BENEFICIADO_LABEL[l.tipo]} />
      <Column
        header="Convênio de Cooperação"
        body={(l: Linha) =>
          l.tipo === 'SEFAZ' ? (
            <Checkbox inputId={`convenio-${l.key}`} checked={l.convenioAtivo} aria-label={`Convênio de ${l.nomeParticipante}`} onChange={() => pedirConvenio(l)} />
          ) : (
            'Não se aplica'
          )
        }
      />
      <Column
        header="Ações"
        body={(l: Linha) => (
          <div className="page-row-actions">
            <Button type="button" icon="pi pi-pencil" text aria-label={`Editar ${l.nomeParticipante}`} disabled={!rascunho} onClick={() => setEditando(l)} />
            <Button type="button" icon="pi pi-wallet" text aria-label={`Dados bancários de ${l.nomeParticipante}`} onClick={() => setContaDe(l)} />
            {rascunho && <Button type="button" icon="pi pi-trash" text severity="danger" aria-label={`Remover ${l.nomeParticipante}`} onClick={() => pedirRemover(l)} />}
          </div>
        )}
      />
    </DataTable>
  );

  return (
    <>
      <div className="page-header">
        <h1 className="app-page-title">{titulo}</h1>
        <div className="page-actions">
          <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={() => navigate(routePath('beneficiado-rateio'))} />
        </div>
      </div>
      <TabView>
        <TabPanel header="Grupo de Rateio">
          <div className="page-panel">
            <div className="page-grid">
              <FormField id="descricao" label="Nome do Grupo" required field="descricao" error={criar.error ?? atualizar.error} messages={erros.descricao}>
                <InputText id="descricao" value={descricao} maxLength={100} aria-required aria-describedby="descricao-error" onChange={(e) => setDescricao(e.target.value)} />
              </FormField>
              <FormField id="vigenciaInicial" label="Vigência inicial" required field="vigenciaInicial">
                <div style={{ display: 'flex', gap: '0.5rem', alignItems: 'center' }}>
                  <Calendar inputId="vigenciaInicial" value={mesParaData(inicioEfetivo)} view="month" dateFormat="mm/yy" disabled showIcon />
                  {/* Spec 3 §2.4: a draft's start changes through the 'change validity month' dialog. */}
                  {props.modo === 'edicao' && rascunho && (
                    <Button type="button" icon="pi pi-calendar-plus" text aria-label="Alterar mês de vigência" onClick={() => setDialogoInicio(true)} />
                  )}
                </div>
              </FormField>
              <FormField id="vigenciaFinal" label="Vigência final" field="vigenciaFinal">
                <InputText id="vigenciaFinal" value={grupo?.dtVigenciaFinal ? formatMonth(grupo.dtVigenciaFinal) : ''} disabled />
              </FormField>
              <FormField id="percentualSefaz" label="Percentual SEFAZ" required field="percentualSefaz" messages={erros.percentualSefaz}>
                <InputText
                  id="percentualSefaz"
                  value={sefazTexto}
                  inputMode="numeric"
                  disabled={!rascunho}
                  aria-describedby="percentualSefaz-error"
                  onChange={(e) => setSefazTexto(e.target.value)}
                  onBlur={() => percentualCampo('percentualSefaz', lerPercentual(sefazTexto), (v) => {
                    setPercentualSefaz(v);
                    setSefazTexto(String(v));
                  })}
                />
              </FormField>
            </div>
          </div>
          <div className="page-header">
            <h2>Beneficiados</h2>
            {rascunho && <Button type="button" label="Adicionar Beneficiado" icon="pi pi-plus" onClick={() => setEditando('novo')} />}
          </div>
          {tabela}
          <div className="page-actions">
            <Button type="button" label="Salvar" icon="pi pi-check" disabled={!inicioEfetivo} loading={criar.isPending || atualizar.isPending} onClick={pedirSalvar} />
          </div>
        </TabPanel>
        {(historico.data?.length ?? 0) > 0 && (
          <TabPanel header="Histórico">
            <ListTable label="Histórico do grupo" rows={historico.data} query={historico}>
              <Column header="Data" body={(h: { em: string }) => formatDateTime(h.em)} />
              <Column header="Usuário" field="por" />
              <Column header="Ação" field="acao" />
              <Column header="Detalhe" field="detalhe" />
            </ListTable>
          </TabPanel>
        )}
      </TabView>

      {dialogoInicio && (
        <MesVigenciaDialog
          visible
          atual={inicio}
          onConfirm={(m) => {
            setInicio(m);
            setDialogoInicio(false);
          }}
          onCancel={() => setDialogoInicio(false)}
        />
      )}
      <FimVigenteDialog
        visible={dialogoFim}
        onConfirm={(m) => {
          setFimVigente(m);
          setDialogoFim(false);
        }}
        onCancel={() => navigate(routePath('beneficiado-rateio'))}
      />
      <BeneficiadoDialog
        alvo={editando}
        linhas={linhas}
        participantes={participantes.data ?? []}
        usados={usados}
        onClose={() => setEditando(null)}
        onSave={(l) => {
          setLinhas((ls) => (ls.some((x) => x.key === l.key) ? ls.map((x) => (x.key === l.key ? l : x)) : [...ls, l]));
          setEditando(null);
        }}
      />
      <ContaDialog
        alvo={contaDe}
        onClose={() => setContaDe(null)}
        onSave={(l, conta) => {
          setLinhas((ls) => ls.map((x) => (x.key === l.key ? { ...x, conta } : x)));
          setContaDe(null);
        }}
      />
      <ConfirmSimNao
        target={convenioDe}
        message={convenioDe?.convenioAtivo ? `Deseja desativar o convênio de ${convenioDe.nomeParticipante}?` : `Deseja ativar o convênio de ${convenioDe?.nomeParticipante ?? ''}?`}
        onConfirm={(l) => {
          setLinhas((ls) => ls.map((x) => (x.key === l.key ? { ...x, convenioAtivo: !x.convenioAtivo } : x)));
          setConvenioDe(null);
        }}
        onClose={() => setConvenioDe(null)}
      />
      <ConfirmSimNao
        target={removerDe}
        message={`Deseja remover o beneficiado ${removerDe?.nomeParticipante ?? ''}?`}
        danger
        onConfirm={(l) => {
          setLinhas((ls) => ls.filter((x) => x.key !== l.key));
          setRemoverDe(null);
        }}
        onClose={() => setRemoverDe(null)}
      />
      <ConfirmSimNao target={salvar} message="Deseja salvar o Grupo de Rateio e seus Beneficiados?" onConfirm={() => void confirmarSalvar()} onClose={() => setSalvar(null)} />
    </>
  );
}

/** 'Alterar mês de vigência' (spec 3, 2.4): a draft's start month, from next month on. */
function MesVigenciaDialog({ visible, atual, onConfirm, onCancel }: { visible: boolean; atual: string | null; onConfirm: (mes: string) => void; onCancel: () => void }) {
  // Mounted on each opening (see the caller), so it starts from the draft's current start month.
  const [mes, setMes] = useState<Date | null>(() => mesParaData(atual));
  const minimo = mesParaData(nextMonth(mesAtual()))!;
  return (
    <AppDialog
      header="Alterar mês de vigência"
      visible={visible}
      onHide={onCancel}
      focusOnShow={false}
      style={{ width: 'min(28rem, 95vw)' }}
    >
      <div className="page-field">
        <label htmlFor="novoMesVigencia">Vigência inicial</label>
        <Calendar inputId="novoMesVigencia" value={mes} onChange={(e) => setMes(e.value instanceof Date ? e.value : null)} view="month" dateFormat="mm/yy" minDate={minimo} showIcon />
      </div>
      <div className="page-actions">
        <Button type="button" label="Cancelar" severity="secondary" outlined onClick={onCancel} />
        <Button type="button" label="Confirmar" disabled={!mes || mes < minimo} onClick={() => mes && onConfirm(mesIso(mes))} />
      </div>
    </AppDialog>
  );
}

/** The mandatory dialog of a new group (spec 3, 2.5): the current group's end month, ≥ this month. */
function FimVigenteDialog({ visible, onConfirm, onCancel }: { visible: boolean; onConfirm: (mes: string) => void; onCancel: () => void }) {
  const [mes, setMes] = useState<string | null>(null);
  return (
    <AppDialog header="Vigência final do grupo atual" visible={visible} onHide={onCancel} closable={false} focusOnShow={false} style={{ width: 'min(28rem, 95vw)' }}>
      <FormField id="fimVigente" label="Mês final do grupo vigente" required field="vigenciaFinalVigente">
        <Calendar inputId="fimVigente" value={mesParaData(mes)} onChange={(e) => e.value instanceof Date && setMes(mesIso(e.value))} view="month" dateFormat="mm/yy" minDate={mesParaData(mesAtual())!} showIcon />
      </FormField>
      <div className="page-actions">
        <Button type="button" label="Cancelar" severity="secondary" outlined onClick={onCancel} />
        <Button type="button" label="Confirmar" disabled={!mes} onClick={() => mes && onConfirm(mes)} />
      </div>
    </AppDialog>
  );
}

interface BeneficiadoDialogProps {
  alvo: Linha | 'novo' | null;
  linhas: readonly Linha[];
  participantes: readonly Participante[];
  usados: Set<string | null>;
  onClose: () => void;
  onSave: (l: Linha) => void;
}

/** Add or edit a beneficiary (spec 3, 5.2): a participant or a new name, a type, a percentage above 0. */
function BeneficiadoDialog(props: BeneficiadoDialogProps) {
  const { alvo, onClose } = props;
  return (
    <AppDialog header={alvo === 'novo' ? 'Adicionar Beneficiado' : 'Editar Beneficiado'} visible={alvo !== null} onHide={onClose} style={{ width: 'min(32rem, 95vw)' }}>
      {alvo !== null && <BeneficiadoForm key={alvo === 'novo' ? 'novo' : alvo.key} {...props} alvo={alvo} />}
    </AppDialog>
  );
}

function BeneficiadoForm({ alvo, linhas, participantes, usados, onClose, onSave }: BeneficiadoDialogProps & { alvo: Linha | 'novo' }) {
  const base0 = alvo === 'novo' ? null : alvo;
  const [participante, setParticipante] = useState<string | null>(base0?.idParticipante ?? null);
  const [nome, setNome] = useState(base0?.nomeParticipante ?? '');
  const [tipo, setTipo] = useState<TipoBeneficiado | null>(base0?.tipo ?? null);
  const [percentual, setPercentual] = useState<number>(base0?.percentualRateio || 1);
  /** The field's text; taken (clamped to 1-100 with its message) when the field is left. */
  const [pctTexto, setPctTexto] = useState(String(base0?.percentualRateio || 1));
  const [erros, setErros] = useState<Record<string, string[]>>({});

  const outros = linhas.filter((l) => l.key !== base0?.key);
  const tipos = tiposOferecidos(outros);
  const escolhido = participantes.find((p) => p.id === participante) ?? null;
  const disponiveis = participantes.filter((p) => !usados.has(p.id) || p.id === base0?.idParticipante);

  function ajustar(v: number | null) {
    const { valor, erro } = ajustarPercentual(v);
    setPercentual(valor);
    setPctTexto(String(valor));
    setErros((x) => ({ ...x, percentual: erro ? [MESSAGES[erro]] : [] }));
  }

  function escolherTipo(t: TipoBeneficiado) {
    if (t === 'SEFAZ' && !disponiveis.some((p) => p.sefaz)) toast.warn(MESSAGES.semParticipanteSefaz);
    setTipo(t);
  }

  function confirmar() {
    const e: Record<string, string[]> = {};
    if (!escolhido && !nome.trim()) e.participante = [MESSAGES.participanteNomeObrigatorio];
    if (!tipo) e.tipo = [MESSAGES.participanteTipoObrigatorio];
    if (tipo === 'SEFAZ' && !escolhido) e.tipo = [MESSAGES.participanteNovoSefaz];
    if (escolhido && tipo && (tipo === 'SEFAZ') !== escolhido.sefaz) e.tipo = [MESSAGES.participanteNovoSefaz];
    const idNovo = escolhido?.id ?? null;
    if (idNovo ? outros.some((l) => l.idParticipante === idNovo) : outros.some((l) => !l.idParticipante && l.nomeParticipante.trim().toLowerCase() === nome.trim().toLowerCase()))
      e.participante = [MESSAGES.participanteExistente];
    if (tipo !== 'SEFAZ' && !(percentual > 0 && percentual <= 100)) e.percentual = [MESSAGES.percentualInvalido];
    setErros(e);
    if (Object.keys(e).length) return;
    const base = base0;
    onSave({
      key: base?.key ?? novaChave(),
      idBeneficiado: base?.idBeneficiado ?? null,
      idParticipante: idNovo,
      nomeParticipante: escolhido?.nome ?? nome.trim(),
      tipo: tipo!,
      percentualRateio: tipo === 'SEFAZ' ? 0 : percentual,
      vigenciaInicial: base?.vigenciaInicial ?? null,
      vigenciaFinal: base?.vigenciaFinal ?? null,
      convenioAtivo: base?.convenioAtivo ?? true,
      conta: base?.conta ?? null,
    });
  }

  return (
    <>
      <FormField id="ben-participante" label="Participante" field="participante" messages={erros.participante}>
        <Dropdown
          inputId="ben-participante"
          value={participante}
          options={disponiveis.map((p) => ({ label: p.nome, value: p.id }))}
          onChange={(e) => setParticipante(e.value as string | null)}
          showClear
          filter
          placeholder="Selecione ou informe um novo nome"
          aria-describedby="ben-participante-error"
        />
      </FormField>
      {!escolhido && (
        <FormField id="ben-nome" label="Nome do novo participante" field="nome">
          <InputText id="ben-nome" value={nome} maxLength={200} onChange={(e) => setNome(e.target.value)} />
        </FormField>
      )}
      <FormField id="ben-tipo" label="Tipo" required field="tipo" messages={erros.tipo}>
        <Dropdown
          inputId="ben-tipo"
          value={tipo}
          options={tipos.map((t) => ({ label: TIPO_BENEFICIADO_LABEL[t], value: t }))}
          onChange={(e) => escolherTipo(e.value as TipoBeneficiado)}
          placeholder="Selecione"
          aria-describedby="ben-tipo-error"
        />
      </FormField>
      {tipo !== 'SEFAZ' && (
        <FormField id="ben-percentual" label="Percentual" required field="percentual" messages={erros.percentual}>
          <InputText
            id="ben-percentual"
            value={pctTexto}
            inputMode="numeric"
            aria-describedby="ben-percentual-error"
            onChange={(e) => setPctTexto(e.target.value)}
            onBlur={() => ajustar(lerPercentual(pctTexto))}
          />
        </FormField>
      )}
      <div className="page-actions">
        <Button type="button" label="Cancelar" severity="secondary" outlined onClick={onClose} />
        <Button type="button" label="Confirmar" onClick={confirmar} />
      </div>
    </>
  );
}

/** Bank data (spec 3, 5.2): the bank by autocomplete (2 characters or fewer: all, 300 ms), agency and account with one-character check digits. */
function ContaDialog({ alvo, onClose, onSave }: { alvo: Linha | null; onClose: () => void; onSave: (l: Linha, conta: Conta) => void }) {
  return (
    <AppDialog header="Dados Bancários" visible={alvo !== null} onHide={onClose} style={{ width: 'min(36rem, 95vw)' }}>
      {alvo && <ContaForm key={alvo.key} alvo={alvo} onClose={onClose} onSave={onSave} />}
    </AppDialog>
  );
}

type BancoEscolha = { codigo: string; nome: string; rotulo: string };

function ContaForm({ alvo, onClose, onSave }: { alvo: Linha; onClose: () => void; onSave: (l: Linha, conta: Conta) => void }) {
  const [conta, setConta] = useState<Conta>(alvo.conta ?? contaVazia);
  const [banco, setBanco] = useState<BancoEscolha | string | null>(() => {
    if (!alvo.conta) return null;
    const { banco: codigo, nomeBanco } = alvo.conta;
    return { codigo, nome: nomeBanco ?? codigo, rotulo: nomeBanco ? `${codigo} - ${nomeBanco}` : codigo };
  });
  const [sugestoes, setSugestoes] = useState<BancoEscolha[]>([]);
  const [erros, setErros] = useState<Record<string, string[]>>({});

  async function buscar(termo: string) {
    const t = termo.trim();
    const lista = t.length <= 2 ? await callApi(rateio.listBancos, {}) : await callApi(rateio.searchBancos, { params: { search: t } });
    setSugestoes(lista.map((b) => ({ codigo: b.codigo, nome: b.nome, rotulo: `${b.codigo} - ${b.nome}` })));
  }

  function confirmar() {
    const codigo = typeof banco === 'object' && banco ? banco.codigo : '';
    const e: Record<string, string[]> = {};
    if (!/^\d{3}$/.test(codigo)) e.banco = [message('campoObrigatorio', { field: 'Banco' })];
    if (!/^\d{1,5}$/.test(conta.agencia)) e.agencia = [message('campoInvalido', { field: 'Agência' })];
    if (!dvValido(conta.dvAgencia)) e.dvAgencia = [MESSAGES.digitoVerificadorInvalido];
    if (!/^\d{1,12}$/.test(conta.conta)) e.conta = [message('campoInvalido', { field: 'Conta' })];
    if (!dvValido(conta.dvConta)) e.dvConta = [MESSAGES.digitoVerificadorInvalido];
    setErros(e);
    if (Object.keys(e).length) return;
    onSave(alvo, { ...conta, banco: codigo, dvAgencia: conta.dvAgencia.toUpperCase(), dvConta: conta.dvConta.toUpperCase() });
  }

  const set = (k: keyof Conta, v: string) => setConta((c) => ({ ...c, [k]: v }));

  return (
    <>
      <FormField id="conta-banco" label="Banco" required field="banco" messages={erros.banco}>
        <AutoComplete
          inputId="conta-banco"
          value={banco}
          suggestions={sugestoes}
          field="rotulo"
          delay={300}
          minLength={0}
          dropdown
          completeMethod={(e) => void buscar(e.query)}
          onChange={(e) => setBanco(e.value as typeof banco)}
          emptyMessage={MESSAGES.nenhumaBancoEncontrado}
          showEmptyMessage
          aria-describedby="conta-banco-error"
        />
      </FormField>
      <div className="page-grid">
        <FormField id="conta-agencia" label="Agência" required field="agencia" messages={erros.agencia}>
          <InputText id="conta-agencia" value={conta.agencia} maxLength={5} inputMode="numeric" onChange={(e) => set('agencia', e.target.value.replace(/\D/g, ''))} />
        </FormField>
        <FormField id="conta-dvAgencia" label="DV Agência" required field="dvAgencia" messages={erros.dvAgencia}>
          <InputText id="conta-dvAgencia" value={conta.dvAgencia} maxLength={2} aria-describedby="conta-dvAgencia-error" onChange={(e) => set('dvAgencia', e.target.value)} />
        </FormField>
        <FormField id="conta-conta" label="Conta" required field="conta" messages={erros.conta}>
          <InputText id="conta-conta" value={conta.conta} maxLength={12} inputMode="numeric" onChange={(e) => set('conta', e.target.value.replace(/\D/g, ''))} />
        </FormField>
        <FormField id="conta-dvConta" label="DV Conta" required field="dvConta" messages={erros.dvConta}>
          <InputText id="conta-dvConta" value={conta.dvConta} maxLength={2} aria-describedby="conta-dvConta-error" onChange={(e) => set('dvConta', e.target.value)} />
        </FormField>
      </div>
      <div className="page-actions">
        <Button type="button" label="Cancelar" severity="secondary" outlined onClick={onClose} />
        <Button type="button" label="Confirmar" onClick={confirmar} />
      </div>
    </>
  );
}
