import '../../components/page-layout.css';
import { prepago } from '@plac/shared/contracts';
import { formatDate, QTD_MINIMA_RESERVA } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { ConfirmSimNao } from '../../components/ConfirmSimNao';
import { FieldError } from '../../components/FieldError';
import { useApiMutation } from '../../lib/api';
import { abrirDae } from '../../lib/download';
import { formatMoney, formatQuantidade } from '../../lib/format';
import { toast } from '../../lib/toast';
import { AvisoVencimento } from '../../components/AvisoVencimento';
import { EscrituradorSelect, useEscrituradores } from './escriturador';

/**
 * cadastro-pagamento-antecipado (sefaz_admin, cliente_imf; spec 3 sections 2.8, 3.11, 5.3, 8, 9): the
 * reservation of requests for a bookkeeper — its CNPJ (the administrator picks the bookkeeper, a client
 * user's own company is fixed), a contact e-mail and the three quantities: 'Envio de Fat-e' (default
 * 50.000.000, the minimum), 'Monitoramento de Documentos' and 'Registro de Cessão' (0 and disabled, as
 * the spec has them). The page checks what the spec's form checks, with its messages; the server checks
 * again and refuses a second reservation for the CNPJ. Once saved, the reservation's DAE (its value from
 * the tariff in force) is shown and can be printed; a due date on a non-business day says until when it
 * is payable without surcharge (AvisoVencimento).
 */

type Criada = (typeof prepago.cadastrarReserva)['response']['_zod']['output']['dae'];
type Reserva = prepago.ReservaBody;

interface Form {
  cnpj: string;
  email: string;
  qtdEnvioFate: string;
}

type Erros = Partial<Record<keyof Form, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form's rules (spec 3, 5.3 and 8), field by field. */
export function validar(f: Form): Erros {
  const erros: Erros = {};
  if (!f.cnpj) erros.cnpj = message('reservaCnpjObrigatorio');
  if (!f.email.trim()) erros.email = message('reservaEmailObrigatorio');
  else if (!EMAIL.test(f.email.trim())) erros.email = message('reservaEmailInvalido');
  if (!/^\d+$/.test(f.qtdEnvioFate)) erros.qtdEnvioFate = message('reservaApenasNumeros');
  else if (Number(f.qtdEnvioFate) < QTD_MINIMA_RESERVA) erros.qtdEnvioFate = message('reservaValorMinimoCampo');
  return erros;
}

