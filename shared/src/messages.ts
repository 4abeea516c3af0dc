/**
 * The pt-BR message catalogue. Unmarked texts are the product's texts, word for word: keep them
 * exactly as they are, punctuation included. Texts marked "ours" are our own wording where the product
 * defines none; each is written here once and used everywhere.
 *
 * The API answers errors as `{ "error": "<key>", "message": "<text>" }` or
 * `{ "errors": { "<field>": ["<text>"] } }`; the web app shows `message(key)` for a known key and the
 * raw value otherwise.
 */
import { SHELL_MESSAGES } from './shell-messages';

export const MESSAGES = {
  // Generic
  erroInterno: SHELL_MESSAGES.erroInterno,
  nenhumRegistro: 'Nenhum registro encontrado',
  acessoNegado: 'Você não tem acesso a esta funcionalidade.',
  buscaFalhou: 'Não foi possível realizar a busca.',
  registroSalvo: 'Registro salvo com sucesso.',
  operacaoRealizada: 'Operação realizada com sucesso.',
  operacaoFalhou: 'Erro ao realizar a operação',
  salvarFalhou: 'Erro ao tentar salvar o registro.',
  remocaoRealizada: 'Remoção realizada com sucesso.',
  remocaoFalhou: 'Erro ao tentar remover o registro.',
  recursoNaoEncontrado: 'Recurso não encontrado',
  recursoDuplicado: 'Já existe um recurso com essas informações.',
  semPermissao: 'Você não tem permissão para realizar a operação.',
  ufFalhou: 'Falha ao tentar carregar UF',
  possuiRelacionamentos: 'Não foi possível remover o registro pois ele possui outros relacionamentos.',
  removerProprioUsuario: 'Você não pode remover seu próprio usuário',
  usuarioJaAdicionado: 'Usuário já adicionado!',
  servicoIndisponivel: 'Serviço indisponível',

  // Forms and filters
  campoObrigatorio: 'O campo {field} é obrigatório.',
  camposObrigatorios: 'Todos os campos obrigatórios devem ser preenchidos.',
  dataInicioMaiorDataFim: 'Data Início maior que Data Fim.',
  /** ours: a date range spans at most 90 days */
  periodoMaximo: 'O período informado não pode ser maior que 90 dias.',
  /** ours: a value that does not pass its field's rule */
  campoInvalido: 'O campo {field} é inválido.',
  /** ours: a request body that is not JSON */
  corpoInvalido: 'O corpo da requisição não é um JSON válido.',
  /** ours: a request larger than the API accepts */
  corpoGrandeDemais: 'O corpo da requisição excede o tamanho permitido.',
  /** ours: a JSON body nested deeper than the API accepts (issue 27 item 3) */
  corpoProfundoDemais: 'O corpo da requisição tem níveis de aninhamento demais.',
  /** ours: a route that does not exist */
  rotaNaoEncontrada: 'Rota não encontrada.',
  /** ours: a method that the route does not accept */
  metodoNaoPermitido: 'Método não permitido para esta rota.',
  /** ours: too many requests from one caller */
  muitasRequisicoes: 'Muitas requisições. Aguarde alguns instantes e tente novamente.',
  /** ours: a page cursor that this caller was not given for this query, or that was altered */
  cursorInvalido: 'O cursor de paginação é inválido para esta consulta.',
  /** ours: a client past its integrator quota (requests per second) */
  cotaExcedida: 'Limite de requisições por segundo do cliente excedido. Aguarde alguns instantes e tente novamente.',

  // Session
  sessaoEncerrada: SHELL_MESSAGES.sessaoEncerrada,
  inatividade: SHELL_MESSAGES.inatividade,
  /** Token failures: the keys begin with token_ so that the web app logs the user out. */
  token_absent: 'É necessário estar autenticado para acessar este recurso.',
  token_invalid: 'Sua sessão é inválida. Favor entrar no sistema novamente.',
  token_expired: 'Sua sessão expirou. Favor entrar no sistema novamente.',

  // Login and certificate
  certificadoInvalido: 'Certificado Inválido',
  certificadoAusente: 'É necessário passar o Certificado',
  raizNaoIcpBrasil: 'A raiz do Certificado deve ser ICP-Brasil',
  /** ours: the certificate (or a CA above it) is on its CA's revocation list */
  certificadoRevogado: 'O certificado digital foi revogado pela autoridade certificadora.',
  /** ours: no current revocation list of the certificate's CA could be read; the certificate is not accepted meanwhile */
  revogacaoIndisponivel: 'Não foi possível verificar junto à autoridade certificadora se o certificado digital foi revogado. Tente novamente em instantes.',
  credenciaisInvalidas: 'Credenciais Inválidas',
  prazoSemCertificadoEncerrado: 'Encerrado o prazo para autenticar sem certificado digital.',
  dadosNaoEncontrados: 'Não foi possível encontrar seus dados',
  usuarioInativo: 'Usuário inativo.',
  /** ours: a login that failed for a reason the portal does not know */
  erroLogin: 'Não foi possível realizar o login. Tente novamente em instantes.',
  /** ours: the five client states that block a login, one text each */
  clienteDescredenciado: 'O cliente está descredenciado na plataforma. Entre em contato com a Sefaz.',
  clienteSuspenso: 'O acesso do cliente está suspenso por irregularidade. Entre em contato com a Sefaz.',
  clienteCancelado: 'O cadastro do cliente foi cancelado.',
  clienteNaoLiberado: 'O cadastro do cliente ainda não foi liberado pela Sefaz. Aguarde o e-mail de confirmação.',
  clienteDesativado: 'O cliente está desativado.',
  /** ours: too many failed logins for this account or address */
  loginBloqueado: 'Muitas tentativas de acesso sem sucesso. Tente novamente em alguns minutos.',
  /** ours: the second factor of the password logins (issue 42): the code step, enrolment, the administrator's reset */
  codigoInvalido: 'Código inválido. Informe o código de 6 dígitos do aplicativo autenticador ou um código de recuperação.',
  codigoJaUtilizado: 'Este código já foi utilizado. Aguarde o próximo código do aplicativo autenticador.',
  desafioExpirado: 'O tempo para informar o código terminou. Entre novamente com e-mail e senha.',
  segundoFatorObrigatorio: 'Ative a verificação em duas etapas em Meu perfil para continuar: ela é obrigatória para os usuários da Sefaz.',
  segundoFatorBloqueado: 'Muitos códigos inválidos. A verificação em duas etapas desta conta ficará bloqueada por 15 minutos.',
  segundoFatorNaoPermitido: 'A verificação em duas etapas é usada apenas no acesso com senha; o certificado digital já é o segundo fator.',
  segundoFatorSemCadastro: 'O cadastro da verificação em duas etapas expirou ou não foi iniciado. Comece novamente.',
  segundoFatorAtivado: 'Verificação em duas etapas ativada.',
  segundoFatorInativo: 'O usuário não tem verificação em duas etapas ativa.',
  segundoFatorRedefinido: 'Verificação em duas etapas redefinida. O usuário poderá cadastrar um novo aplicativo no próximo acesso.',

  // Password reset
  senhaLinkEnviado: 'O link para redefinição de senha foi enviado para seu email.',
  senhaReiniciada: 'Senha redefinida com sucesso.',
  senhaReinicioFalhou: 'Não foi possível reiniciar sua senha.',
  /** ours: password rules */
  senhaFraca: 'A senha deve ter de 8 a 20 caracteres, com letras e números.',
  senhaConfirmacao: 'A confirmação da senha não confere.',
  /** ours: the profile avatar (png or jpeg, at most 3 MB) */
  imagemTipoInvalido: 'Só são permitidas imagens png ou jpeg.',
  imagemGrandeDemais: 'A imagem tem {size} MB; o tamanho permitido é 3 MB.',
  /** ours: a password the profile may not change (client past its period without certificate) */
  senhaNaoAlteravel: 'Você não pode alterar a senha: seu acesso é por certificado digital.',
  /** ours: changing the login e-mail or the password asks for the current password (issue 27 item 3) */
  senhaAtualObrigatoria: 'Informe a senha atual para alterar o e-mail ou a senha.',
  senhaAtualIncorreta: 'A senha atual não confere.',
  emailNaoAlteravel: 'Seu acesso é por certificado digital: o e-mail não pode ser alterado aqui.',
  emailConfirmacaoEnviada: 'Enviamos um link de confirmação para {email}. O e-mail de acesso muda quando o link for aberto.',
  emailConfirmacaoInvalida: 'O link de confirmação de e-mail é inválido ou expirou.',
  emailAlterado: 'E-mail alterado. Entre novamente com o novo e-mail.',

  // Users
  /** ours: a user of a type needs the matching fields */
  clienteObrigatorio: 'O campo cliente é obrigatório para usuários do tipo Cliente.',
  permissaoIncompativel: 'A permissão {role} não é permitida para este tipo de usuário.',

  // Clients
  confirmacaoEmail: 'A confirmação do e-mail não confere.',
  /** ours: the captcha of the registration */
  captchaInvalido: 'Confirme que você não é um robô.',
  clienteLiberado: 'Cliente liberado com sucesso. Os usuários foram avisados por e-mail.',
  /** ours: unlock is offered only for Novo clients */
  clienteNaoNovo: 'Somente clientes na situação Novo podem ser liberados.',
  /** ours: a status change that the client status rules do not allow (domain/clientes.ts) */
  situacaoNaoPermitida: 'Situação não permitida para este cliente.',
  /** ours: SHOPPING clients have no contract to download */
  contratoIndisponivel: 'Não há contrato para clientes do tipo SHOPPING.',
  webhookCadastrado: 'Configuração de monitoramento cadastrada com sucesso.',
  webhookAtualizado: 'Configuração de monitoramento atualizada com sucesso.',
  webhookRemovido: 'Configuração de monitoramento removida com sucesso.',
  webhookCadastroFalhou: 'Erro ao cadastrar nova configuração de monitoramento.',
  webhookAtualizacaoFalhou: 'Erro ao atualizar configuração de monitoramento.',
  webhookRemocaoFalhou: 'Erro ao remover configuração de monitoramento.',
  /** ours: the webhook URL rules (https, no internal address) */
  webhookUrlInvalida: 'Informe uma URL https pública para o webhook.',
  /** ours: a webhook's user and password are given together or not at all */
  webhookUsuarioSemSenha: 'Informe a senha do usuário do webhook.',
  webhookSenhaSemUsuario: 'Informe o usuário do webhook.',
  /** ours: a kind already configured, or one the client type may not use */
  webhookOperacaoIndisponivel: 'Esta operação não está disponível para o cliente.',

  // Domain
  cnpjInvalido: 'O Cnpj informado é inválido.',
  cnpjBaseInvalido: 'O CNPJ Base informado é inválido.',
  /** ours: a CPF that fails its rules (11 digits, not all alike, two check digits) */
  cpfInvalido: 'O campo CPF é inválido.',
  ufInvalida: 'UF inválida.',
  /** ours: city search needs at least three characters */
  cidadeTextoCurto: 'Informe pelo menos 3 caracteres para buscar a cidade.',

  // Financial institutions, ESF authorisations and services
  semDadosCliente: 'Sem dados do Cliente',
  clientePlacObrigatorio: 'É necessário selecionar um cliente PLAC',
  // Consumption (functions/consumo)
  relatorioConsumoFalhou: 'Erro ao gerar relatório de consumo',
  relatorioConsumoProcessando: 'Processando relatório de consumo',
  relatorioConsumoProgresso: '{linhas} de {total} linhas',
  /** ours: the long-running action's confirmation (the product says it warns of a few minutes) */
  relatorioConsumoConfirmacao: 'O relatório de consumo pode levar alguns minutos para ser gerado. Deseja continuar?',
  /** ours: the consumption monitoring by month spans at most 12 months */
  periodoMaximoDozeMeses: 'Selecione um período de, no máximo, 12 meses.',
  somentePdf: 'Só são permitidos arquivos com extensão .pdf.',
  autorizacaoCriada: 'Autorização foi criada com sucesso!',
  autorizacaoAtualizada: 'Autorização foi atualizada com sucesso',
  instituicaoCriada: 'Instituição criada com sucesso',
  servicoAtualizado: 'Serviço Atualizado com Sucesso',
  confirmaOrdemServicos: 'Você deseja salvar a nova ordem de exibição dos serviços ?',
  /** ours: the institution list searched without any filter */
  filtroObrigatorio: 'Informe ao menos um filtro para realizar a pesquisa.',
  /** ours: a file named .pdf whose content is not a PDF document */
  conteudoNaoPdf: 'O conteúdo do arquivo não é um PDF válido.',
  /** ours: the signed authorisation is limited in size */
  arquivoGrandeDemais: 'O arquivo pode ter no máximo 4 MB.',
  /** ours: a status that the allowed transitions do not reach (domain/instituicoes.ts) */
  statusNaoPermitido: 'A alteração de status informada não é permitida.',
  /** ours: one authorisation per client and institution */
  autorizacaoDuplicada: 'Já existe uma autorização deste cliente para esta instituição.',
  /** ours: the client cannot change an authorisation once it is AUTORIZADO */
  autorizacaoNaoEditavel: 'A autorização não pode ser alterada no status atual.',
  /** ours: a client user asking for another client's data */
  clienteNaoPermitido: 'Você só pode acessar os dados do seu próprio cliente.',
  /** ours: an institution that cannot receive new authorisations */
  instituicaoIndisponivel: 'A instituição financeira informada não está disponível.',
  /** ours: the issuer may change only the institutions it created (status NOVO) */
  instituicaoNaoEditavel: 'Somente instituições novas cadastradas por você podem ser alteradas ou removidas.',
  /** ours: a new order that is not a permutation of the services */
  ordemServicosInvalida: 'A lista deve conter todos os serviços, cada um uma única vez.',
  /** ours */
  instituicaoAtualizada: 'Instituição atualizada com sucesso',
  /** ours */
  instituicaoRemovida: 'Instituição removida com sucesso',

  /** ours: the validation of every request (shared/src/validation.ts), one text per kind of zod issue */
  campoTexto: 'O campo {field} deve ser um texto.',
  campoNumero: 'O campo {field} deve ser um número.',
  campoNumeroInteiro: 'O campo {field} deve ser um número inteiro.',
  campoBooleano: 'O campo {field} deve ser verdadeiro ou falso.',
  campoLista: 'O campo {field} deve ser uma lista.',
  campoObjeto: 'O campo {field} deve ser um objeto.',
  campoData: 'O campo {field} deve ser uma data válida.',
  campoUrl: 'O campo {field} deve ser uma URL válida.',
  campoTextoMaximo: 'O campo {field} deve ter no máximo {max} caracteres.',
  campoTextoMinimo: 'O campo {field} deve ter no mínimo {min} caracteres.',
  campoTextoTamanho: 'O campo {field} deve ter exatamente {length} caracteres.',
  campoNumeroMaximo: 'O campo {field} deve ser no máximo {max}.',
  campoNumeroMenorQue: 'O campo {field} deve ser menor que {max}.',
  campoNumeroMinimo: 'O campo {field} deve ser no mínimo {min}.',
  campoNumeroMaiorQue: 'O campo {field} deve ser maior que {min}.',
  campoListaMaximo: 'O campo {field} deve ter no máximo {max}.',
  campoListaMinimo: 'O campo {field} deve ter no mínimo {min}.',
  campoDataMaxima: 'O campo {field} deve ser uma data até {max}.',
  campoDataMinima: 'O campo {field} deve ser uma data a partir de {min}.',
  campoMultiplo: 'O campo {field} deve ser múltiplo de {divisor}.',
  campoOpcoes: 'O campo {field} deve ser um dos valores: {values}.',
  campoNaoPermitido: 'O campo {field} não é permitido.',
  camposNaoPermitidos: 'Os campos {fields} não são permitidos.',
  /** ours: a JSON body that is not an object, and a missing body on a route that needs one */
  corpoObjetoEsperado: 'O corpo da requisição deve ser um objeto JSON.',
  corpoAusente: 'O corpo da requisição é obrigatório.',
  /** ours: a body that is not JSON on a JSON route (415) */
  tipoConteudoInvalido: 'O corpo da requisição deve ser enviado como application/json.',
  /** ours: request headers larger than the API accepts (431) */
  cabecalhosGrandesDemais: 'Os cabeçalhos da requisição excedem o tamanho permitido.',
  /** ours: a request that cannot be parsed as HTTP at all */
  requisicaoMalFormada: 'A requisição não pôde ser interpretada.',
  /** ours: field rules whose texts the contracts give (shared/src/contracts) */
  emailInvalido: 'Informe um e-mail válido.',
  emailGrandeDemais: 'O e-mail pode ter no máximo 100 caracteres.',
  cepInvalido: 'Informe um CEP válido.',
  telefoneInvalido: 'Informe um telefone válido com DDD.',
  tipoCadastroInvalido: 'O cadastro aceita apenas os tipos ESF e IMF.',
  permissaoObrigatoria: 'Selecione ao menos uma permissão.',
  dataInvalida: 'Data inválida.',
  tamanhoPaginaInvalido: 'Tamanho de página inválido.',
  /** ours: documents of a Sefaz distribution that cannot be processed (functions/fate/parse.ts) */
  xmlMalformado: 'O documento não é um XML bem formado: {detalhe}.',
  esquemaInvalido: 'O documento não segue o leiaute {schema}: {detalhe}.',
  chaveAcessoInvalida: 'A chave de acesso {chave} é inválida: {detalhe}.',
  duplicatasNaoFecham: 'A soma das duplicatas ({soma}) difere do valor líquido da fatura ({liquido}).',
  documentoCnpjInvalido: 'O CNPJ {papel} {cnpj} é inválido.',
  documentoCpfInvalido: 'O CPF {papel} {cpf} é inválido.',
  // Trial area (degustação, functions/degustacao); ours where the spec shows no text
  degustacaoAutorizado: 'Usuário autorizado para testes',
  /** ours: the registration's success (the spec: an e-mail will confirm access) */
  degustacaoCadastroRealizado: 'Cadastro para testes realizado com sucesso. Você receberá um e-mail confirmando o acesso.',
  /** ours: the trial consent must be accepted */
  degustacaoTermoObrigatorio: 'É necessário aceitar o termo de uso da degustação.',
  /** ours: a trial route called without the trial authorisation, or with one that does not exist */
  degustacaoNaoAutorizado: 'É necessário informar o e-mail e o token de acesso para testes.',
  degustacaoExpirado: 'Sua autorização para testes expirou. Informe novamente o e-mail e o token.',
  degustacaoDesativado: 'O acesso para testes deste cadastro foi desativado.',
  degustacaoTokenVencido: 'O token de acesso para testes está vencido. Entre em contato com a Sefaz.',
  degustacaoChaveObrigatoria: 'O campo Chave de Acesso é obrigatório.',
  degustacaoChaveInvalida: 'A Chave de Acesso deve ter 44 dígitos.',
  degustacaoChaveIndisponivel: 'A chave de acesso informada não está disponível para testes.',
  // Load control (batch import, error documents)
  sefazObrigatoria: 'É necessário escolher uma Sefaz',
  nsuObrigatorios: 'Os campos NSU Início e NSU Fim devem ser preenchidos',
  nsuFimMenorInicio: 'O NSU Fim não pode ser menor ou igual ao NSU Início',
  /** ours: the batch import's documented limit */
  loteMaximo: 'A faixa máxima de importação é de 50 NSUs.',
  /** ours: the batch import of a Sefaz the platform does not load from */
  sefazInativa: 'A Sefaz informada não está entre as Sefaz ativas da plataforma.',
  /** ours: the Sefaz did not answer or answered something else than a distribution answer */
  sefazIndisponivel: 'A Sefaz não respondeu à consulta. Tente novamente em alguns minutos.',
  dataInicioObrigatoria: 'O campo Data Início é obrigatório',
  dataFimObrigatoria: 'O campo Data Fim é obrigatório',
  faixaDataInvalida: 'Selecione um período de, no máximo, 90 dias.',
  notaNaoAutorizada: 'A NF-e {chave} não está autorizada (situação {cStat}).',
  cteNaoAutorizado: 'O CT-e {chave} não está autorizado (situação {cStat}).',
  documentoHomologacao: 'O documento {chave} foi emitido em ambiente de homologação (tpAmb 2), sem valor fiscal, e não gera Fat-e em produção.',
  cancelamentoProtocoloDivergente:
    'O cancelamento da chave {chave} cita o protocolo de autorização {protocoloEvento}, mas o documento armazenado tem o protocolo {protocoloDocumento}.',
  // Look-ups (the integrator API and the portal's look-ups; ours where the spec shows no text)
  fateNaoEncontrada: 'Não foi encontrada Fat-e para os dados informados.',
  certificadoSemCliente: 'O CNPJ do certificado não pertence a um cliente ativo da plataforma.',
  clienteSemConsulta: 'A situação do cliente não permite consultas.',
  servicoNaoPermitido: 'O serviço {servico} não está disponível para este cliente.',
  chaveIdempotenciaInvalida: 'O cabeçalho Idempotency-Key deve ter de 1 a 64 letras, dígitos ou os caracteres . _ : -',
  /** ours: creates with an Idempotency-Key (issue 27 item 2) */
  requisicaoEmAndamento: 'Uma requisição com esta Idempotency-Key ainda está em andamento. Aguarde alguns instantes e repita a mesma requisição.',
  chaveIdempotenciaReutilizada: 'Esta Idempotency-Key já foi usada em outra requisição. Use uma chave nova para cada operação.',
  periodoMaximoUmAno: 'O período da consulta não pode ser maior que 1 ano.',
  instituicaoNaoAutorizada: 'O cliente não possui autorização ativa para a instituição financeira {cnpj}.',
  faturamentoNaoEncontrado: 'Não foram encontrados documentos do emitente no período informado.',
  transportadoraSemFate: 'Não foram encontradas Fat-e da transportadora no período informado.',
  /** ours: the carrier report's grand total of a filter, while its job computes it (issue 38) */
  totalGeralCalculando: 'Calculando total…',
  /** ours: when that total was computed (a total is shown for 10 minutes after it) */
  totalGeralCalculadoEm: 'Total calculado em {data}.',
  // CSV batches (spec 3, 5.4)
  semArquivo: 'É necessário selecionar um arquivo.',
  somenteCsv: 'Só são permitidos arquivos com extensão .csv.',
  csvVazio: 'O arquivo não contém linhas para consultar.',
  csvCabecalhoInvalido: 'O cabeçalho do arquivo deve ser, nesta ordem: {cabecalho}',
  csvSeparadorInvalido: 'As colunas do arquivo devem ser separadas por ponto e vírgula (;).',
  csvGrandeDemais: 'O arquivo pode ter no máximo 1 MB.',
  csvLinhasIgnoradas: 'Foram consideradas apenas as 50 primeiras linhas do arquivo; as demais foram ignoradas.',
  csvDuplicadasIgnoradas: 'Linhas repetidas foram ignoradas: {quantidade}.',
  csvLinhaPeriodo: 'Linha {linha}: o período da consulta não pode ser maior que 1 ano.',
  // Bands and tariffs (spec 3, 5.1 and 8; ours where marked)
  campoObrigatorioCurto: 'Campo obrigatório',
  tarifacaoEmElaboracao: 'Já existe uma tarifação em elaboração.',
  grupoFaixaElaboracaoRemovido: 'Grupo Faixa em elaboração removido com sucesso.',
  grupoFaixaElaboracaoRemoverFalhou: 'Não foi possível remover o Grupo Faixa em elaboração.',
  tarifaElaboracaoRemovida: 'Tarifa em elaboração removido com sucesso.',
  faixasCadastradas: 'Faixas de Cobrança e Tarifação cadastrados com êxito.',
  faixasCadastroFalhou: 'Erro ao efetuar cadastro.',
  faixasAtualizadas: 'Faixas de Cobrança e Tarifação atualizadas com êxito.',
  faixasAtualizacaoFalhou: 'Erro ao atualizar Faixa de Cobrança e Tarifação.',
  faixaMaximaInvalida: 'A faixa máxima deve ser maior que a faixa mínima.',
  dadosIncorretos: 'Dados incorretos. Por gentileza, revise os dados enviados.',
  faixaMinimaObrigatoria: 'Deve existir pelo menos uma faixa de cobrança.',
  /** ours */
  faixaSequenciaInvalida: 'A faixa mínima deve ser a faixa máxima anterior mais 1, começando em 1.',
  /** ours */
  faixaAbertaSomenteUltima: 'Somente a última faixa pode ficar sem quantidade máxima.',
  /** ours */
  faixasDemais: 'Um grupo pode ter no máximo 20 faixas.',
  /** ours */
  faixasVigentesSomenteLeitura: 'As faixas da tarifação vigente não podem ser alteradas.',
  /** ours: a version that has been in force is never changed */
  tarifacaoImutavel: 'Uma tarifação que já esteve em vigor não pode ser alterada.',
  /** ours */
  vigenciaInicialInvalida: 'O mês de início deve ser o mês seguinte ao fim da tarifação vigente, e posterior ao mês atual.',
  /** ours */
  vigenciaFinalInvalida: 'O mês final da tarifação vigente não pode ser anterior ao mês atual.',
  /** ours */
  semTarifacaoVigente: 'Não existe tarifação vigente.',
  /** ours */
  semTarifacaoElaboracao: 'Não existe tarifação em elaboração.',
  /** ours: a concurrent change won */
  tarifacaoAlterada: 'A tarifação foi alterada por outro usuário. Recarregue a página e tente novamente.',
  /** ours */
  servicoDesconhecido: 'Serviço desconhecido: {servico}.',
  // Monthly billing (spec 2 sections 2.9, 2.10, 4, 8; issue 14; ours where marked)
  /** ours: a billing run for the current or a future month */
  faturamentoMesInvalido: 'Só é possível faturar um mês já encerrado.',
  /** ours: a month that has no tariff version in force */
  faturamentoSemTarifacao: 'Não existe tarifação vigente no mês {mes}.',
  /** ours: a run of that month is still going */
  faturamentoEmAndamento: 'Já existe um faturamento em andamento para o mês {mes}.',
  /** ours: a client's consumption reports in production are at their limit */
  relatoriosEmAndamento: 'Este cliente já tem o máximo de relatórios em produção ao mesmo tempo (3). Aguarde a conclusão de um deles e tente novamente.',
  /** ours: a run started */
  faturamentoIniciado: 'Faturamento do mês {mes} iniciado.',
  /** ours: only an open invoice can be re-priced */
  faturaNaoReprecificavel: 'Somente uma fatura em aberto pode ser recalculada.',
  /** ours: the invoice changed since it was read */
  faturaAlterada: 'A fatura foi alterada por outro usuário. Recarregue a página e tente novamente.',
  /** ours */
  faturaReprecificada: 'Fatura recalculada com sucesso.',
  /** ours: an invoice period ending after the current month */
  faturamentoMesFuturo: 'O mês final não pode ser posterior ao mês atual.',
  // Tax notes and the detail ZIP (spec 2 sections 5 and 8; ours where marked)
  uploadRealizado: 'Upload realizado com sucesso!',
  /** the spec elides the list ('Só são permitidos arquivos com extensão ...'): completed as somentePdf and somenteCsv word theirs */
  somentePdfXml: 'Só são permitidos arquivos com extensão .pdf e .xml.',
  /** ours: a file named .xml whose content is not a well-formed XML document */
  conteudoNaoXml: 'O conteúdo do arquivo não é um XML válido.',
  /** ours: the confirmation of an upload whose file never reached the storage (or whose link expired) */
  notaFiscalNaoRecebida: 'O arquivo não foi recebido. Envie-o novamente.',
  /** ours (issue 41): the evidence of a month the archive job has not archived whole yet */
  evidenciaNaoArquivada: 'As evidências deste mês ainda não foram arquivadas. O arquivamento ocorre no dia 5 do mês seguinte ao faturado.',
  // Bank return files (issue 14 item 4; all ours: the spec has no such screen)
  /** ours */
  retornoExtensao: 'Só são permitidos arquivos de retorno com extensão .ret ou .txt.',
  /** ours */
  retornoGrandeDemais: 'O arquivo de retorno pode ter no máximo 20.000 pagamentos (3,2 MB).',
  retornoEmProcessamento: 'Este arquivo de retorno está sendo importado agora. Aguarde alguns instantes e consulte a lista de arquivos importados.',
  /** ours: the file does not follow the FEBRABAN layout or its trailer does not match */
  retornoInvalido: 'O arquivo de retorno não segue o layout FEBRABAN de arrecadação e não foi importado.',
  /** ours */
  retornoImportado: 'Arquivo de retorno importado: {pagas} fatura(s) paga(s).',
  /** ours */
  retornoJaImportado: 'Este arquivo de retorno já foi importado em {data}; nada foi alterado.',
  /** ours: the header's layout version (positions 80–81) is not one the import reads */
  retornoVersaoNaoSuportada:
    'O arquivo de retorno está na versão {encontrada} do layout FEBRABAN de arrecadação; são aceitas as versões {suportadas}. O arquivo não foi importado.',
  /** ours: the header's generation date is after today (Bahia) */
  retornoDataFutura: 'A data de geração do arquivo de retorno ({data}) é posterior a hoje ({hoje}). O arquivo não foi importado.',
  /** ours: a report line whose payment date is after its file's date */
  retornoPagamentoPosteriorAoArquivo: 'Data de pagamento {pagamento} posterior à data do arquivo ({arquivo}): pagamento não registrado.',
  /** ours: a report line paid short, on time */
  retornoPagoAMenor: 'Pago a menor: devido {devido}.',
  /** ours: a report line paid short, late */
  retornoPagoAMenorComAcrescimo: 'Pago a menor: devido {devido} (acréscimo de {acrescimo} por atraso).',
  /** ours: appended to a short payment's line when it was recorded on the invoice */
  retornoParcialRegistrado: 'Registrado na fatura como pagamento parcial.',
  /** ours: after a short payment's line, what the invoice still owes (issue 37) */
  retornoSaldoDevedor: 'Saldo devedor: {saldo}.',
  /** ours: the same payment (barcode, day, amount, bank authentication) was recorded before, by this or another file */
  retornoPagamentoJaRegistrado: 'Pagamento já registrado na fatura{arquivo}; nada foi alterado.',
  /** ours: a payment over what was owed: the excess is kept on the invoice and reported, to be refunded */
  retornoPagoAMaior: 'Pago a maior: {excedente} recebido(s) além do devido, a devolver.',
  /** ours: an invoice still open that received short payments (list and detail) */
  faturaPagaParcialmente: 'Pago parcialmente',
  /** ours: one short payment, after the status */
  faturaPagamentoParcial: '{valor} em {data}',
  /** ours: the invoice's payment (detail and its print) */
  faturaPagamento: '{valor} em {data}',
  /** ours: the DAE of an invoice paid in part is for its balance (issue 37) */
  daeComplementar: 'DAE complementar do saldo devedor: {valor}.',
  /** ours: an invoice with no DAE generated yet (detail) */
  faturaSemDae: 'Não gerado',
  /** ours: an invoice not paid yet (detail) */
  faturaNaoPaga: 'Não pago',
  // DAE (spec 2 section 4 "DAE generation"; issue 14 item 3; ours where marked)
  /** ours: a DAE for an invoice that is not open */
  daeFaturaNaoAberta: 'Somente uma fatura em aberto pode ter DAE emitido.',
  /** ours: the default due date has passed and no new one was given */
  daeVencimentoExpirado: 'A data de vencimento {data} já passou. Informe uma nova data de vencimento.',
  /** ours: a new due date outside today … the end of next month */
  daeVencimentoForaDoPrazo: 'A data de vencimento deve estar entre {inicio} e {fim}.',
  /** ours: the dialog's title and the action */
  daeNovoVencimento: 'Informe a nova data de vencimento do DAE',
  /** ours: a due date on a non-business day of the issuing state (CTN art. 210, sole paragraph) */
  daeVencimentoDiaNaoUtil: 'O vencimento cai em dia não útil ({motivo}); o pagamento sem acréscimo pode ser feito até {data}.',
  /** ours: the browser blocked the new tab */
  daePopupBloqueado: 'O navegador bloqueou a abertura do DAE. Permita pop-ups para este site e tente novamente.',
  // Issuer consent (spec 1 sections 4, 5 and 8; spec 3 5.7 and 8; ours where marked)
  cnpjFilialForaDoBase: 'O Cnpj informado deve pertencer ao Cnpj Base.',
  filialDuplicada: 'Já foi informada a Filial com esse Cnpj.',
  cnpjBaseInstituicaoInvalido: 'O Cnpj Base informado é inválido.',
  semDadosFiltro: 'Não foram encontrados dados para esse filtro',
  /** ours: the consent search without any filter (spec 3 5.7, key erroFiltro) */
  erroFiltro: 'Informe ao menos um filtro para realizar a pesquisa.',
  /** ours: a start date without an end date (spec 3 5.7, key dataFimMandatoria) */
  dataFimMandatoria: 'A Data Fim é obrigatória quando a Data Início é informada.',
  /** ours: the consent saved from the wizard */
  consentimentoRegistrado: 'Consentimento registrado com sucesso.',
  /** ours: the consent removed */
  consentimentoRemovido: 'Consentimento removido com sucesso.',
  /** ours: the message page after saving or removing (the session is closed) */
  consentimentoSessaoEncerrada: 'Sua sessão foi encerrada. Para alterar o consentimento, entre novamente com o certificado digital.',
  /** ours: saving without accepting the consent text */
  consentimentoTermoObrigatorio: 'É necessário ler e aceitar o termo de consentimento.',
  /** ours: a removal without an active consent */
  consentimentoInexistente: 'Não existe consentimento ativo para remover.',
  /** ours: the certificate's own branch must be in the consent */
  consentimentoFilialPropria: 'A filial do certificado digital ({cnpj}) deve constar no consentimento.',
  /** ours: a branch already consented cannot be removed nor have its CNPJ or UF changed */
  consentimentoFilialPersistida: 'A filial {cnpj} já consentida não pode ser removida nem ter a UF alterada.',
  /** ours: an institution listed twice */
  consentimentoInstituicaoDuplicada: 'A instituição financeira {cnpj} foi informada mais de uma vez.',
  /** ours: an institution that is not in the registry, or not available to this issuer */
  consentimentoInstituicaoIndisponivel: 'A instituição financeira {cnpj} não está disponível para o consentimento.',
  /** ours: a consent changed by another session since it was read */
  consentimentoAlterado: 'O consentimento foi alterado em outra sessão. Recarregue a página e tente novamente.',
  /** ours: too many branches or institutions in one consent */
  consentimentoItensDemais: 'O consentimento pode ter no máximo {max} {itens}.',
  /** ours: the billing look-up of an issuer without an active consent naming the institution (nothing is charged) */
  semConsentimento: 'O emitente {cnpj} não possui consentimento ativo para compartilhar o faturamento com a instituição financeira {cnpjInst}.',
  /** ours: the replay of a webhook delivery its receiver already accepted */
  webhookJaEntregue: 'Esta mensagem já foi entregue e não será reenviada.',
  /** ours: the replay of a webhook delivery the queue is still trying */
  webhookPendente: 'Esta mensagem ainda está em tentativa de entrega.',
  /** ours: a webhook delivery queued again */
  webhookReenviado: 'Mensagem enviada novamente para entrega.',
  /** ours: the failed deliveries of a period queued again */
  webhookReenviados: '{n} mensagem(ns) com falha enviada(s) novamente para entrega.',
  /** ours: too many failed deliveries in the period to replay at once */
  /** ours: resuming a webhook endpoint that is not paused (resumed meanwhile) */
  webhookNaoPausado: 'O envio deste webhook não está pausado.',
  /** ours: a paused webhook endpoint resumed, with its held deliveries queued again */
  webhookRetomado: 'Envio retomado: {n} mensagem(ns) retida(s) enviada(s) para entrega.',
  /** ours: a resume or replay-all job started (it runs in the background; the screen follows it) */
  webhookRetomadaIniciada: 'Retomada do envio iniciada: as mensagens retidas estão sendo enviadas para entrega.',
  webhookReenvioIniciado: 'Reenvio iniciado: as mensagens com falha estão sendo enviadas novamente para entrega.',
  /** ours: a resume or replay-all job still running */
  webhookJobEmAndamento: '{n} mensagem(ns) enviada(s) para entrega até agora.',
  // Monitored keys (operation EVENTO, 'Monitoramento de Documentos'); ours: the spec has no such screen
  /** ours: a key that is not a valid access key (44 characters, UF, model, CNPJ, check digit) */
  chaveMonitoradaInvalida: 'Informe uma chave de acesso válida: 44 dígitos com o dígito verificador correto.',
  /** ours: the administrator must say whose key it is */
  monitoramentoClienteObrigatorio: 'Selecione o cliente.',
  /** ours */
  chaveJaMonitorada: 'Esta chave de acesso já está em monitoramento para este cliente.',
  /** ours */
  chaveMonitoradaCadastrada: 'Chave de acesso cadastrada para monitoramento.',
  /** ours */
  chaveMonitoradaRemovida: 'Chave de acesso removida do monitoramento.',
  /** ours: the removal's confirmation */
  chaveMonitoradaConfirmarRemocao: 'Deseja remover a chave de acesso {chave} do monitoramento?',
  /** ours: a client at its limit of monitored keys */

  // Registro de Cessão (service 8, functions/cessao, docs/cessao.md); ours: the spec has no such operation
  /** ours: the assignment registered (201), or the same registration repeated by its client (200) */
  cessaoRegistrada: 'Cessão registrada com sucesso.',
  /** ours: the Fat-e of the key was cancelled by its issuer */
  cessaoFateCancelada: 'Fat-e cancelada: a cessão não pode ser registrada.',
  /** ours: nDup is not one of the Fat-e's instalments */
  cessaoParcelaInexistente: 'Parcela não encontrada: a Fat-e não tem a duplicata {nDup}.',
  /** ours: the assigned value is above the instalment's */
  cessaoValorAcimaDaParcela: 'Valor da cessão acima do valor da parcela {nDup} ({valor}).',
  /** ours: an assignment dated after today (Bahia) */
  cessaoDataFutura: 'A data da cessão não pode ser posterior a hoje.',
  /** ours: an assignment dated before the Fat-e was issued */
  cessaoDataAnteriorEmissao: 'A data da cessão não pode ser anterior à emissão da Fat-e ({data}).',
  /** ours: the caller's client is not the bookkeeper (IMF) named by the drawer's consent */
  cessaoNaoPermitida: 'Seu cliente não é escriturador desta Fat-e: somente a instituição indicada no consentimento do sacador pode registrar ou consultar suas cessões.',
  /** ours: the instalment already has an assignment (another one, or by another client) */
  cessaoParcelaJaCedida: 'Parcela já cedida: a duplicata {nDup} desta Fat-e já tem uma cessão registrada e não pode ser cedida novamente.',

  // Revenue sharing and banks (spec 3 sections 4.2, 5.2 and 8; spec 2 section 4; ours where marked)
  bancoCadastrado: '{nome} cadastrado com sucesso!',
  bancoAtualizado: '{nome} atualizado com sucesso!',
  nenhumaBancoEncontrado: 'Nenhuma Banco Encontrado',
  nenhumBancoEncontrado: 'Nenhum Banco foi encontrado',
  /** ours: a bank code that is not 3 digits */
  bancoCodigoInvalido: 'O código do banco deve ter 3 dígitos.',
  /** ours: an ISPB that is not 8 digits (the Central Bank's ISPB) */
  bancoIspbInvalido: 'O ISPB deve ter 8 dígitos.',
  /** ours: a bank code already registered */
  bancoCodigoDuplicado: 'Já existe um banco com o código informado.',
  /** ours: an ISPB already registered for another bank */
  bancoIspbDuplicado: 'Já existe um banco com o ISPB informado.',
  grupoRateioElaboracaoRemovido: 'Grupo Rateio em elaboração removido com sucesso.',
  grupoRateioEmElaboracao: 'Já existe uma grupo de rateio em elaboração.',
  grupoRateioAtualizado: 'Grupo de Rateio e Beneficiados atualizados com êxito.',
  grupoRateioAtualizarFalhou: 'Erro ao atualizar Grupo de Rateio e Beneficiados.',
  grupoRateioCadastrado: 'Grupo de Rateio e Beneficiados cadastrados com êxito.',
  grupoRateioCadastrarFalhou: 'Erro ao cadastrar Grupo de Rateio e Beneficiados.',
  semParticipanteSefaz: 'Não existem participantes do tipo Sefaz disponíveis',
  confirmarExclusaoGrupoRateio: 'Tem certeza que deseja excluir o grupo de rateio em elaboração ?',
  residuoObrigatorio: "O beneficiado do tipo 'Resíduo Distribuição' é obrigatório.",
  percentualNaoTotaliza: 'O rateio do percentual não totaliza 100%. Por favor, verificar.',
  semPrevisaoRateio: 'Não existe previsão de rateio para o mês informado',
  confirmarRepasseDefinitivo: 'Deseja realmente gerar o relatório definitivo do repasse?',
  /** ours: a percentage below 1 (set to 1) */
  percentualMenorUm: 'O percentual deve ser no mínimo 1%.',
  /** ours: a percentage above 100 (set to 100) */
  percentualMaiorCem: 'O percentual deve ser no máximo 100%.',
  /** ours: a percentage that is not above 0 and at most 100 */
  percentualInvalido: 'Informe um percentual maior que 0 e no máximo 100.',
  /** ours: removing the last SEFAZ beneficiary */
  minimoSefaz: 'O grupo de rateio deve ter ao menos um beneficiado do tipo SEFAZ.',
  /** ours: deactivating the last active SEFAZ agreement */
  minimoSefazAtivo: 'O grupo de rateio deve ter ao menos um beneficiado SEFAZ com convênio ativo.',
  /** ours: a check digit of two or more characters */
  digitoVerificadorInvalido: 'O dígito verificador deve ter exatamente um caractere.',
  /** ours: a new participant without a name */
  participanteNomeObrigatorio: 'Informe o nome do participante.',
  /** ours: a participant already in the group */
  participanteExistente: 'O participante já faz parte do grupo de rateio.',
  /** ours: adding a beneficiary without a type */
  participanteTipoObrigatorio: 'Informe o tipo do beneficiado.',
  /** ours: a new participant of type SEFAZ */
  participanteNovoSefaz: 'Um novo participante não pode ser do tipo SEFAZ.',
  /** ours: a second Resíduo Distribuição beneficiary */
  residuoUnico: "Já existe um beneficiado do tipo 'Resíduo Distribuição'.",
  /** ours: a change to a group that has been in force, other than its name, accounts or agreements */
  grupoRateioImutavel: 'Um grupo de rateio que já esteve em vigor só pode ter o nome, as contas e os convênios alterados.',
  /** ours: no sharing group in force */
  semGrupoRateioVigente: 'Não existe grupo de rateio vigente.',
  /** ours: no draft sharing group */
  semGrupoRateioElaboracao: 'Não existe grupo de rateio em elaboração.',
  /** ours: the group changed meanwhile */
  grupoRateioAlterado: 'O grupo de rateio foi alterado por outro usuário. Recarregue a página e tente novamente.',
  /** ours: a validity month out of the allowed range */
  vigenciaRateioInvalida: 'O mês de vigência informado não é permitido.',
  /** ours: a beneficiary's participant that does not exist */
  participanteDesconhecido: 'Participante não encontrado.',
  /** ours: a bank account whose bank is not registered */
  bancoDesconhecido: 'Banco não encontrado.',
  /** ours: a repasse of a month that has not ended */
  repasseMesInvalido: 'O repasse só pode ser gerado para um mês já encerrado.',
  /** ours: a second definitive repasse of a month, or a simulation after it */
  repasseDefinitivoJaGerado: 'O relatório definitivo do repasse deste mês já foi gerado.',
  /** ours: a repasse run of the month still running */
  repasseEmAndamento: 'Já existe um processamento de repasse em andamento para este mês.',
  /** ours: the definitive report or the transfer orders of a month with nothing to transfer (issue 28) */
  repasseDefinitivoVazio: 'O repasse definitivo do mês informado não tem valores a transferir.',
  /** ours: a repasse run started */
  repasseIniciado: 'Processamento do repasse iniciado.',
  /** ours: a payment query beyond the previous month */
  pagamentoMesInvalido: 'O período da consulta de pagamentos vai no máximo até o mês anterior.',

  // Prepaid requests for bookkeepers (spec 3, 5.3 and 8)
  reservaCadastrada: 'Cadastrado com sucesso!',
  reservaJaExiste: 'Rejeição: Já existe um cadastro de pagamento antecipado para este CNPJ.',
  reservaCnpjObrigatorio: 'O campo CNPJ precisa ser preenchido',
  reservaEmailInvalido: 'O e-mail informado não está válido',
  reservaEmailObrigatorio: 'O campo de e-mail precisa ser preenchido',
  reservaQuantidadeMinima: 'A quantidade mínima para reservar as requisições é de 50.000.000',
  reservaValorMinimoCampo: 'O valor mínimo é 50.000.000',
  reservaApenasNumeros: 'Apenas números são permitidos',
  /** ours: the confirmation before a reservation is saved, with its value */
  reservaConfirmar: 'Confirmar cadastro da reserva no valor de {valor}?',
  /** ours: a reservation for a CNPJ that is not a registered bookkeeper (an IMF client) */
  reservaEscrituradorInvalido: 'O CNPJ informado não é de um escriturador cadastrado.',
  /** ours: no tariff version in force to price a reservation */
  reservaSemTarifa: 'Não há tarifação vigente para calcular o valor da reserva.',
  /** ours: the admin did not pick a bookkeeper */
  prepagoEscrituradorObrigatorio: 'Selecione o escriturador.',
  /** ours: a statement month after the current one */
  extratoMesInvalido: 'O mês do extrato vai no máximo até o mês atual.',
  /** ours: a list's "Exportar CSV" with more rows than a file takes */
  exportacaoLimite: 'A pesquisa tem mais de {max} registros, o máximo de uma exportação: refine os filtros e exporte novamente.',
  /** ours: a list's "Exportar CSV" with no rows */
  exportacaoVazia: 'Não há registros para exportar: pesquise antes.',
} as const;

export type MessageKey = keyof typeof MESSAGES;

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.hasOwn(MESSAGES, value);
}

/** The text of a key with its {placeholders} filled in. */
export function message(key: MessageKey, vars: Record<string, string> = {}): string {
  return MESSAGES[key].replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

/** For the web app: a known key becomes its text; anything else is shown as it came. */
export function translate(value: string): string {
  return isMessageKey(value) ? MESSAGES[value] : value;
}