export default function CadastroPagamentoAntecipadoPage() {
  const { admin, escrituradores } = useEscrituradores();
  const [form, setForm] = useState<Form>({ cnpj: '', email: '', qtdEnvioFate: String(QTD_MINIMA_RESERVA) });
  const [erros, setErros] = useState<Erros>({});
  const [criada, setCriada] = useState<Criada | null>(null);
  // The reservation awaiting the user's confirmation, with the value the tariff in force gives it.
  const [aConfirmar, setAConfirmar] = useState<{ reserva: Reserva; valor: number } | null>(null);
  // A client user's company is fixed: the only one the list answers.
  const cnpj = admin ? form.cnpj : (escrituradores[0]?.cnpj ?? '');

  const cadastrar = useApiMutation(prepago.cadastrarReserva, {
    onSuccess: (r) => {
      toast.success(r.message);
      setCriada(r.dae);
    },
  });
  const cotar = useApiMutation(prepago.cotarReserva);
  const imprimir = useApiMutation(prepago.imprimirDaePrepago, { onSuccess: (r) => abrirDae(r.urlDAE) });

  const set = (campo: keyof Form, valor: string) => {
    setForm((f) => ({ ...f, [campo]: valor }));
    setErros((e) => ({ ...e, [campo]: undefined }));
  };

  function enviar(event: FormEvent) {
    event.preventDefault();
    const encontrados = validar({ ...form, cnpj });
    setErros(encontrados);
    // The three quantities together (spec 3, 5.3): said once, as the form's summary.
    if (/^\d+$/.test(form.qtdEnvioFate) && Number(form.qtdEnvioFate) < QTD_MINIMA_RESERVA) toast.warn(message('reservaQuantidadeMinima'));
    if (Object.values(encontrados).some(Boolean)) return;
    setCriada(null);
    const reserva: Reserva = { cnpjEscriturador: cnpj, emailContato: form.email.trim(), qtdEnvioFate: Number(form.qtdEnvioFate), qtdMonitoramentoDe: 0, qtdRegistroCessao: 0 };
    // The value first (spec 3, 3.11: the reservation is priced by the tariff in force), then the user's confirmation.
    cotar.mutate(
      { query: { qtdEnvioFate: reserva.qtdEnvioFate, qtdMonitoramentoDe: reserva.qtdMonitoramentoDe, qtdRegistroCessao: reserva.qtdRegistroCessao } },
      { onSuccess: (r) => setAConfirmar({ reserva, valor: r.valor }) },
    );
  }

  return (
    <>
      <h1 className="app-page-title">Cadastro de Pagamento Antecipado</h1>
      <p>Reserve as requisições do escriturador. O valor é calculado pela tarifação vigente e pago por DAE; após o pagamento, o valor fica disponível na conta corrente de requisições.</p>
      <form className="page-panel" onSubmit={enviar} noValidate aria-label="Cadastro de pagamento antecipado">
        <div className="page-grid">
          <div className="page-field">
            <label htmlFor="pa-escriturador">CNPJ do Escriturador</label>
            <EscrituradorSelect id="pa-escriturador" value={cnpj} onChange={(v) => set('cnpj', v)} admin={admin} escrituradores={escrituradores} invalid={!!erros.cnpj} describedBy="pa-escriturador-erro" />
            <FieldError error={cadastrar.error} field="cnpjEscriturador" id="pa-escriturador-erro" messages={erros.cnpj ? [erros.cnpj] : []} />
          </div>
          <div className="page-field">
            <label htmlFor="pa-email">E-mail de Contato</label>
            <InputText id="pa-email" type="email" value={form.email} maxLength={100} onChange={(e) => set('email', e.target.value)} aria-invalid={!!erros.email} aria-describedby="pa-email-erro" />
            <FieldError error={cadastrar.error} field="emailContato" id="pa-email-erro" messages={erros.email ? [erros.email] : []} />
          </div>
          <div className="page-field">
            <label htmlFor="pa-envio">Quantidade de Envio de Fat-e</label>
            <InputText id="pa-envio" value={form.qtdEnvioFate} maxLength={12} inputMode="numeric" onChange={(e) => set('qtdEnvioFate', e.target.value.trim())} aria-invalid={!!erros.qtdEnvioFate} aria-describedby="pa-envio-qtd pa-envio-erro" />
            {/^\d+$/.test(form.qtdEnvioFate) && <small id="pa-envio-qtd" data-testid="pa-envio-qtd">{formatQuantidade(Number(form.qtdEnvioFate))} requisições</small>}
            <FieldError error={cadastrar.error} field="qtdEnvioFate" id="pa-envio-erro" messages={erros.qtdEnvioFate ? [erros.qtdEnvioFate] : []} />
          </div>
          <div className="page-field">
            <label htmlFor="pa-monitoramento">Quantidade de Monitoramento de Documentos</label>
            <InputText id="pa-monitoramento" value="0" disabled />
          </div>
          <div className="page-field">
            <label htmlFor="pa-cessao">Quantidade de Registro de Cessão</label>
            <InputText id="pa-cessao" value="0" disabled />
          </div>
        </div>
        <div className="page-actions">
          <Button type="submit" label="Cadastrar" icon="pi pi-check" disabled={cadastrar.isPending || cotar.isPending} />
        </div>
      </form>
      <ConfirmSimNao
        target={aConfirmar}
        message={aConfirmar ? message('reservaConfirmar', { valor: formatMoney(aConfirmar.valor) }) : ''}
        onConfirm={(c) => {
          setAConfirmar(null);
          cadastrar.mutate({ body: c.reserva });
        }}
        onClose={() => setAConfirmar(null)}
      />

      {criada && (
        <section className="page-panel" aria-label="DAE da reserva">
          <h2>DAE da reserva</h2>
          <dl className="page-grid">
            <div><dt>Escriturador</dt><dd>{criada.pagamentoAntecipado.razaoSocial}</dd></div>
            <div><dt>Valor</dt><dd>{formatMoney(criada.dae.valor)}</dd></div>
            <div><dt>Vencimento</dt><dd>{formatDate(criada.dae.dtVencimento)}<AvisoVencimento dtVencimento={criada.dae.dtVencimento} /></dd></div>
            <div><dt>Linha digitável</dt><dd style={{ fontFamily: 'monospace' }}>{criada.dae.linhaDigitavel}</dd></div>
          </dl>
          <div className="page-actions">
            <Button type="button" label="Imprimir DAE" icon="pi pi-print" disabled={imprimir.isPending} onClick={() => imprimir.mutate({ params: { id: criada.dae.id } })} />
          </div>
        </section>
      )}
    </>
  );
}
